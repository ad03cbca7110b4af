/// An HTTP request routed to ``WebServerDelegate/handle(_:)`` (the `/healthz` and `/api` mounts).
public struct HTTPRequest: Sendable, Equatable {
    /// The request method, e.g. `"GET"`.
    public let method: String
    /// The decoded path including the mount prefix, e.g. `"/api/events"`, without the query.
    public let path: String
    /// The decoded query parameters; for a repeated name the last value wins.
    public let query: [String: String]

    /// Creates a request value (the server builds these; tests may too).
    public init(method: String, path: String, query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
    }
}

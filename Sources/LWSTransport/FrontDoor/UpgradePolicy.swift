/// Decides whether a WebSocket upgrade request is accepted, from values read off the request.
struct UpgradePolicy: Sendable {
    /// Why an upgrade was refused, with the HTTP status it is answered with.
    enum Refusal: Equatable {
        /// The upgrade targets another path than the WebSocket path (404).
        case wrongPath
        /// The `Origin` is neither the server's own nor allowed (403).
        case foreignOrigin
        /// The `Host` does not name this server (403; see ``HostPolicy``).
        case foreignHost
        /// The server already holds `maxConnections` WebSockets (503).
        case overCapacity

        /// The HTTP status answered.
        var status: Int {
            switch self {
            case .wrongPath: 404
            case .foreignOrigin, .foreignHost: 403
            case .overCapacity: 503
            }
        }

        /// The plain-text body answered.
        var text: String {
            switch self {
            case .wrongPath: "Not Found\n"
            case .foreignOrigin, .foreignHost: "Forbidden\n"
            case .overCapacity: "Service Unavailable: the server holds as many WebSockets as it may\n"
            }
        }
    }

    let webSocketPath: String
    let allowedOrigins: Set<String>
    let maxConnections: Int

    init(webSocketPath: String, allowedOrigins: [String], maxConnections: Int) {
        self.webSocketPath = webSocketPath
        self.allowedOrigins = Set(allowedOrigins.map(Self.normalized))
        self.maxConnections = maxConnections
    }

    /// Nil to accept, else why not. `origin` and `host` are the raw header values (nil when absent).
    func evaluate(path: String, origin: String?, host: String?, openConnections: Int) -> Refusal? {
        guard path == webSocketPath else { return .wrongPath }
        if let origin, !isAccepted(origin: origin, host: host) { return .foreignOrigin }
        guard openConnections < maxConnections else { return .overCapacity }
        return nil
    }

    private func isAccepted(origin: String, host: String?) -> Bool {
        let origin = Self.normalized(origin)
        if let host, !host.isEmpty, origin == Self.normalized("http://" + host) { return true }
        return allowedOrigins.contains(origin)
    }

    // Scheme and host compare case-insensitively; a trailing slash is not part of an origin.
    private static func normalized(_ origin: String) -> String {
        var value = origin.trimmingCharacters(in: " \t")
        while value.hasSuffix("/") { value.removeLast() }
        return value.lowercased()
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}

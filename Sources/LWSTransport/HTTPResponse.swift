/// The answer of ``WebServerDelegate/handle(_:)``; the server adds content-length and the security headers.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The `content-type` header value.
    public var contentType: String
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int = 200, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A JSON response (`application/json`).
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// A plain-text response (`text/plain; charset=utf-8`).
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

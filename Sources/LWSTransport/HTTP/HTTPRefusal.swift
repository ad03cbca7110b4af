/// An answer the front door gives itself, before libwebsockets sees the connection: a complete HTTP/1.1
/// response with the security headers libwebsockets adds to the server's other answers and
/// `connection: close` (the door closes the connection after it).
struct HTTPRefusal: Sendable, Equatable {
    /// The status code, e.g. 400.
    let status: Int
    /// The reason phrase of the status line.
    let reason: String
    /// What the one-line body says after the reason phrase (`Bad Request: …`); nil for the phrase alone.
    var detail: String?
    /// Header lines the answer adds (`name: value`), e.g. the version a 426 asks for.
    var headers: [String] = []

    /// The request line or a header line is malformed, or the target holds a NUL (`%00`).
    static let badRequest = HTTPRefusal(status: 400, reason: "Bad Request")
    /// An absolute-form target that names another server.
    static let forbidden = HTTPRefusal(status: 403, reason: "Forbidden")
    /// The request head did not arrive within the head timeout.
    static let requestTimeout = HTTPRefusal(status: 408, reason: "Request Timeout")
    /// More query parameters than libwebsockets' header table holds.
    static let uriTooLong = HTTPRefusal(status: 414, reason: "URI Too Long")
    /// The request head is larger than the limit, or has more header lines.
    static let headerFieldsTooLarge = HTTPRefusal(status: 431, reason: "Request Header Fields Too Large")
    /// Every descriptor for connections is taken.
    static let serviceUnavailable = HTTPRefusal(status: 503, reason: "Service Unavailable")
    /// A request line naming an HTTP version other than 1.0 or 1.1.
    static let versionNotSupported = HTTPRefusal(status: 505, reason: "HTTP Version Not Supported")

    /// The methods every path takes: the page's files and the API are read, never written.
    static let allowedMethods = "GET, HEAD, OPTIONS"
    /// `OPTIONS` (RFC 9110 §9.3.7): what every path takes, and no content.
    static let options = HTTPRefusal(status: 204, reason: "No Content", headers: ["allow: \(allowedMethods)"])
    /// A method RFC 9110 defines (`PUT`, `POST`, `DELETE`, `PATCH`, `CONNECT`, `TRACE`) that no path takes.
    static func methodNotAllowed(_ method: String) -> HTTPRefusal {
        HTTPRefusal(
            status: 405, reason: "Method Not Allowed", detail: "\(method) (this server takes \(allowedMethods))",
            headers: ["allow: \(allowedMethods)"])
    }
    /// A method the server does not know (RFC 9110 §15.6.2), or a transfer coding it cannot frame (RFC 9112 §6.1).
    static func notImplemented(_ detail: String) -> HTTPRefusal {
        HTTPRefusal(status: 501, reason: "Not Implemented", detail: detail)
    }

    /// A well-formed request the server refuses, saying why in one line.
    static func badRequest(_ detail: String) -> HTTPRefusal {
        HTTPRefusal(status: 400, reason: "Bad Request", detail: detail)
    }

    /// A WebSocket handshake for a version other than 13 (RFC 6455 §4.4): the answer names the version spoken.
    static func upgradeRequired(_ detail: String) -> HTTPRefusal {
        HTTPRefusal(
            status: 426, reason: "Upgrade Required", detail: detail, headers: ["sec-websocket-version: 13"])
    }

    /// The one-line body: the reason phrase, then the detail if there is one.
    var text: String { detail.map { "\(reason): \($0)\n" } ?? reason + "\n" }

    // What LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE makes libwebsockets 4.1.6 add to
    // every other answer (copied from its answers; HTTPEdgeCaseTests compares the two).
    static let securityHeaders: [(String, String)] = [
        (
            "content-security-policy",
            "default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; style-src 'self'; "
                + "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none';form-action 'self';"
        ),
        ("x-content-type-options", "nosniff"),
        ("x-xss-protection", "1; mode=block"),
        ("x-frame-options", "deny"),
        ("referrer-policy", "no-referrer"),
    ]

    /// The whole response: status line, headers and a one-line text body (none for a 204, which has no content).
    var bytes: [UInt8] {
        let body = status == 204 ? "" : text
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in Self.securityHeaders { head += "\(name): \(value)\r\n" }
        for line in headers { head += line + "\r\n" }
        if status != 204 {
            head += "content-type: text/plain; charset=utf-8\r\n"
            head += "content-length: \(body.utf8.count)\r\n"
        }
        head += "cache-control: no-store\r\n"
        head += "connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }
}

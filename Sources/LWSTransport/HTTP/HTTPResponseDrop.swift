/// A dynamic HTTP answer whose connection ended before the whole body was written.
public struct HTTPResponseDrop: Sendable, Equatable {
    /// Why the answer was not finished.
    public enum Reason: Sendable, Equatable {
        /// The reader read nothing for ``WebServerConfiguration/httpStallTimeoutSeconds``; the server dropped it.
        case readerStalled(seconds: Int)
        /// The client closed (or reset) the connection first.
        case closedByClient
    }

    /// The request answered.
    public var request: HTTPRequest
    /// The answer's status code.
    public var status: Int
    /// Body bytes handed to the socket before the end.
    public var bytesWritten: Int
    /// The whole body's length (its `content-length`).
    public var bodyBytes: Int
    /// Why it ended early.
    public var reason: Reason

    /// Creates a value (the server builds these).
    public init(request: HTTPRequest, status: Int, bytesWritten: Int, bodyBytes: Int, reason: Reason) {
        self.request = request
        self.status = status
        self.bytesWritten = bytesWritten
        self.bodyBytes = bodyBytes
        self.reason = reason
    }

    /// One line for a log: `HTTP answer cut off: GET /api/events 200, 1048576 of 4194304 body bytes written (…)`.
    public var description: String {
        let why =
            switch reason {
            case .readerStalled(let seconds): "the reader read nothing for \(seconds) s and was dropped"
            case .closedByClient: "the client closed the connection"
            }
        return "HTTP answer cut off: \(request.method) \(request.path) \(status), \(bytesWritten) of \(bodyBytes) "
            + "body bytes written (\(why))"
    }
}

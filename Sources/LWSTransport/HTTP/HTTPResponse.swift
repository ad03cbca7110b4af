import SystemCalls

/// The answer of ``WebServerDelegate/handle(_:)``; the server adds content-length and the security headers.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The `content-type` header value.
    public var contentType: String
    /// The body bytes.
    public var body: [UInt8]
    /// A file streamed as the body instead of `body` (``file(_:contentType:status:)``).
    public var file: HTTPFileBody?

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

extension HTTPResponse {
    /// A file sent as the body (`application/x-ndjson` for a trace, say), a fragment per write.
    public static func file(_ file: HTTPFileBody, contentType: String, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse(status: status, contentType: contentType, body: [])
        response.file = file
        return response
    }
}

/// A file an answer streams as its body (``HTTPResponse/file``): the service thread reads it a fragment at a
/// time as the socket takes it, never whole, so a large file holds up no other connection. Owns its
/// descriptor, closed when the answer is done or dropped. Its length is the file's when it was opened: a file
/// that grows meanwhile (a live trace) is sent as it was.
public final class HTTPFileBody: Sendable, Equatable {
    /// The bytes the answer sends (`content-length`).
    public let length: Int
    private let descriptor: Int32

    /// Opens `path` for reading; nil when it cannot be opened (no such file).
    public init?(path: String) {
        guard case .success(let descriptor) = Syscall.openForReading(path) else { return nil }
        guard case .success(let size) = Syscall.fileSize(descriptor) else {
            Syscall.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        length = size
    }

    deinit {
        Syscall.close(descriptor)
    }

    /// `count` bytes from `offset`; fewer when the file shrank since it was opened.
    func read(at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Syscall.pread(
                    descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: offset + filled)
            }
            guard case .success(let got) = read, got > 0 else { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    public static func == (lhs: HTTPFileBody, rhs: HTTPFileBody) -> Bool { lhs === rhs }
}

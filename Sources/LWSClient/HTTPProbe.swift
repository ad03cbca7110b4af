import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A raw HTTP/1.1 client over a POSIX socket, for tests: it sends the request line exactly as
/// given (un-normalized paths such as `/../x` or `/%2e%2e/x` included) and reads one response.
public enum HTTPProbe {
    /// One HTTP response.
    public struct Response: Sendable, Equatable {
        /// The status code, e.g. 200.
        public var status: Int
        /// The header fields in order, names as sent.
        public var headers: [Header]
        /// The body (per `content-length`, else up to the end of the connection).
        public var body: [UInt8]

        /// The first value of a header, matched case-insensitively.
        public func header(_ name: String) -> String? {
            let name = name.lowercased()
            return headers.first { $0.name.lowercased() == name }?.value
        }

        /// The body decoded as UTF-8.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One header field.
    public struct Header: Sendable, Equatable {
        /// The field name as sent.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String
    }

    /// Why a probe failed.
    public enum Failure: Error, Equatable {
        /// The host is not a numeric IPv4 address (or `localhost`).
        case badAddress(String)
        /// `socket`/`connect`/`send` failed with this errno.
        case socketError(Int32)
        /// No complete response before the deadline.
        case timedOut
        /// The connection ended before a status line and headers arrived.
        case noResponse
        /// The response head could not be parsed.
        case malformed
    }

    /// Sends `GET path` with `Host`, `Connection: close` and the extra headers, and reads the response.
    public static func get(
        host: String = "127.0.0.1",
        port: Int,
        path: String,
        headers: [(String, String)] = [],
        timeout: Duration = .seconds(5)
    ) throws -> Response {
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "connection" }) {
            request += "Connection: close\r\n"
        }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        return try exchange(host: host, port: port, request: Array(request.utf8), timeout: timeout)
    }

    /// Sends a WebSocket upgrade request for `path` and reads the answer (101 on success).
    public static func upgrade(
        host: String = "127.0.0.1",
        port: Int,
        path: String = "/ws",
        subprotocol: String? = nil,
        origin: String? = nil,
        timeout: Duration = .seconds(5)
    ) throws -> Response {
        var headers: [(String, String)] = [
            ("Connection", "Upgrade"), ("Upgrade", "websocket"),
            ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ]
        if let subprotocol { headers.append(("Sec-WebSocket-Protocol", subprotocol)) }
        if let origin { headers.append(("Origin", origin)) }
        return try get(host: host, port: port, path: path, headers: headers, timeout: timeout)
    }

    /// Sends `request` verbatim and reads one response; for a 101 it stops after the head.
    public static func exchange(
        host: String = "127.0.0.1", port: Int, request: [UInt8], timeout: Duration = .seconds(5)
    ) throws -> Response {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let fd = try connect(host: host, port: port, deadline: deadline)
        defer { Syscall.close(fd) }
        try sendAll(fd, request, deadline: deadline)

        var received: [UInt8] = []
        var head: (status: Int, headers: [Header], bodyStart: Int)?
        while true {
            if head == nil, let end = headEnd(received) {
                head = try parseHead(Array(received[..<end]))
                head?.bodyStart = end + 4
            }
            if let head {
                let available = received.count - head.bodyStart
                if head.status == 101 || head.status == 204 || head.status == 304 {
                    return Response(status: head.status, headers: head.headers, body: [])
                }
                if let length = head.headers.first(where: { $0.name.lowercased() == "content-length" })
                    .flatMap({ Int($0.value) }), available >= length
                {
                    return Response(
                        status: head.status, headers: head.headers,
                        body: Array(received[head.bodyStart..<(head.bodyStart + length)])
                    )
                }
            }
            guard let chunk = try receive(fd, deadline: deadline) else {
                guard let head else { throw Failure.noResponse }
                return Response(status: head.status, headers: head.headers, body: Array(received[head.bodyStart...]))
            }
            received += chunk
        }
    }

    // MARK: - Sockets

    private static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard Syscall.parseAddress(numeric, family: AF_INET, into: &address.sin_addr) else {
            throw Failure.badAddress(host)
        }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try Syscall.socket(family: AF_INET, type: type).mapError { Failure.socketError($0.code) }.get()
        do {
            switch Syscall.connect(fd, to: storage, length: socklen_t(MemoryLayout<sockaddr_in>.size)) {
            case .success:
                break
            case .failure(let error) where error.code == EINPROGRESS:
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                let pending = try Syscall.pendingError(fd).mapError { Failure.socketError($0.code) }.get()
                if pending != 0 { throw Failure.socketError(pending) }
            case .failure(let error):
                throw Failure.socketError(error.code)
            }
        } catch {
            Syscall.close(fd)
            throw error
        }
        return fd
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8], deadline: ContinuousClock.Instant) throws {
        var offset = 0
        while offset < bytes.count {
            switch bytes[offset...].withUnsafeBytes({ Syscall.send(fd, $0, flags: 0) }) {
            case .success(let sent): offset += sent
            case .failure(let error) where error.wouldBlock: try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            case .failure(let error): throw Failure.socketError(error.code)
            }
        }
    }

    /// The next bytes, or nil at the end of the stream (a reset counts as the end).
    private static func receive(_ fd: Int32, deadline: ContinuousClock.Instant) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            switch buffer.withUnsafeMutableBytes({ Syscall.recv(fd, into: $0, flags: 0) }) {
            case .success(let count) where count > 0: return Array(buffer[..<count])
            case .success: return nil
            case .failure(let error) where error.wouldBlock: try wait(fd, for: Int16(POLLIN), deadline: deadline)
            case .failure(let error) where error.code == ECONNRESET: return nil
            case .failure(let error): throw Failure.socketError(error.code)
            }
        }
    }

    private static func wait(_ fd: Int32, for events: Int16, deadline: ContinuousClock.Instant) throws {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw Failure.timedOut }
        let milliseconds =
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        var descriptors = [pollfd(fd: fd, events: events, revents: 0)]
        switch Syscall.poll(&descriptors, timeoutMilliseconds: Int32(clamping: max(1, milliseconds))) {
        case .success(let ready): if ready == 0 { throw Failure.timedOut }
        case .failure(let error): throw Failure.socketError(error.code)
        }
    }

    // MARK: - Parsing

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func parseHead(_ bytes: [UInt8]) throws -> (status: Int, headers: [Header], bodyStart: Int) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let statusLine = lines.first else { throw Failure.malformed }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { throw Failure.malformed }
        var headers: [Header] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed }
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
            headers.append(Header(name: String(line[..<colon]), value: String(value)))
        }
        return (status, headers, 0)
    }
}

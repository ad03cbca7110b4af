import LWSClient
import SocketTestSupport
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// One connection carrying raw bytes (pipelined requests, odd request lines), read until the server
/// closes it or goes quiet; every wait is bounded.
enum RawHTTP {
    /// One response read off the connection.
    struct Response: Equatable {
        var statusLine: String
        var headers: [String: String]
        var body: [UInt8]
        var status: Int { statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0 }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// What came back: the responses in order, whether the server closed, and any bytes left over.
    struct Exchange {
        var responses: [Response]
        var closedByServer: Bool
        var leftover: [UInt8]
    }

    /// Sends `request` and reads until the server closes or sends nothing for `quiet`. A slow reader:
    /// `receiveBuffer` shrinks the socket's buffer (so the kernel cannot take the whole answer at once),
    /// `pauseFirst` waits before reading, `bytesPerSecond` paces the reading.
    static func exchange(
        port: Int, _ request: [UInt8], quiet: Duration = .seconds(2), receiveBuffer: Int? = nil,
        pauseFirst: Duration = .zero, bytesPerSecond: Int? = nil
    ) throws -> Exchange {
        // Whole seconds, as the quiet time always was.
        let quietSeconds = Duration.seconds(quiet.components.seconds)
        let fd = try LoopbackSocket.connect(port: port, receiveBuffer: receiveBuffer, receiveTimeout: quietSeconds)
        defer { Syscall.close(fd) }
        try? LoopbackSocket.sendAll(fd, request)  // the server may close before reading everything
        // The pause and the pace are the reader's behaviour under test, not waits for a condition.
        if pauseFirst > .zero { pause(for: pauseFirst) }
        let started = ContinuousClock.now
        var received: [UInt8] = []
        var closed = false
        var buffer = [UInt8](repeating: 0, count: bytesPerSecond == nil ? 64 * 1024 : 16 * 1024)
        while received.count < 64 << 20 {
            switch LoopbackSocket.receive(fd, into: &buffer) {
            case .success(let count) where count > 0:
                received += buffer[..<count]
                if let rate = bytesPerSecond {
                    let due = started + .milliseconds(received.count * 1000 / rate)
                    let now = ContinuousClock.now
                    if due > now { pause(for: due - now) }
                }
                continue
            case .success:
                closed = true
            case .failure(let error):
                closed = error.code == ECONNRESET
            }
            break
        }
        var responses: [Response] = []
        var rest = received[...]
        while let end = httpHeadEnd(rest) {
            let lines = String(decoding: rest[rest.startIndex..<end], as: UTF8.self).split(separator: "\r\n")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = String(
                    line[line.index(after: colon)...].drop(while: { $0 == " " }))
            }
            let length = headers["content-length"].flatMap { Int($0) } ?? 0
            let bodyStart = end + 4
            guard rest.endIndex - bodyStart >= length else { break }
            responses.append(
                Response(
                    statusLine: String(lines.first ?? ""), headers: headers,
                    body: Array(rest[bodyStart..<(bodyStart + length)])))
            rest = rest[(bodyStart + length)...]
        }
        return Exchange(responses: responses, closedByServer: closed, leftover: Array(rest))
    }

    /// A GET with the usual Host header and `extra` header lines.
    static func get(_ path: String, port: Int, method: String = "GET", extra: String = "") -> [UInt8] {
        Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)\r\n".utf8)
    }
}

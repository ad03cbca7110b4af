import SocketTestSupport
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A WebSocket client on a bare POSIX socket, for the hostile clients the libwebsockets client cannot
/// play: one that never reads, one cut off in the middle of a frame, one that floods. Every wait is bounded.
final class RawWebSocket {
    /// Why a raw socket operation failed.
    enum Failure: Error, Equatable {
        /// `socket`/`connect`/`send`/`recv` failed with this errno.
        case socketError(Int32)
        /// Nothing within the deadline.
        case timedOut
        /// The upgrade was answered with this status instead of 101.
        case refused(Int)
        /// The server closed the TCP connection.
        case closedByPeer
        /// The server sent something that is not a WebSocket frame we expect.
        case malformed
    }

    /// One whole message from the server.
    enum Message: Equatable {
        case text(String)
        case close(UInt16?)
    }

    private let fd: Int32
    private var received: [UInt8] = []
    private var isOpen = true

    /// Connects and completes the upgrade. `receiveBuffer` shrinks the socket's receive buffer (set
    /// before connecting, so the TCP window starts small): a client that never reads then backs the
    /// server up quickly.
    init(port: Int, receiveBuffer: Int? = nil, source: String? = nil, timeout: Duration = .seconds(5)) throws {
        do {
            fd = try LoopbackSocket.connect(port: port, receiveBuffer: receiveBuffer, source: source)
        } catch {
            throw Failure.socketError(error.code)
        }
        do {
            do {
                try LoopbackSocket.setTimeouts(fd, receive: timeout, send: timeout)
            } catch {
                throw Failure.socketError(error.code)
            }
            let request =
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Protocol: scroll-playground.v1\r\n\r\n"
            try sendAll(Array(request.utf8))
            try readUpgradeResponse()
        } catch {
            // deinit runs for an instance whose init throws after every property is set: close only once,
            // or the second close may hit a socket another test has just opened under the same number.
            isOpen = false
            Syscall.close(fd)
            throw error
        }
    }

    deinit {
        if isOpen { Syscall.close(fd) }
    }

    /// Sends a text message in one masked frame.
    func send(_ text: String) throws {
        try sendAll(Self.frame(opcode: 0x1, payload: Array(text.utf8)))
    }

    /// Sends a frame made by ``frame(opcode:payload:)``, as it is (a flood can build it once).
    func sendFrame(_ bytes: [UInt8]) throws {
        try sendAll(bytes)
    }

    /// Sends only the first `count` bytes of a text frame carrying `text`: the server holds a partial frame.
    func sendPartial(_ text: String, bytes count: Int) throws {
        try sendAll(Array(Self.frame(opcode: 0x1, payload: Array(text.utf8)).prefix(count)))
    }

    /// Sends one frame as given: `masked: false` breaks RFC 6455 §5.1 on purpose.
    func sendFrame(opcode: UInt8, payload: [UInt8], masked: Bool = true, fin: Bool = true) throws {
        try sendAll(Self.frame(opcode: opcode, payload: payload, masked: masked, fin: fin))
    }

    /// Reads frames until the server's close frame; its code (nil without one) and reason bytes.
    func receiveCloseFrame(maxFrames: Int = 10_000) throws -> (code: UInt16?, reason: [UInt8]) {
        for _ in 0..<maxFrames {
            let (_, opcode, payload) = try readFrame()
            if opcode == 0x8 {
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                return (code, Array(payload.dropFirst(2)))
            }
        }
        throw Failure.timedOut
    }

    /// Sends a close frame with `code`.
    func sendClose(code: UInt16 = 1000) throws {
        try sendAll(Self.frame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)]))
    }

    /// Closes the TCP connection at once, whatever is in flight.
    func drop() {
        guard isOpen else { return }
        isOpen = false
        Syscall.close(fd)
    }

    /// Reads the next whole message (reassembling fragments; pings are skipped).
    func receive() throws -> Message {
        var assembled: [UInt8] = []
        while true {
            let (final, opcode, payload) = try readFrame()
            switch opcode {
            case 0x8:
                return .close(payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil)
            case 0x9, 0xA:
                continue
            case 0x0, 0x1:
                assembled += payload
                if final { return .text(String(decoding: assembled, as: UTF8.self)) }
            default:
                throw Failure.malformed
            }
        }
    }

    /// Skips messages until the close frame; its code.
    func receiveClose(maxMessages: Int = 10_000) throws -> UInt16? {
        for _ in 0..<maxMessages {
            if case .close(let code) = try receive() { return code }
        }
        throw Failure.timedOut
    }

    /// Reads messages until one satisfies `predicate` (bounded by the socket timeout per read).
    func receive(until predicate: (String) -> Bool, maxMessages: Int = 10_000) throws -> String {
        for _ in 0..<maxMessages {
            if case .text(let text) = try receive(), predicate(text) { return text }
        }
        throw Failure.timedOut
    }

    // MARK: - Frames

    static func frame(opcode: UInt8, payload: [UInt8], masked: Bool = true, fin: Bool = true) -> [UInt8] {
        webSocketFrame(opcode: opcode, payload: payload, masked: masked, fin: fin)
    }

    private func readFrame() throws -> (final: Bool, opcode: UInt8, payload: [UInt8]) {
        let head = try take(2)
        var length = UInt64(head[1] & 0x7F)
        if length == 126 {
            length = try take(2).reduce(0) { $0 << 8 | UInt64($1) }
        } else if length == 127 {
            length = try take(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard head[1] & 0x80 == 0, length < 64 << 20 else { throw Failure.malformed }
        return (head[0] & 0x80 != 0, head[0] & 0x0F, try take(Int(length)))
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while received.count < count { try fill() }
        defer { received.removeFirst(count) }
        return Array(received[..<count])
    }

    private func readUpgradeResponse() throws {
        while true {
            if let end = httpHeadEnd(received) {
                let head = String(decoding: received[..<end], as: UTF8.self)
                received.removeFirst(end + 4)
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                guard status == 101 else { throw Failure.refused(status) }
                return
            }
            try fill()
        }
    }

    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        switch LoopbackSocket.receive(fd, into: &buffer) {
        case .success(let count) where count > 0: received += buffer[..<count]
        case .success: throw Failure.closedByPeer
        case .failure(let error) where error.timedOut: throw Failure.timedOut
        case .failure(let error) where error.code == ECONNRESET: throw Failure.closedByPeer
        case .failure(let error): throw Failure.socketError(error.code)
        }
    }

    private func sendAll(_ bytes: [UInt8]) throws {
        do {
            try LoopbackSocket.sendAll(fd, bytes)
        } catch {
            if error.timedOut { throw Failure.timedOut }
            if error.code == EPIPE || error.code == ECONNRESET { throw Failure.closedByPeer }
            throw Failure.socketError(error.code)
        }
    }
}

import LWSClient
import SocketTestSupport
import SystemCalls
import Testing

@testable import LWSTransport

#if canImport(Glibc)
    import Glibc
#endif

/// Answers written at the end of the loop pass that read their messages, without waiting for WRITEABLE: a
/// reader whose socket takes only part of an answer still gets all of it, and what was queued behind it,
/// in order (lws keeps the rest and the server waits for WRITEABLE before writing more); messages read in
/// one pass get one answer per coalescing key.
@Suite(.timeLimit(.minutes(10)))
struct AnswerFromReceiveTests {
    @Test func aBigAnswerToAPausingReaderArrivesWholeAndBeforeWhatFollows() throws {
        let server = try TestServer()
        let reader = try RawWebSocketReader(port: server.port)
        let answerBytes = 3_000_000
        try reader.sendText("big:\(answerBytes)")
        // The server answers while this socket's window is 4 KiB: most of the answer cannot go out yet.
        var pause = timespec(tv_sec: 0, tv_nsec: 300_000_000)
        nanosleep(&pause, nil)
        try reader.sendText("after")
        let messages = try reader.readTextMessages(count: 3)
        #expect(messages.map(\.count) == [answerBytes, 4, 5])
        #expect(messages.first?.allSatisfy { $0 == UInt8(ascii: "x") } == true)
        #expect(messages.dropFirst().map { String(decoding: $0, as: UTF8.self) } == ["tail", "after"])
    }

    /// A client that sends faster than the server answers (three messages in one segment, read in one pass)
    /// gets the newest keyed answer only: a server behind its clients answers less, not later.
    @Test func messagesReadInOnePassGetOneCoalescedAnswer() throws {
        let server = try TestServer()
        let reader = try RawWebSocketReader(port: server.port)
        try reader.sendTexts(["keyed:1", "keyed:2", "keyed:3"])
        try reader.sendText("after")
        let messages = try reader.readTextMessages(count: 2)
        #expect(messages.map { String(decoding: $0, as: UTF8.self) } == ["answer-3", "after"])
        #expect(server.delegate.log.update { $0.received.map(\.1) } == ["keyed:1", "keyed:2", "keyed:3", "after"])
    }
}

/// A WebSocket client over a raw socket with a 4 KiB receive buffer, which reads only when asked.
final class RawWebSocketReader {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = try LoopbackSocket.connect(port: port, receiveBuffer: 4096, receiveTimeout: .seconds(20))
        try sendAll(
            Array(
                ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Protocol: \(TestServer.subprotocol)\r\n\r\n").utf8))
        while !buffer.starts(with: Array("HTTP/1.1 101".utf8)) || httpHeadEnd(buffer) == nil { try fill() }
        buffer.removeFirst(httpHeadEnd(buffer)! + 4)
    }

    deinit { Syscall.close(fd) }

    /// One masked text frame (client frames must be masked).
    func sendText(_ text: String) throws {
        try sendTexts([text])
    }

    /// Masked text frames, in one write: they reach the server in one segment.
    func sendTexts(_ texts: [String]) throws {
        try sendAll(texts.flatMap { webSocketFrame(opcode: 0x1, payload: Array($0.utf8)) })
    }

    /// A masked text frame and a masked close frame with `code`, in one write.
    func sendTextThenClose(_ text: String, code: UInt16) throws {
        let close = webSocketFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xff)])
        try sendAll(webSocketFrame(opcode: 0x1, payload: Array(text.utf8)) + close)
    }

    /// The next `count` text messages, reassembled from their frames.
    func readTextMessages(count: Int) throws -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var current: [UInt8] = []
        while messages.count < count {
            while frameLength() == nil { try fill() }
            let (headerBytes, payloadBytes) = frameLength()!
            let first = buffer[0]
            current += buffer[headerBytes..<(headerBytes + payloadBytes)]
            buffer.removeFirst(headerBytes + payloadBytes)
            if first & 0x80 != 0 {
                messages.append(current)
                current = []
            }
        }
        return messages
    }

    // Header and payload length of the unmasked server frame at the start of `buffer`, once it is all in.
    private func frameLength() -> (Int, Int)? {
        guard buffer.count >= 2 else { return nil }
        var header = 2
        var length = Int(buffer[1] & 0x7f)
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        return buffer.count >= header + length ? (header, length) : nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = try LoopbackSocket.receive(fd, into: &chunk).get()
        guard count > 0 else { throw SocketError(code: ECONNRESET) }
        buffer += chunk[..<count]
    }

    private func sendAll(_ bytes: [UInt8]) throws {
        try LoopbackSocket.sendAll(fd, bytes)
    }
}

import Foundation
import LWSClient
import Testing

/// RFC 6455 rules libwebsockets 4.1.6 does not enforce by itself, checked over raw sockets against the
/// real executable: masking (§5.1), close codes and payloads (§5.5.1, §7.4), UTF-8 (§8.1).
@Suite(.timeLimit(.minutes(10)))
struct WebSocketProtocolTests {
    /// A fresh connection that has said hello.
    static func session(_ server: ServerProcess) throws -> RawWebSocket {
        let socket = try RawWebSocket(port: server.port)
        try socket.send(#"{"type":"hello","version":1}"#)
        _ = try socket.receive(until: { $0.contains("\"state\"") })
        return socket
    }

    @Test func anUnmaskedClientFrameClosesWith1002() throws {
        let server = try ServerProcess()
        let socket = try Self.session(server)
        try socket.sendFrame(opcode: 0x1, payload: Array(#"{"type":"ping","id":"u"}"#.utf8), masked: false)
        let close = try socket.receiveCloseFrame()
        #expect(close.code == 1002)
        #expect(server.waitForLine { $0.contains("sessionClosed code=1002") } != nil)
        // An unmasked close frame too, even on a fresh connection.
        let other = try RawWebSocket(port: server.port)
        try other.sendFrame(opcode: 0x8, payload: [0x03, 0xE8], masked: false)
        #expect(try other.receiveCloseFrame().code == 1002)
    }

    @Test func maskedFramesStillWork() throws {
        let server = try ServerProcess()
        let socket = try Self.session(server)
        try socket.send(#"{"type":"ping","id":"m"}"#)
        #expect(try socket.receive(until: { $0.contains("\"pong\"") }).contains("\"m\""))
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] as [UInt16])
    func aCloseWithAnInvalidCodeGets1002(code: UInt16) throws {
        let server = try ServerProcess()
        let socket = try RawWebSocket(port: server.port)
        try socket.sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
        #expect(try socket.receiveCloseFrame().code == 1002, "code \(code)")
    }

    @Test func validCloseCodesAreEchoed() throws {
        let server = try ServerProcess()
        for code: UInt16 in [1000, 1001, 1003, 1008, 3000, 4999] {
            let socket = try RawWebSocket(port: server.port)
            try socket.sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye ✓".utf8))
            let close = try socket.receiveCloseFrame()
            #expect(close.code == code)
            #expect(close.reason == Array("bye ✓".utf8))
        }
        // An empty close (no status code) is allowed and answered with an empty close.
        let socket = try RawWebSocket(port: server.port)
        try socket.sendFrame(opcode: 0x8, payload: [])
        #expect(try socket.receiveCloseFrame().code == nil)
    }

    @Test func aOneByteClosePayloadGets1002() throws {
        let server = try ServerProcess()
        let socket = try RawWebSocket(port: server.port)
        try socket.sendFrame(opcode: 0x8, payload: [0x03])
        #expect(try socket.receiveCloseFrame().code == 1002)
    }

    @Test func aCloseReasonThatIsNotUTF8Gets1007() throws {
        let server = try ServerProcess()
        let socket = try RawWebSocket(port: server.port)
        try socket.sendFrame(opcode: 0x8, payload: [0x03, 0xE8, 0xFF, 0xFE, 0x41])
        #expect(try socket.receiveCloseFrame().code == 1007)
    }

    @Test func aTextMessageThatIsNotUTF8Gets1007() throws {
        let server = try ServerProcess()
        let socket = try Self.session(server)
        try socket.sendFrame(opcode: 0x1, payload: Array(#"{"type":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        #expect(try socket.receiveCloseFrame().code == 1007)
        #expect(server.waitForLine { $0.contains("sessionClosed code=1007") } != nil)
        // Valid multi-byte UTF-8 is fine, even split across two frames in the middle of a character.
        let other = try Self.session(server)
        let text = Array(#"{"type":"ping","id":"é✓"}"#.utf8)
        try other.sendFrame(opcode: 0x1, payload: Array(text[..<22]), fin: false)
        try other.sendFrame(opcode: 0x0, payload: Array(text[22...]))
        #expect(try other.receive(until: { $0.contains("\"pong\"") }).contains("é✓"))
    }

    /// RFC 6455 §5.5: a control frame's payload is at most 125 bytes. libwebsockets 4.1.6 drops the TCP
    /// connection without a close frame on a longer one; the server fails it with 1002, and the session
    /// sees that code.
    @Test func aPingOver125BytesGets1002() throws {
        let server = try ServerProcess()
        for opcode: UInt8 in [0x9, 0xA] {
            let socket = try Self.session(server)
            try socket.sendFrame(opcode: opcode, payload: Array(repeating: 0x61, count: 126))
            #expect(try socket.receiveCloseFrame().code == 1002, "opcode \(opcode)")
        }
        #expect(server.waitForLine { $0.contains("sessionClosed code=1002") } != nil)
        // A ping of exactly 125 bytes is answered with its pong, and the session goes on.
        let socket = try Self.session(server)
        try socket.sendFrame(opcode: 0x9, payload: Array(repeating: 0x62, count: 125))
        try socket.send(#"{"type":"ping","id":"after"}"#)
        #expect(try socket.receive(until: { $0.contains("\"pong\"") }).contains("after"))
    }
}

import LWSClient
import Testing

@testable import LWSTransport

/// Reassembly, the size limit, binary frames, closing, and the outbound queue.
@Suite(.timeLimit(.minutes(10))) struct WebSocketMessageTests {
    @Test func messageLargerThanTheReceiveBufferIsReassembled() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        // One frame of 30 000 bytes reaches the callback in several pieces of at most rx_buffer_size.
        let text = String(repeating: "0123456789", count: 3_000)
        try client.send(text)
        #expect(client.receive() == .text(text))
        #expect(server.delegate.log.update { $0.received.map(\.1) } == [text])
    }

    @Test func fragmentedMessageIsReassembled() throws {
        let server = try TestServer { $0.maxMessageBytes = 256 * 1024 }
        let client = try WebSocketClient.connect(port: server.port)
        // The client sends this as 32 KiB frames (continuations), the server echoes it the same way.
        let text = String((0..<200_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        try client.send(text)
        #expect(client.receive(timeout: .seconds(10)) == .text(text))
    }

    @Test func oneMebibyteRoundTripsWhenAllowed() throws {
        let server = try TestServer { $0.maxMessageBytes = 2 * 1024 * 1024 }
        let client = try WebSocketClient.connect(port: server.port)
        let text = String(repeating: "x", count: 1024 * 1024)
        try client.send(text)
        #expect(client.receive(timeout: .seconds(10)) == .text(text))
    }

    @Test func tooLargeMessageGetsTheDelegatesErrorThenClose1009() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send(String(repeating: "x", count: 1024 * 1024))
        #expect(client.receive(timeout: .seconds(10)) == .text("{\"type\":\"error\",\"code\":\"too_large\"}"))
        #expect(client.receive(timeout: .seconds(10)) == .closed(code: 1009))
        let log = server.delegate.log.update { $0 }
        #expect(log.violations.map(\.1) == [.tooLarge])
        #expect(log.received.isEmpty)
        #expect(server.delegate.waitForClosed(count: 1)?.values.first == 1009)
    }

    @Test func messageOfExactlyTheLimitIsAccepted() throws {
        let server = try TestServer { $0.maxMessageBytes = 1000 }
        let client = try WebSocketClient.connect(port: server.port)
        let text = String(repeating: "y", count: 1000)
        try client.send(text)
        #expect(client.receive() == .text(text))
        try client.send(text + "y")
        #expect(client.receive() == .text("{\"type\":\"error\",\"code\":\"too_large\"}"))
        #expect(client.receive() == .closed(code: 1009))
    }

    @Test func binaryFrameGetsTheDelegatesErrorThenClose1003() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.sendBinary([1, 2, 3])
        #expect(client.receive() == .text("{\"type\":\"error\",\"code\":\"binary\"}"))
        #expect(client.receive() == .closed(code: 1003))
        #expect(server.delegate.log.update { $0.violations.map(\.1) } == [.binary])
    }

    @Test func emptyTextMessageIsDelivered() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send("")
        #expect(client.receive() == .text(""))
    }

    @Test func serverCloseSendsTheCodeAfterPendingMessages() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send("close:4001")
        #expect(client.receive() == .closed(code: 4001))
        #expect(server.delegate.waitForClosed(count: 1)?.values.first == 4001)
    }

    @Test func clientCloseCodeReachesTheDelegate() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        client.close(code: 4100)
        #expect(try client.waitForClose() == 4100)
        #expect(server.delegate.waitForClosed(count: 1)?.values.first == 4100)
    }

    @Test func abruptDropReportsNoCode() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send("ping")
        #expect(client.receive() == .text("ping"))
        client.drop()
        #expect(try client.waitForClose() == nil)
        let closed = try #require(server.delegate.waitForClosed(count: 1))
        #expect(closed.count == 1)
        #expect(closed.values.first == .some(nil))
    }

    @Test func keyedMessagesCoalesceToTheNewestQueuedLast() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send("burst")
        var received: [ClientEvent] = []
        for _ in 0..<4 {
            received.append(try #require(client.receive()))
        }
        #expect(received == [.text("a"), .text("b"), .text("c"), .text("state-3")])
        // Nothing else was queued: the next thing is the echo of the next message.
        try client.send("after")
        #expect(client.receive() == .text("after"))
        #expect(server.delegate.log.update { $0.outboundAfterBurst } == 3 + "state-3".utf8.count)
    }

    @Test func manyMessagesArriveInOrder() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        for index in 0..<500 { try client.send("m\(index)") }
        for index in 0..<500 {
            #expect(client.receive() == .text("m\(index)"))
        }
    }

    /// The code the delegate sees says how a connection ended: 1002 only for the frames libwebsockets fails
    /// without naming a code (a control frame over 125 bytes), never for a close frame without a code or a
    /// TCP close, which end without one.
    @Test func theCloseCodeSaysHowAConnectionEnded() throws {
        let server = try TestServer()
        let mask: [UInt8] = [1, 2, 3, 4]
        // Each way, the close frame the server answers with (none for a TCP close), and the code it reports.
        let ways: [(String, [UInt8], [UInt8], UInt16?)] = [
            ("a close without a code", [0x88, 0x80] + mask, [0x88, 0x00], nil),
            (
                "a ping of 126 bytes", [0x89, 0xFE, 0x00, 0x7E] + mask + [UInt8](repeating: 0, count: 126),
                [0x03, 0xEA], 1002
            ),
            ("a TCP close", [], [], nil),
        ]
        for (index, (way, frame, answer, code)) in ways.enumerated() {
            var client: RawConnection? = try RawConnection(port: server.port)
            try client?.send(
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            let opened = server.delegate.log.wait(timeout: .seconds(5)) { $0.opened.count > index ? true : nil }
            #expect(opened == true, "\(way)")
            if !frame.isEmpty {
                try client?.send(frame)
                // The close frame comes at once; the server then awaits the client's, which this one never sends.
                let received = client?.readUntil(timeout: .seconds(5)) { $0.firstRange(of: answer) != nil } ?? []
                #expect(received.firstRange(of: answer) != nil, "\(way): \(received.suffix(8))")
            }
            client = nil  // closes the socket
            _ = client
            let closed = try #require(server.delegate.waitForClosed(count: index + 1), "\(way)")
            #expect(closed[ConnectionID(rawValue: UInt64(index + 1))] == .some(code), "\(way)")
        }
    }
}

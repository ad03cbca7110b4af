import LWSClient
import SystemCalls
import Testing

@testable import LWSTransport

/// Every way the delegate sends goes through the write gate (`LWSWriteGate`), whichever path it comes from:
/// an answer to a message, a timer, `WebServer.execute`. Nothing is written while the delegate's code runs,
/// so a burst's keyed messages coalesce to the newest, queued last. A send path that wrote at once (say,
/// "the queue is idle: write now" from a timer) would let `state-1` out first and fail these tests.
@Suite(.timeLimit(.minutes(10)))
struct WriteGateTests {
    static let coalescedBurst: [ClientEvent] = [.text("a"), .text("b"), .text("c"), .text("state-3")]
    static let bytesAfterBurst = 3 + "state-3".utf8.count

    @Test(arguments: ["burst", "burst-later:0", "burst-later:30"])
    func aBurstFromAnswerOrTimerCoalesces(command: String) throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send(command)
        var received: [ClientEvent] = []
        for _ in 0..<4 { received.append(try #require(client.receive())) }
        #expect(received == Self.coalescedBurst)
        try client.send("after")
        #expect(client.receive() == .text("after"))
        #expect(server.delegate.log.update { $0.outboundAfterBurst } == Self.bytesAfterBurst)
    }

    @Test func aBurstFromExecuteCoalesces() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        let id = try #require(server.delegate.log.wait(timeout: .seconds(5)) { $0.opened.first })
        let queued = server.onServiceThread { loop in RecordingDelegate.burst(on: loop, to: id) }
        #expect(queued == Self.bytesAfterBurst)
        var received: [ClientEvent] = []
        for _ in 0..<4 { received.append(try #require(client.receive())) }
        #expect(received == Self.coalescedBurst)
    }

    /// A client that sends a message and its close frame in one segment still gets the answer, written at
    /// the end of the pass that read both, before lws echoes the close.
    @Test func anAnswerReadWithThePeersCloseStillGoesOut() throws {
        let server = try TestServer()
        let reader = try RawWebSocketReader(port: server.port)
        try reader.sendTextThenClose("keyed:7", code: 1000)
        let messages = try reader.readTextMessages(count: 1)
        #expect(messages.map { String(decoding: $0, as: UTF8.self) } == ["answer-7"])
        let closed = try #require(server.delegate.waitForClosed(count: 1))
        #expect(Array(closed.values) == [1000])
    }
}

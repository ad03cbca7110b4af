import LWSClient
import SystemCalls
import Testing

@testable import LWSTransport

/// The multi-connection client context the load generator builds on.
@Suite(.timeLimit(.minutes(10))) struct ClientContextTests {
    @Test func oneContextHoldsManyConnections() throws {
        let connections = 300
        // Every head may be waiting at once: on a loaded machine (a sanitizer run) the client can take longer
        // than the front door's eviction age to send some of 300 heads, and evicting them is not what this tests.
        let server = try TestServer {
            $0.maxConnections = connections
            $0.maxPendingRequestHeads = connections
        }
        let context = try WebSocketClientContext()
        struct Tally { var opened = 0, echoed = 0, closed = 0, failures: [ClientEvent] = [] }
        let tally = Monitor(Tally())
        // One handler for every connection; it runs on the context's thread, where sending and
        // closing apply at once.
        let handler: @Sendable (ClientConnectionID, ClientEvent) -> Void = { [context] id, event in
            switch event {
            case .opened:
                tally.update { $0.opened += 1 }
                context.send(Array("hello \(id.rawValue)".utf8), to: id)
            case .text(let text):
                if text == "hello \(id.rawValue)" { tally.update { $0.echoed += 1 } }
                context.close(id)
            case .closed(let code):
                tally.update { tally in
                    if code == 1000 { tally.closed += 1 } else { tally.failures.append(event) }
                }
            default:
                tally.update { $0.failures.append(event) }
            }
        }
        for _ in 0..<connections {
            _ = context.connect(port: server.port, handler: handler)
        }
        let done = tally.wait(timeout: .seconds(20)) { $0.closed + $0.failures.count == connections ? $0 : nil }
        #expect(done?.failures == [])
        #expect(done?.opened == connections)
        #expect(done?.echoed == connections)
        #expect(server.delegate.waitForClosed(count: connections, timeout: .seconds(5))?.count == connections)
        context.shutdown()
    }

    @Test func connectToAClosedPortFails() throws {
        let context = try WebSocketClientContext()
        let event = Monitor<ClientEvent?>(nil)
        // Port 1 on loopback: nothing listens there.
        _ = context.connect(port: 1) { _, received in event.update { $0 = received } }
        let failure = event.wait(timeout: .seconds(5)) { $0 }
        guard case .failed(.connectionFailed) = failure else {
            Issue.record("expected a connection failure, got \(String(describing: failure))")
            return
        }
    }

    @Test func connectAfterShutdownFailsAtOnce() throws {
        let context = try WebSocketClientContext()
        context.shutdown()
        let event = Monitor<ClientEvent?>(nil)
        _ = context.connect(port: 1) { _, received in event.update { $0 = received } }
        #expect(event.wait(timeout: .seconds(1)) { $0 } == .failed(.contextUnavailable))
    }
}

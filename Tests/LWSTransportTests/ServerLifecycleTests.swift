import LWSClient
import SystemCalls
import Testing

@testable import LWSTransport

#if canImport(Glibc)
    import Glibc
#endif

/// Start-up errors, stop(), execute(_:) and timers.
@Suite(.timeLimit(.minutes(10))) struct ServerLifecycleTests {
    @Test func stopClosesEveryWebSocketWith1001() throws {
        let server = try TestServer()
        let one = try WebSocketClient.connect(port: server.port)
        let two = try WebSocketClient.connect(port: server.port, subprotocol: nil)
        try one.send("x")
        #expect(one.receive() == .text("x"))
        #expect(server.stop())
        #expect(try one.waitForClose() == 1001)
        #expect(try two.waitForClose() == 1001)
        let closed = server.delegate.log.update { $0.closed }
        #expect(closed.count == 2)
        #expect(closed.values.allSatisfy { $0 == 1001 })
        // The context is gone: nothing listens any more.
        #expect(throws: HTTPProbe.Failure.self) { try HTTPProbe.get(port: server.port, path: "/") }
    }

    @Test func stopBeforeRunReturnsAtOnce() throws {
        let delegate = RecordingDelegate()
        var configuration = WebServerConfiguration(
            publicDirectory: Fixture.publicDirectory, subprotocol: TestServer.subprotocol)
        configuration.port = 0
        let server = try WebServer(configuration: configuration, delegate: delegate)
        server.stop()
        server.run()  // returns because stop() came first
        // Work that arrives after the context is gone must be dropped, not kept for a loop that will never
        // run it: the closure, and what it holds, is released at once.
        final class Witness: Sendable {}
        weak var witness: Witness?
        do {
            let held = Witness()
            witness = held
            server.execute { _ in _ = held }
        }
        #expect(witness == nil, "execute kept work after the context was destroyed")
    }

    @Test func portInUseThrowsAClearError() throws {
        let first = try TestServer()
        var configuration = WebServerConfiguration(
            publicDirectory: Fixture.publicDirectory, subprotocol: TestServer.subprotocol)
        configuration.port = first.port
        // The reason goes through the log hook (watched here; other tests' lines may come too).
        let lines = Monitor<[String]>([])
        let error = LWSLog.observing(
            { line in lines.update { $0.append(line) } },
            during: {
                #expect(throws: WebServerError.self) {
                    try WebServer(configuration: configuration, delegate: RecordingDelegate())
                }
            })
        #expect(
            lines.update { $0 }.contains("cannot listen on 127.0.0.1:\(first.port): Address already in use (errno 98)"))
        #expect(error == .cannotListen(host: "127.0.0.1", port: first.port))
        #expect(error?.description == "cannot listen on 127.0.0.1:\(first.port)")
    }

    @Test func missingPublicDirectoryThrows() {
        let configuration = WebServerConfiguration(
            publicDirectory: "/nonexistent/public", subprotocol: TestServer.subprotocol)
        #expect(throws: WebServerError.publicDirectoryMissing("/nonexistent/public")) {
            try WebServer(configuration: configuration, delegate: RecordingDelegate())
        }
    }

    @Test func executeRunsOnTheServiceThread() throws {
        let server = try TestServer()
        let serviceThread = try #require(
            server.onServiceThread { _ in UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) })
        #expect(serviceThread != UInt(pthread_self()))
        // Delegate callbacks run on that same thread.
        let client = try WebSocketClient.connect(port: server.port)
        try client.send("x")
        #expect(client.receive() == .text("x"))
        let again = server.onServiceThread { _ in UInt(pthread_self()) }
        #expect(again == serviceThread)
    }

    @Test func executeReachesAConnectionFromAnotherThread() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        let id = try #require(server.delegate.log.wait(timeout: .seconds(5)) { $0.opened.first })
        server.server.execute { loop in loop.send(Array("pushed".utf8), to: id) }
        #expect(client.receive() == .text("pushed"))
        server.server.execute { loop in loop.close(id, code: 4002, reason: "done") }
        #expect(try client.waitForClose() == 4002)
    }

    @Test func aTimerAnswersThroughTheLoopItIsHanded() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port)
        try client.send("later:10")
        #expect(client.receive() == .text("later"))
    }

    @Test func timersFireInOrderAndCancelledOnesDoNot() throws {
        let server = try TestServer()
        let fired = Monitor<[String]>([])
        let scheduled = server.onServiceThread { loop in
            loop.schedule(afterMilliseconds: 60) { _ in fired.update { $0.append("60ms") } }
            loop.schedule(afterMilliseconds: 0) { _ in fired.update { $0.append("0ms") } }
            let cancelled = loop.schedule(afterMilliseconds: 30) { _ in fired.update { $0.append("cancelled") } }
            loop.schedule(afterMilliseconds: 20) { _ in fired.update { $0.append("20ms") } }
            loop.cancel(cancelled)
            return true
        }
        #expect(scheduled == true)
        let order = fired.wait(timeout: .seconds(5)) { $0.count >= 3 ? $0 : nil }
        #expect(order == ["0ms", "20ms", "60ms"])
    }

    @Test func timerCanCancelAnotherAndCancellingTwiceIsHarmless() throws {
        let server = try TestServer()
        let fired = Monitor<[String]>([])
        _ = server.onServiceThread { loop in
            let later = loop.schedule(afterMilliseconds: 40) { _ in fired.update { $0.append("later") } }
            loop.schedule(afterMilliseconds: 10) { loop in
                loop.cancel(later)
                loop.cancel(later)
                fired.update { $0.append("first") }
            }
            loop.schedule(afterMilliseconds: 80) { _ in fired.update { $0.append("last") } }
            return true
        }
        let order = fired.wait(timeout: .seconds(5)) { $0.contains("last") ? $0 : nil }
        #expect(order == ["first", "last"])
    }

    @Test func workFromManyThreadsIsAllExecuted() throws {
        let server = try TestServer()
        let count = Monitor(0)
        let web = server.server
        let threads = (0..<4).map { _ in
            ServiceThread {
                for _ in 0..<250 {
                    web.execute { _ in count.update { $0 += 1 } }
                }
            }
        }
        for thread in threads { thread.join() }
        #expect(count.wait(timeout: .seconds(5)) { $0 == 1000 ? $0 : nil } == 1000)
    }

    @Test(arguments: ["127.0.0.1", "localhost", "0.0.0.0"])
    func listensOnTheConfiguredHost(host: String) throws {
        let server = try TestServer { $0.host = host }
        #expect(server.port > 0)
        #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200)
    }

    @Test func publicDirectoryMustBeADirectory() {
        let file = Fixture.publicDirectory + "/index.html"
        #expect(throws: WebServerError.publicDirectoryMissing(file)) {
            try WebServer(
                configuration: WebServerConfiguration(publicDirectory: file, subprotocol: TestServer.subprotocol),
                delegate: RecordingDelegate())
        }
    }

    @Test func timerWaitsItsDelay() throws {
        let server = try TestServer()
        let elapsed = Monitor<Duration?>(nil)
        _ = server.onServiceThread { loop in
            let start = ContinuousClock.now
            loop.schedule(afterMilliseconds: 150) { _ in
                elapsed.update { $0 = ContinuousClock.now - start }
            }
            return true
        }
        let waited = try #require(elapsed.wait(timeout: .seconds(5)) { $0 })
        #expect(waited >= .milliseconds(150))
    }
}

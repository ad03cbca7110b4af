import Foundation
import LWSClient
import SocketTestSupport
import SystemCalls
import Testing

@testable import LWSTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The front door's own limits (the head timeout, the heads it reads at once, the connections it counts)
/// and what it hands to libwebsockets, over real sockets.
@Suite(.timeLimit(.minutes(10)))
struct FrontDoorTests {
    @Test func aHeadThatNeverEndsIsClosedAfterTheTimeout() throws {
        let server = try TestServer { $0.requestHeadTimeoutMilliseconds = 500 }
        let partial = try RawConnection(port: server.port)
        try partial.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let silent = try RawConnection(port: server.port)
        let started = ContinuousClock.now
        let answer = partial.readUntilClosed(timeout: .seconds(5))
        let waited = ContinuousClock.now - started
        #expect(answer.closed)
        #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(waited >= .milliseconds(400) && waited < .seconds(3), "closed after \(waited)")
        // A connection that sent nothing (a browser's spare preconnection) is closed without a word.
        let nothing = silent.readUntilClosed(timeout: .seconds(5))
        #expect(nothing.closed)
        #expect(nothing.bytes.isEmpty)
        #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200)
    }

    @Test func manyHalfOpenHeadsDoNotKeepOtherClientsOut() throws {
        let server = try TestServer { $0.maxPendingRequestHeads = 8 }
        var idle: [RawConnection] = []
        for index in 0..<40 {
            let connection = try RawConnection(port: server.port)
            if index.isMultiple(of: 2) { try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
            idle.append(connection)
        }
        // Eight heads are being read; each newcomer waits in the backlog for the oldest to
        // make room (a quarter of a second), never the whole head timeout (10 s).
        for _ in 0..<3 {
            let started = ContinuousClock.now
            #expect(try HTTPProbe.get(port: server.port, path: "/healthz", timeout: .seconds(5)).status == 200)
            #expect(ContinuousClock.now - started < .seconds(3))
        }
        _ = idle
    }

    @Test func aBurstOfClientsWaitsInTheBacklogInsteadOfClosingEachOther() throws {
        let server = try TestServer { $0.maxPendingRequestHeads = 4 }
        let clients = try (0..<32).map { _ in try RawConnection(port: server.port) }
        for client in clients { try client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        for client in clients {
            let answer = client.readUntilClosed(timeout: .seconds(5))
            #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    /// Issue 42: while one address holds thousands of idle or half-sent connections, another address's
    /// request is answered within 100 ms (it waited 7.8 s behind 10,000 of them): the door keeps accepting,
    /// sets aside what it cannot read yet, and sheds the flooding address's own connections first.
    @Test func aFloodFromOneAddressDoesNotStallAnother() throws {
        let server = try TestServer()
        var flood: [RawConnection] = []
        for index in 0..<Self.floodSize {
            let connection = try RawConnection(port: server.port)
            if index.isMultiple(of: 2) { try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
            flood.append(connection)
        }
        var waits: [Duration] = []
        for _ in 0..<5 {
            let started = ContinuousClock.now
            let honest = try RawConnection(port: server.port, source: "127.0.0.2")
            try honest.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = honest.readUntil(timeout: .seconds(15)) { $0.count >= 15 }
            waits.append(ContinuousClock.now - started)
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
        let slowest = waits.max() ?? .zero
        print("another address's /healthz behind \(Self.floodSize) idle or half-sent connections: \(waits)")
        // 100 ms is the goal on a quiet machine; a loaded CI with a debug build gets some slack.
        let sanitized = ProcessInfo.processInfo.environment["SCROLL_PLAYGROUND_SANITIZER"] != nil
        #expect(slowest < .milliseconds(sanitized ? 2_000 : 500), "\(waits)")
        _ = flood
    }

    /// Within the kernel's listen backlog (4096), so that connecting never waits for the door.
    static let floodSize = 3_000

    @Test func theDoorCountsWhatLibwebsocketsHoldsUntilItIsClosed() throws {
        let server = try TestServer()
        let core = server.server
        for _ in 0..<20 { #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200) }
        let socket = try WebSocketClient.connect(port: server.port)
        try socket.send("x")
        #expect(socket.receive() == .text("x"))
        #expect(server.onServiceThread { _ in core.adoptedConnectionCount } == 1)
        socket.close()
        #expect(server.delegate.waitForClosed(count: 1) != nil)
        let settled = Monitor(false)
        for _ in 0..<50 where server.onServiceThread({ _ in core.adoptedConnectionCount }) != 0 {
            _ = settled.wait(timeout: .milliseconds(20)) { $0 ? true : nil }
        }
        #expect(server.onServiceThread { _ in core.adoptedConnectionCount } == 0)
    }

    @Test func aRequestPipelinedLaterBehindALargeAnswerDoesNotCutIt() throws {
        let server = try TestServer()
        let bytes = 3_000_000
        let client = try RawConnection(port: server.port, receiveBuffer: 4096)
        try client.send("GET /api/big?bytes=\(bytes) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The first answer is well under way (the small receive buffer holds it back) when the next request
        // arrives in a packet of its own.
        let pause = Monitor(false)
        _ = pause.wait(timeout: .milliseconds(300)) { $0 ? true : nil }
        try client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = client.readUntilClosed(timeout: .seconds(20))
        let text = String(decoding: answer.bytes.prefix(1_000), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("content-length: \(bytes)\r\n"))
        #expect(text.contains("connection: close\r\n"))
        let head = try #require(text.range(of: "\r\n\r\n"))
        #expect(answer.bytes.count - text.utf8.distance(from: text.startIndex, to: head.upperBound) == bytes)
        #expect(answer.closed)
    }

    @Test func refusalsCarryTheSecurityHeadersOfTheServersOtherAnswers() throws {
        let server = try TestServer()
        let answered = try HTTPProbe.get(port: server.port, path: "/healthz")
        let refused = try HTTPProbe.get(port: server.port, path: "/api/echo?x=%00")
        #expect(refused.status == 400)
        for (name, value) in HTTPRefusal.securityHeaders {
            #expect(answered.header(name) == value, "\(name)")
            #expect(refused.header(name) == value, "\(name)")
        }
        #expect(refused.header("connection") == "close")
    }
}

/// A raw client socket for the door's tests: connect, send, read until the server closes (bounded).
final class RawConnection: @unchecked Sendable {
    // @unchecked: used by one thread at a time.
    private let fd: Int32

    init(port: Int, receiveBuffer: Int32? = nil, source: String? = nil) throws {
        fd = try LoopbackSocket.connect(port: port, receiveBuffer: receiveBuffer.map(Int.init), source: source)
    }

    deinit { Syscall.close(fd) }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        try LoopbackSocket.sendAll(fd, bytes)
    }

    /// What was received once `done` says so, the server closed, or `timeout` passed.
    func readUntil(timeout: Duration, _ done: ([UInt8]) -> Bool) -> [UInt8] {
        LoopbackSocket.readUntil(fd, timeout: timeout, done)
    }

    /// Everything received until the server closed (`closed`) or `timeout` passed.
    func readUntilClosed(timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        LoopbackSocket.readUntilClosed(fd, timeout: timeout)
    }
}

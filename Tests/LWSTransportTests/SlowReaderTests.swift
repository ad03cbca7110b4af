import SocketTestSupport
import SystemCalls
import Testing

@testable import LWSTransport

#if canImport(Glibc)
    import Glibc
#endif

/// Dynamic HTTP answers reach readers that read slowly or pause, and a reader that stops is dropped
/// after the stall timeout and reported. The readers shrink their receive buffer, so the kernel cannot
/// take the whole answer off the server's hands. Under lws's own 5 s timeout both readers got about
/// 2 MB of a larger answer (measured on this machine): 3 MB leaves a clear margin.
@Suite(.timeLimit(.minutes(10)))
struct SlowReaderTests {
    static let answerBytes = 3_000_000

    @Test func aSlowReaderAndAPausingReaderGetTheWholeAnswer() throws {
        let server = try TestServer()
        let path = "/api/big?bytes=\(Self.answerBytes)"
        let slow = try PacedReader(port: server.port, path: path)
        let pausing = try PacedReader(port: server.port, path: path)
        let results = Monitor<[String: PacedReader.Result]>([:])
        let threads = [
            ServiceThread { results.update { $0["slow"] = slow.read(bytesPerSecond: 300_000) } },
            ServiceThread { results.update { $0["pausing"] = pausing.read(pauseFirst: .seconds(6)) } },
        ]
        let all = try #require(results.wait(timeout: .seconds(60)) { $0.count == 2 ? $0 : nil })
        for thread in threads { thread.join() }
        for (name, result) in all {
            #expect(result.contentLength == Self.answerBytes, "\(name): \(result)")
            #expect(
                result.bodyBytes == Self.answerBytes, "\(name) got \(result.bodyBytes) of \(Self.answerBytes) bytes")
        }
        #expect(server.delegate.log.update { $0.httpDrops }.isEmpty)
    }

    /// lws sends about 4 KiB a write and keeps the rest of a larger one; a reader that has the whole answer
    /// and closes before the server's next WRITEABLE was reported as "5558 of 5558 body bytes written".
    @Test func aReaderThatGetsTheWholeAnswerAndClosesIsNotReportedAsCutOff() throws {
        let server = try TestServer()
        // A service thread kept busy (a server with many sessions, here half-millisecond pauses one after
        // another) widens the gap between lws's flush of the rest of an answer and the WRITEABLE after it,
        // which the reader's close can then beat. The pauses sleep: the test burns no core.
        let busy = Monitor(true)
        let load = ServiceThread {
            while busy.update({ $0 }) {
                let done = Monitor(false)
                server.server.execute { _ in
                    var pause = timespec(tv_sec: 0, tv_nsec: 500_000)
                    var left = timespec()
                    while nanosleep(&pause, &left) != 0, errno == EINTR { pause = left }
                    done.update { $0 = true }
                }
                _ = done.wait(timeout: .seconds(5)) { $0 ? true : nil }
            }
        }
        for _ in 0..<100 {
            let reader = try PacedReader(port: server.port, path: "/api/big?bytes=5558")
            let result = reader.read(stoppingAtEndOfBody: true)
            #expect(result.bodyBytes == 5558, "\(result)")
        }
        busy.update { $0 = false }
        load.join()
        // The closes reach the service thread before two rounds of work queued after them.
        for _ in 0..<2 { _ = server.onServiceThread { _ in true } }
        let drops = server.delegate.log.update { $0.httpDrops }
        #expect(drops.count == 0, "e.g. \(drops.first?.description ?? "")")
    }

    @Test func aReaderThatStopsIsDroppedAfterTheStallTimeoutAndReported() throws {
        let server = try TestServer { $0.httpStallTimeoutSeconds = 2 }
        let reader = try PacedReader(port: server.port, path: "/api/big?bytes=\(Self.answerBytes)")
        // It never reads: the server is left with most of the answer.
        let drops = try #require(
            server.delegate.log.wait(timeout: .seconds(20)) { $0.httpDrops.isEmpty ? nil : $0.httpDrops })
        #expect(drops.count == 1)
        let drop = try #require(drops.first)
        #expect(drop.reason == .readerStalled(seconds: 2))
        #expect(drop.request.path == "/api/big")
        #expect(drop.status == 200)
        #expect(drop.bodyBytes == Self.answerBytes)
        #expect(drop.bytesWritten < Self.answerBytes)
        #expect(drop.description.hasPrefix("HTTP answer cut off: GET /api/big 200"))
        // What it reads afterwards ends early: the connection was closed.
        let result = reader.read(pauseFirst: .zero)
        #expect(result.bodyBytes < Self.answerBytes)
    }
}

/// An HTTP/1.1 GET over a raw socket with a 4 KiB receive buffer, read at a chosen pace.
final class PacedReader: @unchecked Sendable {
    // @unchecked: used by one thread at a time.
    struct Result: Sendable, CustomStringConvertible {
        var contentLength: Int?
        var bodyBytes: Int
        var description: String { "content-length \(contentLength.map(String.init) ?? "none"), body \(bodyBytes)" }
    }

    private let fd: Int32

    init(port: Int, path: String) throws {
        fd = try LoopbackSocket.connect(port: port, receiveBuffer: 4096, receiveTimeout: .seconds(40))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        try? LoopbackSocket.sendAll(fd, request)
    }

    deinit { Syscall.close(fd) }

    /// Reads to the end of the connection (or of the body, by its `content-length`), first pausing `pause`,
    /// then at most `bytesPerSecond`.
    func read(pauseFirst pause: Duration = .zero, bytesPerSecond: Int? = nil, stoppingAtEndOfBody: Bool = false)
        -> Result
    {
        if pause > .zero { SocketTestSupport.pause(for: pause) }  // the pause is the behaviour under test
        let started = ContinuousClock.now
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard case .success(let count) = LoopbackSocket.receive(fd, into: &buffer), count > 0 else { break }
            received += buffer[..<count]
            if stoppingAtEndOfBody, let result = Self.parse(received), result.bodyBytes == result.contentLength {
                return result
            }
            if let rate = bytesPerSecond {
                // Hold the pace: the time this many bytes take at `rate`.
                let due = started + .milliseconds(received.count * 1000 / rate)
                let now = ContinuousClock.now
                if due > now { SocketTestSupport.pause(for: due - now) }
            }
        }
        return Self.parse(received) ?? Result(contentLength: nil, bodyBytes: 0)
    }

    /// The head's `content-length` and the body bytes after it; nil before the head is complete.
    private static func parse(_ received: [UInt8]) -> Result? {
        guard let end = httpHeadEnd(received) else { return nil }
        let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) }
        return Result(contentLength: length, bodyBytes: received.count - end - 4)
    }
}

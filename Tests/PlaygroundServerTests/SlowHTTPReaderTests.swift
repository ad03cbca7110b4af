import Foundation
import LWSClient
import ScrollCore
import Testing

/// A large dynamic answer (a session's trace) arrives whole for any reader that keeps reading, however slowly, against
/// the real executable (libwebsockets' own 5 s content timeout used to cut it off).
@Suite(.timeLimit(.minutes(10)))
struct SlowHTTPReaderTests {
    @Test func aSlowAndAPausingReaderGetTheWholeTrace() throws {
        let folder = LogFolder()
        let server = try ServerProcess([
            "--log-dir", folder.path, "--max-geometry-rate", "100000", "--preset", "customScrollView",
        ])
        // A trace of about 2.4 MB: the bottom edge crossed on every frame, a decision each.
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello(config: ["loadLatencyMs": 600_000]).welcome["session"]?.string)
        let frames = 5_000
        for seq in 1...frames { try page.geometry(seq: seq, offsetY: seq % 2 == 0 ? 2300 : 1000) }
        _ = try page.next("state", timeout: .seconds(30), where: { $0["ack"] == .int(frames) })

        // At 0.3 MB/s the answer takes about 8 s, past libwebsockets' own 5 s; the other reader pauses 6 s.
        let request = RawHTTP.get("/api/sessions/\(session)/trace", port: server.port)
        let port = server.port
        let slow = Thread.detachedResult {
            try RawHTTP.exchange(
                port: port, request, quiet: .seconds(20), receiveBuffer: 4096, bytesPerSecond: 300_000)
        }
        let pausing = try RawHTTP.exchange(
            port: port, request, quiet: .seconds(20), receiveBuffer: 4096, pauseFirst: .seconds(6))
        for exchange in [pausing, try slow.value()] {
            let answer = try #require(exchange.responses.first)
            #expect(answer.status == 200)
            #expect(answer.body.count > 2_000_000)
            #expect(answer.headers["content-length"] == String(answer.body.count))
            let lines = answer.text.split(separator: "\n")
            #expect(lines.filter { $0.contains(#""kind":"input""#) }.count == frames + 1)
        }
    }
}

extension Thread {
    /// Runs `work` on a thread of its own; `value()` waits for its result.
    static func detachedResult<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> PendingResult<T> {
        let pending = PendingResult<T>()
        Thread { pending.finish(Result(catching: work)) }.start()
        return pending
    }
}

/// A result another thread is computing.
final class PendingResult<T: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is guarded by `condition`.
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func finish(_ result: Result<T, any Error>) {
        condition.lock()
        self.result = result
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (at most a minute) for the result.
    func value() throws -> T {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: 60)
        while result == nil { guard condition.wait(until: deadline) else { throw ClientError.timedOut } }
        return try result!.get()
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// One client must not be able to make the server write or keep much more than it sends: client text is
/// quoted short, events are capped, refusals are rate-limited, and idle or refused connections cost nothing.
@Suite(.timeLimit(.minutes(10)))
struct LogAmplificationTests {
    static let hugeType = String(repeating: "x", count: 60_000)

    /// Bytes of every file under `path`.
    static func folderBytes(_ path: String) -> Int {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var total = 0
        while let name = enumerator?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: "\(path)/\(name)")
            total += (attributes?[.size] as? Int) ?? 0
        }
        return total
    }

    @Test func aHugeRefusedMessageIsQuotedInAHundredBytes() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path, "--log-format", "json"])
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        try page.send(["type": .string(Self.hugeType)])
        let error = try page.next("error")
        #expect(error["code"] == "unknown_type")
        let message = try #require(error["message"]?.string)
        #expect(message == #"unknown message type ""# + String(repeating: "x", count: 100) + #"…(cut: 60000 bytes)""#)
        let event = try page.event("protocolError")
        #expect(event["data"]?["message"]?.string == message)
        let line = try #require(server.waitForLine { $0.contains("unknown_type") })
        #expect(line.utf8.count < 1_000)
    }

    /// The issue's figure: 10,000 refused 60 KB messages from 4 clients that never said hello.
    @Test func tenThousandHugeBadMessagesCostLittle() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let watcher = try PlaygroundConnection(port: server.port)
        try watcher.hello()
        _ = try TerminalStallTests.pingTimes(watcher, count: 20)
        let rssBefore = server.residentBytes
        let folderBefore = Self.folderBytes(folder.path)

        let frame = RawWebSocket.frame(opcode: 0x1, payload: Array(#"{"type":"\#(Self.hugeType)"}"#.utf8))
        let sent = Counter()
        let closes = Counter()
        let port = server.port
        let clients = (0..<4).map { _ in
            Thread {
                while sent.value < 10_000 {
                    // Past 20 refusals in a second the server closes with 1008; the client comes back.
                    guard let socket = try? RawWebSocket(port: port) else { continue }
                    while sent.add(1) <= 10_000, (try? socket.sendFrame(frame)) != nil {}
                    // Only the flood's close: a server slowed down (a sanitizer run) may close first for
                    // the missing hello, also with 1008.
                    if let close = try? socket.receiveCloseFrame(), close.code == 1008,
                        close.reason == Array("too many refused messages".utf8)
                    {
                        _ = closes.add(1)
                    }
                }
            }
        }
        for client in clients { client.start() }
        var times: [Duration] = []
        while sent.value < 10_000 {
            times += try TerminalStallTests.pingTimes(watcher, count: 5)
        }
        for client in clients { while !client.isFinished { usleep(10_000) } }
        times += try TerminalStallTests.pingTimes(watcher, count: 20)

        let rssGrowth = server.residentBytes - rssBefore
        let folderGrowth = Self.folderBytes(folder.path) - folderBefore
        let p99 = TerminalStallTests.p99(times)
        print(
            "10,000 × 60 KB refused: RSS +\(rssGrowth >> 10) KiB, log folder +\(folderGrowth >> 10) KiB, ping p99 \(p99), closes with 1008: \(closes.value)"
        )
        // Under a sanitizer the server reads these 60 KB messages too slowly to refuse 21 of them within one
        // second on a connection (under TSan none was closed for it; the 1008s were the missing hello's).
        if !ServerProcess.isSanitized { #expect(closes.value > 0) }
        #expect(rssGrowth < 64 << 20)
        #expect(folderGrowth < 32 << 20)
        // Measured alone: about 2 ms (the goal is 20). The bound tells a loop that is held up from a machine
        // that is busy with other tests, so it does not depend on the machine's load.
        #expect(p99 < .milliseconds(100))
        // Each closed connection logged its flood once.
        let events = try JSONParser.parse(HTTPProbe.get(port: server.port, path: "/api/events?limit=10000").text)
        let floods = (events["events"]?.array ?? []).filter { $0["data"]?["code"] == "too_many_errors" }
        #expect(floods.count >= closes.value)
    }

    @Test func refusalsPastTwentyASecondClose1008OnceAndTheSessionResumes() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path, "--log-format", "json"])
        let page = try PlaygroundConnection(port: server.port)
        let welcome = try page.hello().welcome
        let session = try #require(welcome["session"]?.string)
        for _ in 0..<40 { try page.client.send("{nope") }
        #expect(try page.client.waitForClose() == 1008)
        let messages = page.drain()
        let errors = messages.filter { $0["type"] == "error" }.compactMap { $0["code"]?.string }
        // The 21st refusal in a second is answered and then the connection is closed.
        #expect(errors == Array(repeating: "bad_json", count: 21) + ["too_many_errors"])
        let flood = try #require(
            server.waitForEvent("protocolError", of: session) { $0["data"]?["code"] == "too_many_errors" })
        #expect(flood["data"]?["message"] == "too many refused messages in one second: the connection closes (1008)")

        let resumed = try PlaygroundConnection(port: server.port)
        let again = try resumed.hello(resume: welcome["resume"]?.string)
        #expect(again.welcome["session"]?.string == session)
        resumed.client.close()
        let trace = try #require(
            folder.waitForFile(folder.trace(session)) { $0.components(separatedBy: #""kind":"closed""#).count == 3 })
        #expect(trace.contains(#""violation":"tooManyRefusals""#))
        let replay = try runToCompletion(["replay", folder.trace(session), "--diff"])
        #expect(replay.stdout.hasPrefix("no differences"), "\(replay.stdout.prefix(1000))")
    }

    @Test func aConnectionThatNeverSaysHelloIsClosed() throws {
        let server = try ServerProcess(["--hello-timeout", "0.3"])
        let silent = try PlaygroundConnection(port: server.port)
        let error = try silent.next("error")
        #expect(error["code"] == "not_ready")
        #expect(try silent.client.waitForClose() == 1008)
    }

    @Test func connectionsWithoutHelloCannotTakeTheSessionsPlaces() throws {
        let server = try ServerProcess(["--max-sessions", "1", "--max-connecting", "2"])
        var silent = try (0..<2).map { _ in try RawWebSocket(port: server.port) }
        // Their own cap is full: one more waits its turn.
        #expect(throws: RawWebSocket.Failure.refused(503)) { _ = try RawWebSocket(port: server.port) }
        silent.removeLast().drop()
        // The session still opens beside the connection that never said hello.
        let page = try waitForAdmission { try PlaygroundConnection(port: server.port) }
        try page.hello()
        #expect(throws: RawWebSocket.Failure.refused(503)) { _ = try RawWebSocket(port: server.port) }
        #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200)
        withExtendedLifetime(silent) {}
    }

    /// Retries `connect` until the server has noticed a dropped connection (bounded).
    private func waitForAdmission<T>(_ connect: () throws -> T) throws -> T {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while true {
            do {
                return try connect()
            } catch  where ContinuousClock.now < deadline {
                usleep(20_000)
            }
        }
    }

    @Test func eventsArePagedWithAfterAndMore() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        for seq in 1...6 { try page.geometry(seq: seq, offsetY: seq % 2 == 0 ? 2300 : 1000) }
        _ = try page.next("state", where: { $0["ack"] == 6 })
        let all = try JSONParser.parse(HTTPProbe.get(port: server.port, path: "/api/events").text)
        let seqs = (all["events"]?.array ?? []).compactMap { $0["seq"]?.number }
        #expect(all["more"] == false)
        #expect(all["after"]?.number == seqs.last)
        #expect(seqs.count >= 5)

        var collected: [Double] = []
        var after = 0
        while true {
            let answer = try JSONParser.parse(
                HTTPProbe.get(port: server.port, path: "/api/events?limit=2&after=\(after)").text)
            collected += (answer["events"]?.array ?? []).compactMap { $0["seq"]?.number }
            after = Int(try #require(answer["after"]?.number))
            guard answer["more"] == true else { break }
        }
        #expect(collected == seqs)
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Adds `amount`; the new value.
    func add(_ amount: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += amount
        return count
    }

    var value: Int { add(0) }
}

import Foundation
import LWSClient
import ScrollCore
import ScrollRulesUI
import Testing

/// ScrollRulesUI's recorder, pure Swift: a trace it writes replays here, and its messages, sent over a real
/// socket to the real server, open a `record` session whose trace replays with no differences.
@Suite(.timeLimit(.minutes(10)))
struct SwiftUIRecorderTests {
    static let example = ServerProcess.packageRoot.appendingPathComponent("Examples/traces/swiftui-recorder.jsonl")

    /// A scripted scroll view: down a 3,000 pt feed in a 844 pt viewport, a rest, then a pull at the top
    /// released past the threshold, 16 ms a frame.
    static func scripted(_ recorder: inout TraceRecorder) -> (messages: [String], end: Int64) {
        var messages: [String] = []
        var t: Int64 = 40
        func frame(_ offset: Double, _ phase: FeedScrollPhase) {
            let geometry = FeedGeometry(
                contentOffset: ScrollPoint(x: 0, y: offset), contentSize: ScrollSize(width: 393, height: 3000),
                containerSize: ScrollSize(width: 393, height: 852),
                contentInsets: ScrollInsets(top: 0, leading: 0, bottom: 34, trailing: 0))
            if let message = recorder.frame(geometry, phase: phase, at: t) { messages.append(message) }
            t += 16
        }
        frame(0, .idle)
        for step in 1...22 { frame(Double(step) * 100, .interacting) }
        frame(2200, .decelerating)
        frame(2200, .idle)
        t += 1000
        for step in stride(from: 2200.0, through: 0, by: -200) { frame(step, .interacting) }
        for pull in stride(from: 10.0, through: 90, by: 10) { frame(-pull, .interacting) }
        frame(-90, .idle)
        frame(0, .idle)
        return (messages, t)
    }

    static func recorder() -> TraceRecorder {
        var settings = FeedSettings(preset: .playground)
        settings.bottomThreshold = 1500
        return TraceRecorder(app: "com.example.Feed", device: "iPhone 15 Pro, iOS 18.1", settings: settings)
    }

    /// A frame's time is when the frame began, which can be before a line already written (the hello, at the
    /// recorder's start): the page's recorder wrote such a `t` and the trace did not read. The recorder holds
    /// every line's `t` at the last one's, so what it writes always reads.
    @Test func clockReadingsThatGoBackStillWriteATraceThatReads() throws {
        var recorder = TraceRecorder(app: "a", device: "d", settings: FeedSettings(preset: .playground), at: 500)
        for (offset, t) in [(0.0, 480), (100, 470), (200, 520), (300, 510)] as [(Double, Int64)] {
            let geometry = FeedGeometry(
                contentOffset: ScrollPoint(x: 0, y: offset), contentSize: ScrollSize(width: 393, height: 3000),
                containerSize: ScrollSize(width: 393, height: 852),
                contentInsets: ScrollInsets(top: 0, leading: 0, bottom: 0, trailing: 0))
            _ = recorder.frame(geometry, phase: .interacting, at: t)
        }
        let trace = try Trace.parse(recorder.trace(closedAt: 400))
        #expect(trace.lines.map(\.t) == [500, 500, 500, 520, 520, 520])
    }

    @Test func aWrittenTraceReplays() throws {
        var recorder = Self.recorder()
        let end = Self.scripted(&recorder).end
        let text = recorder.trace(closedAt: end)
        let trace = try Trace.parse(text)
        #expect(trace.header.recorder?.name == "com.example.Feed on iPhone 15 Pro, iOS 18.1")
        #expect(trace.header.recorder?.page == "app:com.example.Feed")
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let file = "\(folder.path)/written.jsonl"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let compare = try runToCompletion(["replay", file, "--compare"])
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(compare.stdout.contains("Where the presets disagree"), "\(compare.stdout)")
        let decisions = try runToCompletion(["replay", file])
        #expect(decisions.stdout.contains("loadMoreStarted"))
        #expect(decisions.stdout.contains("refreshStarted"))
    }

    @Test func itsMessagesOpenARecordSessionThatReplaysWithNoDifferences() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path, "--load-latency-ms", "20"])
        defer { _ = server.stop() }
        var recorder = Self.recorder()
        let page = try PlaygroundConnection(port: server.port)
        try page.client.send(recorder.hello)
        let welcome = try page.next("welcome")
        let session = try #require(welcome["session"]?.string)
        #expect(welcome["config"]?["bottomThreshold"] == 1500)
        let messages = Self.scripted(&recorder).messages
        // One frame at a time, as a scroll view sends them: each is applied before the next (none coalesced).
        for (index, message) in messages.enumerated() {
            try page.client.send(message)
            _ = try page.next("state", where: { $0["ack"] == .int(index + 1) })
        }
        page.client.close()
        #expect(server.stop(signal: SIGTERM) == 0)
        let trace = try String(contentsOfFile: folder.trace(session), encoding: .utf8)
        // Examples/traces/swiftui-recorder.jsonl is this trace: `WRITE_EXAMPLES=1 swift test --filter SwiftUIRecorderTests`.
        if ProcessInfo.processInfo.environment["WRITE_EXAMPLES"] == "1" {
            try trace.write(to: Self.example, atomically: true, encoding: .utf8)
        }
        let header = try #require(LogFolder.jsonLines(trace).first)
        #expect(header["recorder"]?["name"] == "com.example.Feed on iPhone 15 Pro, iOS 18.1")
        let replay = try runToCompletion(["replay", folder.trace(session), "--diff"])
        #expect(replay.status == 0)
        #expect(replay.stdout.hasPrefix("no differences"), "\(replay.stdout.prefix(1000))")
    }
}

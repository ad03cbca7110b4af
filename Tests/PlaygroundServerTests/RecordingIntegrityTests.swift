import Foundation
import LWSClient
import ScrollCore
import Testing

/// `make run` records into the same `--log-dir` on every start: restarts and crashes must never mix two
/// sessions in a trace, tear `events.jsonl` or repeat a `seq` in it.
@Suite(.timeLimit(.minutes(10)))
struct RecordingIntegrityTests {
    /// Opens a session, loads a page and scrolls a little; its id.
    static func recordSession(on server: ServerProcess) throws -> String {
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 2300)
        _ = try page.event("loadMoreFinished")
        for seq in 2...40 {
            try page.geometry(seq: seq, offsetY: Double(2300 - seq * 20), phase: "decelerating")
        }
        _ = try page.next("state", where: { $0["ack"] == 40 })
        return session
    }

    /// The page disables "Download trace" from the welcome: a reason there means there is no trace at all.
    @Test func withoutALogDirTheWelcomeSaysThereIsNoTrace() throws {
        let server = try ServerProcess([])
        let page = try PlaygroundConnection(port: server.port)
        let (welcome, _, state) = try page.hello()
        let session = try #require(welcome["session"]?.string)
        #expect(welcome["recordingStopped"] == "not recorded: the server runs without --log-dir DIR")
        #expect(state["recordingStopped"] == nil, "a state says only that a trace stopped")
        #expect(try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace").status == 404)
        #expect(server.stop() == 0)

        let folder = LogFolder()
        let recording = try ServerProcess(["--log-dir", folder.path])
        let recorded = try PlaygroundConnection(port: recording.port).hello().welcome
        #expect(recorded["recordingStopped"] == nil)
        #expect(recording.stop() == 0)
    }

    @Test func restartsAndACrashNeverMixSessionsOrTearTheEventLog() throws {
        let folder = LogFolder()
        let arguments = ["--log-dir", folder.path, "--load-latency-ms", "20"]

        let first = try ServerProcess(arguments)
        let a = try Self.recordSession(on: first)
        #expect(first.stop(signal: SIGTERM) == 0)

        // The second run is killed; a crash in the middle of writing an event leaves a torn last line.
        let second = try ServerProcess(arguments)
        let b = try Self.recordSession(on: second)
        _ = second.stop(signal: SIGKILL)
        let torn = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.eventsFile))
        torn.seekToEndOfFile()
        torn.write(Data(#"{"seq":99999,"time":"2026-11-30T04:12:09.331Z","session":"s2","na"#.utf8))
        try torn.close()

        let third = try ServerProcess(arguments)
        #expect(third.waitForStderr { $0.contains("removed a last line cut off by a crash") } != nil)
        let c = try Self.recordSession(on: third)
        let served = try HTTPProbe.get(port: third.port, path: "/api/sessions/\(c)/trace")
        #expect(third.stop(signal: SIGTERM) == 0)

        #expect(Set([a, b, c]).count == 3, "session ids \(a), \(b), \(c)")
        for session in [a, b, c] {
            let lines = LogFolder.jsonLines(
                try String(contentsOfFile: folder.trace(session), encoding: .utf8), killed: session == b)
            #expect(lines.filter { $0["kind"] == "header" }.count == 1, "\(session) holds one session")
            #expect(lines.first?["session"]?.string == session)
            #expect(lines.filter { $0["message"]?["type"] == "hello" }.count == 1)
            let replay = try runToCompletion(["replay", folder.trace(session), "--diff"])
            #expect(replay.status == 0)
            #expect(replay.stdout.hasPrefix("no differences"), "\(session): \(replay.stdout.prefix(1000))")
        }
        // The page's download is the file the session was recorded in.
        #expect(served.status == 200)
        #expect(LogFolder.jsonLines(served.text).first?["session"]?.string == c)

        let events = LogFolder.jsonLines(try String(contentsOfFile: folder.eventsFile, encoding: .utf8))
        let seqs = events.compactMap { $0["seq"]?.number }
        #expect(seqs.count == events.count)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "seq goes on across runs: \(seqs)")
        #expect(Set(events.compactMap { $0["session"]?.string }) == [a, b, c])
    }

    @Test func aRefusedHelloLeavesNoSessionAndNoFile() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let page = try PlaygroundConnection(port: server.port)
        for _ in 0..<5 {
            try page.send(["type": "hello", "version": 1, "config": ["pageSize": -1]])
            #expect(try page.next("error")["code"] == "bad_message")
        }
        let sessions = try HTTPProbe.get(port: server.port, path: "/api/sessions")
        #expect(try JSONParser.parse(sessions.text)["sessions"] == [])
        let traces = (try? FileManager.default.contentsOfDirectory(atPath: "\(folder.path)/traces")) ?? []
        #expect(traces.isEmpty)
        // A refused hello used up no session number.
        #expect(try page.hello().welcome["session"] == "s1")
    }

    /// Geometry JSON can hold numbers the arithmetic turns into infinities; the log writes them as null, and
    /// a replay must compare what was logged.
    @Test func hugeGeometryValuesReplayWithoutDifferences() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello(preset: "refreshableLegacy").welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 1e308, contentHeight: 1e308, containerHeight: 1e308)
        try page.geometry(seq: 2, offsetY: -1e308, contentHeight: 1e308, containerHeight: 1e308)
        _ = try page.next("state", where: { $0["ack"] == 2 })
        page.client.close()
        let trace = try #require(folder.waitForFile(folder.trace(session)) { $0.contains(#""kind":"closed""#) })
        #expect(trace.contains("null"))
        let replay = try runToCompletion(["replay", folder.trace(session), "--diff"])
        #expect(replay.stdout.hasPrefix("no differences"), "\(replay.stdout.prefix(1000))")
    }

    /// JSON may spread a message over lines; its input line keeps it on one (each newline a space), and it
    /// replays as it was decoded.
    @Test func aMessageSpreadOverLinesIsRecordedOnOneLine() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello(preset: "refreshableLegacy").welcome["session"]?.string)
        let message =
            "{\"type\":\"geometry\",\r\n\"seq\":1,\"t\":16,\n\"contentOffset\":{\"x\":0,\"y\":40},"
            + "\"contentSize\":{\"width\":390,\"height\":3000},\r\"containerSize\":{\"width\":390,\"height\":700},"
            + "\"phase\":\"idle\"}"
        try page.client.send(message)
        _ = try page.next("state", where: { $0["ack"] == 1 })
        page.client.close()
        let trace = try #require(folder.waitForFile(folder.trace(session)) { $0.contains(#""kind":"closed""#) })
        let recorded = message.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        #expect(trace.contains(#""message":"# + recorded + "}\n"))
        let replay = try runToCompletion(["replay", folder.trace(session), "--diff"])
        #expect(replay.stdout.hasPrefix("no differences"), "\(replay.stdout.prefix(1000))")
    }
}

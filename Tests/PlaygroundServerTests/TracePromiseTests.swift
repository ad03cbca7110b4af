import Foundation
import LWSClient
import ScrollCore
import Testing

/// A trace's promises kept at both ends (issue 43): the one reader refuses a `t` that goes back and a line
/// that is not UTF-8, whichever command or upload reads it, with one line naming the line and the rule; and
/// what the server writes for a fork replays. Through the real executable and over real sockets.
@Suite(.timeLimit(.minutes(10)))
struct TracePromiseTests {
    static var examples: URL { ServerProcess.packageRoot.appendingPathComponent("Examples/traces") }

    /// A header, then a `hello` at 5000 and inputs at 10 and 4000: `replay` printed a negative span
    /// and died ("Negative count not allowed", exit 132).
    static let backwardClock =
        [
            #"{"kind":"header","format":1,"session":"p1","server":"x","config":{}}"#,
            #"{"kind":"input","t":5000,"message":{"type":"hello","version":1}}"#,
            #"{"kind":"input","t":10,"message":{"type":"loadMore"}}"#,
            #"{"kind":"input","t":4000,"message":{"type":"refresh"}}"#,
        ].joined(separator: "\n") + "\n"

    /// A folder holding one trace file with `bytes`, removed when the test is done.
    static func folder(holding bytes: [UInt8]) throws -> (folder: String, file: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("hand.jsonl")
        try Data(bytes).write(to: file)
        return (folder.path, file.path)
    }

    /// Every command that reads a trace: replay, simulate with its hand, check with its folder.
    static func commands(folder: String, file: String) -> [[String]] {
        [
            ["replay", file], ["replay", file, "--diff"], ["simulate", "--gesture", "trace:\(file)"],
            ["check", "--gestures", folder],
        ]
    }

    @Test func aClockThatGoesBackIsRefusedByEveryCommandWithItsLine() throws {
        let (folder, file) = try Self.folder(holding: Array(Self.backwardClock.utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in Self.commands(folder: folder, file: file) {
            let run = try runToCompletion(command)
            #expect(run.status == 2, "\(command): exit \(run.status)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("line 3") && run.stderr.contains("goes back"), "\(command): \(run.stderr)")
        }
    }

    @Test func aLineThatIsNotUTF8IsRefusedNotReplaced() throws {
        // Latin-1's é (0xE9) in the second line: read as UTF-8 it was silently replaced, and `replay` said 0.
        var bytes = Array(#"{"kind":"header","format":1,"session":"p1","server":"x","config":{}}"#.utf8) + [0x0A]
        bytes += Array(#"{"kind":"input","t":1,"message":{"type":"hello","version":1,"note":"caf"#.utf8)
        bytes += [0xE9] + Array(#""}}"#.utf8) + [0x0A]
        let (folder, file) = try Self.folder(holding: bytes)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in Self.commands(folder: folder, file: file) {
            let run = try runToCompletion(command)
            #expect(run.status == 2, "\(command): exit \(run.status)")
            #expect(run.stderr.contains("line 2: not UTF-8"), "\(command): \(run.stderr)")
        }
    }

    /// A 439 MB trace took `replay` past 30 s and 2 GB: a file over `--max-trace-bytes` is refused with one line
    /// before it is read, by every command, and the flag raises the limit.
    @Test func aTraceOverTheStatedSizeIsRefusedBeforeItIsRead() throws {
        let example = Self.examples.appendingPathComponent("jump-to-an-item.jsonl")
        let (folder, file) = try Self.folder(holding: try [UInt8](Data(contentsOf: example)))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in Self.commands(folder: folder, file: file) {
            let refused = try runToCompletion(command + ["--max-trace-bytes", "1000"])
            #expect(refused.status == 2, "\(command): exit \(refused.status)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("more than --max-trace-bytes 1000"), "\(command): \(refused.stderr)")
        }
        let raised = try runToCompletion(["replay", file, "--diff", "--max-trace-bytes", "100000000"])
        #expect(raised.status == 0)
        #expect(raised.stdout.hasPrefix("no differences"))
    }

    @Test func checkGesturesOnAFileSaysItWantsAFolder() throws {
        let file = Self.examples.appendingPathComponent("jump-to-an-item.jsonl").path
        let run = try runToCompletion(["check", "--gestures", file])
        #expect(run.status == 2)
        #expect(
            run.stderr.contains("a file, not a folder") && !run.stderr.contains("NSCocoaErrorDomain"), "\(run.stderr)")
    }

    /// ±1e308 in a recording's geometry: `check --gestures` trapped (exit 132) where `simulate` went on.
    @Test(arguments: ["1e308", "-1e308"])
    func aHandTheLabCannotSimulateIsRefusedWithItsLineByBothCommands(offset: String) throws {
        let example = try String(
            contentsOf: Self.examples.appendingPathComponent("fast-fling-to-bottom.jsonl"), encoding: .utf8)
        var lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[3] = lines[3].replacingOccurrences(
            of: #""contentOffset":{"x":0,"y":0}"#, with: #""contentOffset":{"x":0,"y":\#(offset)}"#)
        let (folder, file) = try Self.folder(holding: Array(lines.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in Self.commands(folder: folder, file: file).dropFirst(2) {
            let run = try runToCompletion(command)
            #expect(run.status == 2, "\(command): exit \(run.status)")
            #expect(run.stderr.contains("line 4: contentOffset.y"), "\(command): \(run.stderr)")
        }
    }

    @Test func aParentWhoseClockGoesBackIsABadMessageAndNothingIsWritten() throws {
        let logs = LogFolder()
        let server = try ServerProcess(["--log-dir", logs.path])
        let page = try PlaygroundConnection(port: server.port)
        try HostileForkTests.fork(page, Self.backwardClock, at: 4000)
        let error = try page.next("error")
        #expect(error["code"] == "bad_message")
        #expect(error["message"]?.string?.contains("goes back") == true, "\(error)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: "\(logs.path)/traces")) ?? []
        #expect(written.isEmpty, "\(written)")
    }

    /// The writer's side: every example forked at its end, and what the server wrote for the fork replays.
    @Test func aForkOfEveryExampleWritesATraceThatReplays() throws {
        let logs = LogFolder()
        let server = try ServerProcess(["--log-dir", logs.path])
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path)
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(names.count >= 20)
        var forked = 0
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: Self.examples.appendingPathComponent(name)))
            let at = try Trace.parse(bytes: bytes).lines.last?.t ?? 0
            let page = try PlaygroundConnection(port: server.port)
            try HostileForkTests.fork(page, String(decoding: bytes, as: UTF8.self), at: Int(at))
            guard let session = try page.next("welcome")["session"]?.string else {
                Issue.record("\(name): no session in the fork's welcome")
                continue
            }
            page.client.close()
            let trace = logs.trace(session)
            _ = logs.waitForFile(trace) { $0.contains(#""kind":"closed""#) }
            let replay = try runToCompletion(["replay", trace, "--diff"])
            #expect(replay.status == 0, "\(name) → \(session): \(replay.stderr)")
            #expect(replay.stdout.hasPrefix("no differences"), "\(name) → \(session): \(replay.stdout)")
            forked += 1
        }
        #expect(forked == names.count)
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// `scroll-playground replay` against real recordings, through the real executable.
// The limit catches a hang, not slowness: it counts from the test's start, so on a busy 2-core machine it
// measures contention (these tests launch the executable, many at once under the parallel runner).
@Suite(.timeLimit(.minutes(10)))
struct ReplayTests {
    static var examples: URL { ServerProcess.packageRoot.appendingPathComponent("Examples") }

    static func example(_ name: String) -> String {
        examples.appendingPathComponent("traces/\(name).jsonl").path
    }

    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Decisions as `replay --format json` prints them: name, geometrySeq and data.
    static func decisions(_ output: String) throws -> [JSONValue] {
        try output.split(separator: "\n").map { line in
            var members = try #require(try JSONParser.parse(String(line)).object)
            members["t"] = nil
            members["change"] = nil
            return .object(members)
        }
    }

    @Test func aRecordedSessionReplaysToTheSameDecisions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--log-dir", directory])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(
            try page.hello(preset: "playground", config: ["loadLatencyMs": 40, "refreshLatencyMs": 40, "jitterMs": 20])
                .welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 0)
        try page.geometry(seq: 2, offsetY: 2290, phase: "decelerating")
        _ = try page.event("loadMoreFinished")
        try page.geometry(seq: 3, offsetY: 2290, contentHeight: 4600)
        try page.geometry(seq: 4, offsetY: 0, contentHeight: 4600)
        for (seq, pull) in [(5, -30.0), (6, -70.0), (7, -75.0)] {
            try page.geometry(seq: seq, offsetY: pull, contentHeight: 4600, phase: "interacting")
        }
        try page.geometry(seq: 8, offsetY: -75, contentHeight: 4600)
        _ = try page.event("refreshFinished")
        try page.send(["type": "config", "preset": "customScrollView"])
        try page.client.send("{oops")
        _ = try page.event("protocolError")
        try page.send(["type": "loadMore"])
        _ = try page.event("loadMoreFinished")

        let download = try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace")
        #expect(download.status == 200)
        let trace = try Self.temporaryFile(download.text)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let recorded = try download.text.split(separator: "\n").compactMap { line -> JSONValue? in
            let value = try JSONParser.parse(String(line))
            guard value["kind"] == "decision", let event = value["event"]?.object else { return nil }
            return .object(event.filter { ["name", "geometrySeq", "data"].contains($0.key) })
        }
        #expect(recorded.count >= 12)

        let replay = try runToCompletion(["replay", trace, "--format", "json"])
        #expect(replay.status == 0)
        #expect(try Self.decisions(replay.stdout) == recorded)
        let diff = try runToCompletion(["replay", trace, "--diff"])
        #expect(diff.stdout == "no differences: \(recorded.count) decisions match\n")
    }

    @Test func presetAnswersWhatAnotherDesignWouldHaveDone() throws {
        let trace = Self.example("fractional-pixels-from-zoom")
        let own = try Self.decisions(try runToCompletion(["replay", trace, "--format", "json"]).stdout)
        #expect(!own.contains { $0["name"] == "loadMoreStarted" })
        let playground = try Self.decisions(
            try runToCompletion(["replay", trace, "--preset", "playground", "--format", "json"]).stdout)
        #expect(playground.filter { $0["name"] == "loadMoreStarted" }.count == 1)
    }

    @Test func setAnswersWhatAnotherThresholdWouldHaveDone() throws {
        let trace = Self.example("pull-released-below-threshold")
        let result = try runToCompletion(["replay", trace, "--set", "pullThreshold=40", "--diff", "--format", "json"])
        #expect(result.status == 0)
        let added = try Self.decisions(result.stdout).map { $0["name"]?.string }
        #expect(added.contains("refreshStarted"))
        #expect(added.contains("refreshFinished"))
    }

    @Test func diffPrintsOnlyTheDifferences() throws {
        let trace = Self.example("fractional-pixels-from-zoom")
        let result = try runToCompletion(["replay", trace, "--preset", "playground", "--diff"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("- ") || $0.hasPrefix("+ ") })
        #expect(lines.contains { $0.hasPrefix("+ ") && $0.contains("loadMoreStarted") })
        #expect(!lines.contains { $0.contains("sessionClosed") })
    }

    @Test func compareTabulatesWherePresetsDisagree() throws {
        let result = try runToCompletion([
            "replay", Self.example("fractional-pixels-from-zoom"), "--compare", "--format", "json",
        ])
        let table = try JSONParser.parse(result.stdout)
        let rows = try #require(table["disagreements"]?.array)
        let first = try #require(rows.first)
        #expect(first["presets"]?["customScrollView"] == [])
        #expect(first["presets"]?["playground"]?.array?.contains("load") == true)
        #expect(table["totals"]?["customScrollView"]?["loads"] == 0)
        #expect(table["totals"]?["playground"]?["loads"] == 1)
        let text = try runToCompletion(["replay", Self.example("fractional-pixels-from-zoom"), "--compare"])
        #expect(text.stdout.contains("Where the presets disagree"))
    }

    @Test func everyExampleReplaysExactly() throws {
        let traces = try FileManager.default.contentsOfDirectory(
            atPath: Self.examples.appendingPathComponent("traces").path
        )
        .filter { $0.hasSuffix(".jsonl") }
        // 10 recorded (9 through the server's page, 1 from a foreign app), 1 from ScrollRulesUI's recorder,
        // 6 found and shrunk by `check` (1 under the iOS model), 4 scripted in the lab under the iOS model (`ios-*`).
        #expect(traces.count == 24)
        for name in traces {
            let result = try runToCompletion([
                "replay", Self.examples.appendingPathComponent("traces/\(name)").path, "--diff",
            ])
            #expect(result.stdout.hasPrefix("no differences"), "\(name): \(result.stdout)")
        }
    }

    @Test func theExamplesTableIsCurrent() throws {
        let traces = try FileManager.default.contentsOfDirectory(
            atPath: Self.examples.appendingPathComponent("traces").path
        )
        .filter { $0.hasSuffix(".jsonl") }.sorted().map { Self.examples.appendingPathComponent("traces/\($0)").path }
        let generated = try runToCompletion(["replay", "--summary"] + traces).stdout
        let readme = try String(contentsOf: Self.examples.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- summary:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- summary:end -->"))
        #expect(
            String(readme[start.upperBound..<end.lowerBound]) == generated,
            "Examples/README.md is stale: regenerate with replay --summary Examples/traces/*.jsonl")
    }

    @Test(
        arguments: [
            (
                #"{"kind":"header","format":2,"session":"s1","server":"x","config":{}}"#, "line 1",
                "made by a newer version"
            ),
            (
                #"{"kind":"header","format":0,"session":"s1","server":"x","config":{}}"#, "line 1",
                "unsupported trace format 0"
            ),
            // Cut off in the middle of the file (a torn last line is forgiven, see below).
            (
                "{\"kind\":\"header\",\"format\":1,\"session\":\"s1\",\"server\":\"x\",\"config\":{}}\n{\"kind\":\"input\",\"t\":4,\"mess\n{\"kind\":\"timer\",\"t\":5,\"timer\":\"refreshHold\"}",
                "line 2", "not JSON"
            ),
            // A complete last line (it ends with a newline) that is not JSON was not cut off by a crash.
            (
                "{\"kind\":\"header\",\"format\":1,\"session\":\"s1\",\"server\":\"x\",\"config\":{}}\n{\"kind\":\"input\",\"t\":4,\"mess\n",
                "line 2", "not JSON"
            ),
            (
                "{\"kind\":\"header\",\"format\":1,\"session\":\"s1\",\"server\":\"x\",\"config\":{}}\n{\"kind\":\"timer\",\"t\":\"soon\",\"timer\":\"refreshHold\"}",
                "line 2", "\"t\""
            ),
            (
                "{\"kind\":\"header\",\"format\":1,\"session\":\"s1\",\"server\":\"x\",\"config\":{\"pageSize\":\"big\"}}",
                "line 1", "pageSize"
            ),
            (
                "{\"kind\":\"header\",\"format\":1,\"session\":\"s1\",\"server\":\"x\",\"config\":{}}\n{\"kind\":\"decision\",\"t\":1,\"event\":{\"name\":\"teleported\"}}",
                "line 2", "event.name"
            ),
            ("", "line 1", "empty"),
        ] + Self.hugeNumbers)
    func badTracesExitTwoWithTheLine(text: String, line: String, mentioning: String) throws {
        let path = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runToCompletion(["replay", path])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(line))
        #expect(result.stderr.contains(mentioning))
    }

    /// A number no integer holds, in each field a trace reads as one: refused with the line and the field,
    /// never a crash (`Int64(1e300)` traps).
    static let hugeNumbers: [(String, String, String)] = {
        let header = #"{"kind":"header","format":1,"session":"s1","server":"x","config":{}"#
        let hello = #"{"kind":"input","t":1,"message":{"type":"hello"}}"#
        return [
            (header + #","maxMessageBytes":1e300}"#, "line 1", "\"maxMessageBytes\""),
            (header + #","itemCap":1e300}"#, "line 1", "\"itemCap\""),
            (header + #","fork":{"parent":"p","parentSession":"s0","at":1e300}}"#, "line 1", "\"fork.at\""),
            (header + "}\n" + #"{"kind":"input","t":1e300,"message":{"type":"hello"}}"#, "line 2", "\"t\""),
            (header + "}\n" + hello + "\n" + #"{"kind":"closed","t":2,"code":1e300}"#, "line 3", "\"code\""),
            (
                header + "}\n" + hello + "\n"
                    + #"{"kind":"decision","t":2,"event":{"name":"sessionOpened","geometrySeq":1e300}}"#,
                "line 3", "\"event.geometrySeq\""
            ),
        ].map { ($0.0 + "\n", $0.1, $0.2) }
    }()

    /// A crash cuts the last line of a trace short: replay runs everything before it and says so, once.
    @Test func aTornLastLineIsIgnoredWithOneNotice() throws {
        let example = try String(
            contentsOf: Self.examples.appendingPathComponent("traces/pull-during-page-load.jsonl"), encoding: .utf8)
        let whole = try Self.temporaryFile(example)
        let torn = try Self.temporaryFile(example + #"{"kind":"input","t":99999,"message":{"type":"geo"#)
        defer {
            try? FileManager.default.removeItem(atPath: whole)
            try? FileManager.default.removeItem(atPath: torn)
        }
        let expected = try runToCompletion(["replay", whole])
        let result = try runToCompletion(["replay", torn])
        #expect(result.status == 0)
        #expect(result.stdout == expected.stdout)
        let lineCount = example.split(separator: "\n").count + 1
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("ignored line \(lineCount), the last, cut off mid-write"))
        #expect(try runToCompletion(["replay", torn, "--diff"]).stdout.hasPrefix("no differences"))
    }

    @Test(arguments: [
        (["replay", "--set", "bogus=1", "x.jsonl"], "bogus"),
        (["replay", "--preset", "nope", "/dev/null"], "preset"),
        (["replay", "/nonexistent/trace.jsonl"], "cannot read"),
        (["replay"], "TRACE"),
        (["replay", "a.jsonl", "--diff", "--compare"], "one of"),
    ])
    func badReplayFlagsExitTwo(arguments: [String], mentioning: String) throws {
        let result = try runToCompletion(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(mentioning))
    }

    @Test func theLogPanelsEventExportIsNamedAndPointsToTheTrace() throws {
        let export =
            #"{"seq":1,"time":"2026-11-30T05:00:32.698Z","session":"s1","name":"sessionOpened","data":{}}"# + "\n"
        let path = try Self.temporaryFile(export)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runToCompletion(["replay", path])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("event export"))
        #expect(result.stderr.contains("Download trace"))
    }

    @Test func timesCountFromTheSessionsStart() throws {
        // A session that said hello 426.5 s after the server started: its first decision is at 0.000s.
        let trace = """
            {"kind":"header","format":1,"session":"s9","server":"x","config":{"loadLatencyMs":100}}
            {"kind":"input","t":426505,"message":{"type":"hello","version":1}}
            {"kind":"closed","t":427667,"code":1000,"resumable":true}

            """
        let path = try Self.temporaryFile(trace)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runToCompletion(["replay", path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("   0.000s s9 sessionOpened") == true)
        #expect(lines.last?.hasPrefix("   1.162s s9 sessionClosed") == true)
        let json = try runToCompletion(["replay", path, "--format", "json"]).stdout
        #expect(try JSONParser.parse(String(json.split(separator: "\n")[0])).object?["t"] == .int(0))
    }

    @Test func traceDownloadNeedsALogDirectory() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        let response = try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace")
        #expect(response.status == 404)
        #expect(response.text.contains("--log-dir"))
        #expect(try HTTPProbe.get(port: server.port, path: "/api/sessions/..%2f..%2fetc/trace").status == 404)
    }
}

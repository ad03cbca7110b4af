import Foundation
import PlaygroundServer
import ScrollCore
import Testing

/// `scroll-playground simulate` and `check` through the real executable.
@Suite(.timeLimit(.minutes(10)))
struct LabCommandTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lab-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [
        ["simulate", "--sweep", "bogus=1,2"], ["simulate", "--sweep", "bottomThreshold=5:1:1"],
        ["simulate", "--sweep", "bottomThreshold=0:10:0"], ["simulate", "--gesture", "fly"],
        ["simulate", "--sweep", "bottomThreshold="], ["simulate", "--set", "loadLatencyMs=-1"],
        ["simulate", "--plot", "x.svg"], ["check", "--seconds", "0"], ["check", "--preset", "nope"],
        ["simulate", "--gesture", "trace:"], ["simulate", "--gesture", "trace:no-such.jsonl"],
        ["simulate", "--gesture", "trace:README.md"], ["check", "--gestures", "no-such-dir"],
        ["check", "--gestures", "docs"],
    ])
    func badInputIsOneLineAndExitTwo(arguments: [String]) throws {
        let result = try runToCompletion(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// A refused value is named once, and the option once (issue 40 §9).
    @Test(arguments: [
        (
            ["simulate", "--gesture", "fling"],
            "--gesture: unknown gesture (one of read, skim, toEnd, pullRefresh), not 'fling'"
        ),
        (["simulate", "--set", "seconds=x"], "--set: seconds: must be a number in 0.1…3600, not 'x'"),
    ])
    func aRefusedValueIsNamedOnce(arguments: [String], message: String) throws {
        let result = try runToCompletion(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Without `--out`, the minimal traces go under `logs/` of the folder it runs in (git ignores a
    /// checkout's), never into the folder itself, and the report names them there (issue 40 §9).
    @Test func checkWritesItsTracesUnderLogsByDefault() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try runToCompletion(
            ["check", "--preset", "customScrollView", "--scenarios", "20", "--seconds", "60"],
            in: URL(fileURLWithPath: directory), timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("logs/check-traces/customScrollView-"), "\(result.stdout)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory + "/logs/check-traces")
        #expect(!written.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["logs"])
    }

    /// `--gesture trace:FILE` starts from the recording's settings and `--set` changes them, wherever it stands.
    @Test func aRecordingsHandRunsUnderTheSettingsGiven() throws {
        let trace = ServerProcess.packageRoot.appendingPathComponent("Examples/traces/ios-lazy-estimate-prefetch.jsonl")
            .path
        let before = try runToCompletion(["simulate", "--set", "bottomThreshold=0", "--gesture", "trace:\(trace)"])
        let after = try runToCompletion(["simulate", "--gesture", "trace:\(trace)", "--set", "bottomThreshold=0"])
        let own = try runToCompletion(["simulate", "--gesture", "trace:\(trace)"])
        #expect(before.status == 0)
        #expect(before.stdout == after.stdout)
        #expect(before.stdout.contains("stallTotalMs         600\n"), "\(before.stdout)")
        #expect(own.stdout.contains("stallTotalMs         0\n"), "\(own.stdout)")
    }

    @Test func simulatePrintsJSONWithEveryMetric() throws {
        let result = try runToCompletion(["simulate", "--seconds", "5", "--format", "json"])
        #expect(result.status == 0)
        let report = try #require(try JSONParser.parse(result.stdout.trimmingCharacters(in: .newlines)).object)
        for name in [
            "stallTotalMs", "stallP95Ms", "started", "suppressed", "cancelled", "failed", "duplicated",
            "pagesNeverSeen", "refreshesPerPull", "pullsWithoutRefresh", "peakDOMItems",
        ] {
            #expect(report[name]?.number != nil, "no \(name)")
        }
    }

    @Test func aSweepIsAGridWithAPlot() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plot = directory + "/stall.svg"
        let result = try runToCompletion([
            "simulate", "--seconds", "5", "--sweep", "bottomThreshold=0:100:50", "--sweep", "gesture=skim,read",
            "--format", "csv", "--plot", plot,
        ])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1 + 3 * 2)
        #expect(lines.first?.hasPrefix("bottomThreshold,gesture,stallTotalMs,") == true)
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("</svg>"))
    }

    @Test func checkWritesMinimalTracesThatReplayWithNoDifferences() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try runToCompletion(
            [
                "check", "--preset", "customScrollView", "--scenarios", "300", "--seconds", "60", "--out", directory,
            ], timeout: 100)
        #expect(result.status == 0)
        #expect(result.stdout.contains("customScrollView"))
        #expect(result.stdout.contains("FAIL"))
        let trace = directory + "/customScrollView-seesTheEnd.jsonl"
        #expect(result.stdout.contains(trace))
        let replay = try runToCompletion(["replay", trace, "--diff"])
        #expect(replay.status == 0)
        #expect(replay.stdout.hasPrefix("no differences"))
    }

    @Test func labOptionsAreInTheirHelpAndTheDocs() throws {
        // docs/lab.md explains them; docs/command-line.md lists every command's flags.
        let docs = try ["docs/lab.md", "docs/command-line.md"].map { path in
            try String(contentsOf: ServerProcess.packageRoot.appendingPathComponent(path), encoding: .utf8)
        }.joined(separator: "\n")
        let names = PlaygroundCommand.labOptionNames
        for (command, options) in [("simulate", names.simulate), ("check", names.check)] {
            let help = try runToCompletion([command, "--help"])
            #expect(help.status == 0)
            for name in options {
                #expect(try OptionDocumentationTests.mentions(help.stdout, name), "\(command) --help lacks --\(name)")
                #expect(
                    try OptionDocumentationTests.mentions(docs, name, after: "`"),
                    "the docs lack \(command)'s --\(name)")
            }
        }
    }
}

import Foundation
import PlaygroundServer
import Testing

@testable import scroll_bench

/// Every option either executable declares is in its `--help` and in docs/command-line.md, so a new flag cannot
/// go undocumented.
// The limit catches a hang, not slowness: it counts from the test's start, so on a busy 2-core machine it
// measures contention (these tests launch the executable, many at once under the parallel runner).
@Suite(.timeLimit(.minutes(10)))
struct OptionDocumentationTests {
    static let document = Result {
        try String(
            contentsOf: ServerProcess.packageRoot.appendingPathComponent("docs/command-line.md"), encoding: .utf8)
    }

    /// Whether `text` names `--name` as a whole word (not `--server` inside `--server-pid`).
    static func mentions(_ text: String, _ name: String, after prefix: String = "") throws -> Bool {
        try Regex("\(prefix)--\(name)(?![A-Za-z0-9-])").firstMatch(in: text) != nil
    }

    /// docs/command-line.md names each as code: `` `--name` ``, `` `--name VALUE` `` or `` `--name=value` ``.
    static func expectInTheDocument(_ names: [String], of program: String) throws {
        let document = try Self.document.get()
        for name in names {
            #expect(
                try mentions(document, name, after: "`"), "docs/command-line.md does not mention \(program)'s --\(name)"
            )
        }
    }

    @Test func serveOptionsAreInItsHelpAndTheCommandLineDocument() throws {
        let help = try runToCompletion(["--help"])
        #expect(help.status == 0)
        let names = PlaygroundCommand.optionNames.serve
        #expect(names.count > 20)
        for name in names {
            #expect(try Self.mentions(help.stdout, name), "scroll-playground --help does not mention --\(name)")
        }
        try Self.expectInTheDocument(names, of: "scroll-playground")
    }

    @Test func replayOptionsAreInItsHelpTheUsageLineAndTheCommandLineDocument() throws {
        let help = try runToCompletion(["replay", "--help"])
        #expect(help.status == 0)
        let usage = try runToCompletion(["--help"]).stdout
        for name in PlaygroundCommand.optionNames.replay {
            #expect(try Self.mentions(help.stdout, name), "replay --help does not mention --\(name)")
            if name != "help" {
                #expect(try Self.mentions(usage, name), "the replay usage line does not mention --\(name)")
            }
        }
        try Self.expectInTheDocument(PlaygroundCommand.optionNames.replay, of: "replay")
    }

    @Test func benchOptionsAreInItsHelpAndTheCommandLineDocument() throws {
        let process = Process()
        process.executableURL = ServerProcess.executable.deletingLastPathComponent().appendingPathComponent(
            "scroll-bench")
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let help = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let names = Array(Set(BenchMode.all.flatMap(\.optionNames))).sorted()
        #expect(names.count > 10)
        for name in names {
            #expect(try Self.mentions(help, name), "scroll-bench --help does not mention --\(name)")
        }
        try Self.expectInTheDocument(names, of: "scroll-bench")
    }
}

import Foundation
import Testing

/// Every command output README.md and docs/ show is the real binary's: each `$ scroll-playground …` line of
/// a `console` block is run, and what it prints must be the lines that follow it, so no output can drift.
/// Timings are the one thing left out (a `check` run's wall time, at the end of its last line).
///
/// After a change that alters an output on purpose, `DOCUMENTED_OUTPUT=write swift test --filter
/// DocumentedOutputTests` writes what the commands print into the documents, to be read and committed.
@Suite(.serialized)
struct DocumentedOutputTests {
    /// One command a document shows, with the output shown under it.
    struct Example: CustomTestStringConvertible, Sendable {
        var file: String
        /// The command's first line, 1-based.
        var line: Int
        var arguments: [String]
        /// The lines of the output (0-based line numbers in the file), and how far the block is indented.
        var outputLines: Range<Int>
        var indent: Int
        var output: String

        var testDescription: String { "\(file):\(line)" }
        var isRun: Bool { arguments.first == "scroll-playground" && !output.isEmpty }
    }

    static let documents = ["README.md", "Examples/README.md"] + documentsIn("docs")
    static let writes = ProcessInfo.processInfo.environment["DOCUMENTED_OUTPUT"] == "write"

    static func documentsIn(_ folder: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: ServerProcess.packageRoot.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
    }

    static func lines(of path: String) -> [String] {
        let text =
            (try? String(contentsOf: ServerProcess.packageRoot.appendingPathComponent(path), encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every command of every `console` block, in document order, with the lines under it up to the next
    /// command. A `\` at a line's end continues the command on the next line. A block indented in a list
    /// item is read without its indentation.
    static func examples(in file: String) -> [Example] {
        let lines = lines(of: file)
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```console" else {
                index += 1
                continue
            }
            let indent = lines[index].prefix { $0 == " " }.count
            func line(_ index: Int) -> String {
                let text = lines[index]
                return text.prefix(indent).allSatisfy { $0 == " " } ? String(text.dropFirst(indent)) : text
            }
            index += 1
            var command: (line: Int, text: String)?
            var outputStart = index
            func finish() {
                if let command {
                    let output = (outputStart..<index).map { line($0) + "\n" }.joined()
                    examples.append(
                        Example(
                            file: file, line: command.line, arguments: words(command.text),
                            outputLines: outputStart..<index, indent: indent, output: output))
                }
            }
            while index < lines.count, !line(index).hasPrefix("```") {
                if line(index).hasPrefix("$ ") {
                    finish()
                    var text = String(line(index).dropFirst(2))
                    let start = index + 1
                    while text.hasSuffix("\\"), index + 1 < lines.count {
                        index += 1
                        text = text.dropLast() + " " + line(index).trimmingCharacters(in: .whitespaces)
                    }
                    command = (start, text)
                    outputStart = index + 1
                }
                index += 1
            }
            finish()
        }
        return examples
    }

    /// A command's words: split at spaces (the documents quote nothing they run).
    static func words(_ command: String) -> [String] {
        command.split(separator: " ").map(String.init)
    }

    static let all = documents.flatMap(examples(in:))

    /// A `check` run ends with its wall time (`…; 10.1 s`): the one figure a document may not reproduce.
    static func withoutTimings(_ text: String) -> String {
        text.replacing(/; \d+(\.\d+)? s\n/, with: "; … s\n")
    }

    /// Runs an example's command in a folder of its own (`--plot`, `check --out` write files) with the
    /// repository's `Examples` beside it, as the documents' relative paths expect.
    static func run(_ example: Example) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "documented-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Examples"),
            withDestinationURL: ServerProcess.packageRoot.appendingPathComponent("Examples"))
        return try runToCompletion(Array(example.arguments.dropFirst()), in: folder, timeout: 600)
    }

    @Test func theDocumentsShowCommands() {
        #expect(Self.all.filter(\.isRun).count >= 10, "examples found: \(Self.all.map(\.testDescription))")
        // Only the playground's own commands are shown with output, so every output shown is checked here.
        let foreign = Self.all.filter { $0.arguments.first != "scroll-playground" && !$0.output.isEmpty }
        #expect(foreign.map(\.testDescription) == [])
        // A command shown in a block of another kind would escape the check.
        for document in Self.documents {
            var fence: String?
            for (number, line) in Self.lines(of: document).enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("```") {
                    fence = fence == nil ? text : nil
                } else if let fence, fence != "```console", text.hasPrefix("$ scroll-playground") {
                    Issue.record("\(document):\(number + 1) shows a command outside a console block")
                }
            }
        }
    }

    @Test(.disabled(if: writes), arguments: all.filter(\.isRun))
    func theDocumentShowsWhatTheCommandPrints(_ example: Example) throws {
        let result = try Self.run(example)
        #expect(result.status == 0, "\(example.testDescription): \(result.stderr)")
        #expect(
            Self.withoutTimings(result.stdout) == Self.withoutTimings(example.output),
            "\(example.testDescription) shows an output the command no longer prints; it prints:\n\(result.stdout)")
    }

    @Test(.enabled(if: writes)) func writeWhatTheCommandsPrint() throws {
        for (file, examples) in Dictionary(grouping: Self.all.filter(\.isRun), by: \.file) {
            var lines = Self.lines(of: file)
            // From the last example up, so the line numbers of those above stay true.
            for example in examples.sorted(by: { $0.line > $1.line }) {
                var printed = try Self.run(example).stdout.split(separator: "\n", omittingEmptySubsequences: false)
                if printed.last == "" { printed.removeLast() }
                lines.replaceSubrange(
                    example.outputLines,
                    with: printed.map { $0.isEmpty ? "" : String(repeating: " ", count: example.indent) + $0 })
            }
            try lines.joined(separator: "\n").write(
                to: ServerProcess.packageRoot.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
    }
}

import Foundation
import Testing

@testable import ScrollCore

/// The tables of the code's own lists in docs/ are made from those lists, row for row and word for word:
/// the event catalog (docs/events.md), the presets (docs/presets.md) and the settings (docs/protocol.md). When one changes, the test fails
/// and prints the table to paste.
struct DocumentTablesTests {
    static func text(_ path: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The first table after the line `heading`: its lines, header included.
    static func table(after heading: String, in document: String) -> String {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)) else { return "" }
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return table.map { $0 + "\n" }.joined()
    }

    /// Every event kind, by category in the catalog's order: its name, category, meaning, and whether the page
    /// marks it as a failure.
    static var eventTable: String {
        var rows = ["| event | category | meaning | failure |", "|---|---|---|---|"]
        for category in EventCategory.allCases {
            for name in EventName.allCases where name.category == category {
                let entry = name.catalogEntry
                rows.append(
                    "| `\(name.rawValue)` | `\(category.rawValue)` | \(entry.meaning) | \(entry.failure ? "yes" : "") |"
                )
            }
        }
        return rows.map { $0 + "\n" }.joined()
    }

    /// Every preset: the design it reproduces and its rule, as `Preset` describes them.
    static var presetTable: String {
        var rows = ["| preset | reproduces | rule |", "|---|---|---|"]
        for preset in Preset.allCases {
            rows.append("| `\(preset.rawValue)` | \(preset.design) | \(preset.rule) |")
        }
        return rows.map { $0 + "\n" }.joined()
    }

    /// A setting's value as the table shows it: names in backticks, numbers as JSON writes them.
    static func shown(_ value: JSONValue) -> String {
        value.string.map { "`\($0)`" } ?? value.jsonString
    }

    /// A setting's default: its description's, or the preset's (the default preset's value, then each other
    /// value with the presets that give it).
    static func defaultText(_ setting: ScrollConfig.Setting) -> String {
        if let value = setting.description.defaultValue { return shown(JSONValue(value)) }
        var values: [(text: String, presets: [String])] = []
        for preset in [Preset.playground] + Preset.allCases.filter({ $0 != .playground }) {
            var config = ScrollConfig()
            config.rules.preset = preset
            let text = shown(config.json[setting.name] ?? .null)
            if let index = values.firstIndex(where: { $0.text == text }) {
                values[index].presets.append("`\(preset.rawValue)`")
            } else {
                values.append((text, ["`\(preset.rawValue)`"]))
            }
        }
        let others = values.dropFirst().map { "\($0.text) for \($0.presets.joined(separator: ", "))" }
        return "the preset's: " + ([values[0].text] + others).joined(separator: "; ")
    }

    /// Every setting as its description says: name, type and unit, range, default, flag, meaning.
    static var settingTable: String {
        var rows = ["| setting | type | range | default | flag | meaning |", "|---|---|---|---|---|---|"]
        for setting in ScrollConfig.settings {
            let description = setting.description
            let unit = description.unit.isEmpty ? "" : " (\(description.unit))"
            let (type, range): (String, String) =
                switch description.kind {
                case .number(let range):
                    ("number", "\(shown(.number(range.lowerBound))) … \(shown(.number(range.upperBound)))")
                case .integer(let range): ("integer", "\(range.lowerBound) … \(range.upperBound)")
                case .choice(let names): ("string", names.map { "`\($0)`" }.joined(separator: ", "))
                case .toggle: ("boolean", "`true`, `false`")
                }
            let flag = setting.notAFlag.map { "none: \($0)" } ?? "`--\(setting.flag)`"
            rows.append(
                "| `\(setting.name)` | \(type)\(unit) | \(range) | \(defaultText(setting)) | \(flag) | \(description.meaning) |"
            )
        }
        return rows.map { $0 + "\n" }.joined()
    }

    @Test func theSettingsTableIsTheDescriptions() {
        let shown = Self.table(after: "## Settings", in: Self.text("docs/protocol.md"))
        #expect(shown == Self.settingTable, "docs/protocol.md's table should read:\n\(Self.settingTable)")
    }

    @Test func theEventTableIsTheCatalog() {
        let shown = Self.table(after: "## Every event", in: Self.text("docs/events.md"))
        #expect(shown == Self.eventTable, "docs/events.md's table should read:\n\(Self.eventTable)")
    }

    /// The documents with a generated table, and every other user's page: a failing run's output pasted with
    /// a table (a line of it stood in docs/protocol.md) is caught here, beyond the table itself.
    static let documents = [
        "README.md", "CHANGELOG.md", "Examples/README.md", "docs/architecture.md", "docs/command-line.md",
        "docs/decisions.md", "docs/events.md", "docs/fidelity.md", "docs/guide.md", "docs/lab.md", "docs/presets.md",
        "docs/protocol.md", "docs/security.md", "docs/swiftui.md", "docs/traces.md",
    ]

    /// The marks Swift Testing and the package manager start their lines with.
    static let runnerMarks = ["✘ ", "✔ ", "◇ ", "↳ ", "Test run with ", "[", "error: ", "warning: "]

    /// Lines outside code blocks that a test runner wrote: none may stand in a document.
    static func runnerLines(in document: String) -> [Substring] {
        var inCode = false
        var found: [Substring] = []
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() }
            // A `[` line is a link reference or the runner's `[12/40] Compiling`: only the latter counts.
            let isRunner = runnerMarks.contains { mark in
                mark == "[" ? isBuildStep(line) : line.hasPrefix(mark)
            }
            if !inCode && isRunner { found.append(line) }
        }
        return found
    }

    /// `[12/40] Compiling …`: a build step's line.
    static func isBuildStep(_ line: Substring) -> Bool {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return false }
        let counts = line[line.index(after: line.startIndex)..<close].split(separator: "/")
        return counts.count == 2 && counts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    @Test func noDocumentHoldsATestRunsOutput() {
        for path in Self.documents {
            let document = Self.text(path)
            #expect(!document.isEmpty, "\(path) is missing")
            #expect(Self.runnerLines(in: document).isEmpty, "\(path) holds a test run's output")
        }
    }

    /// Around a generated table: its heading, prose, the table, a blank line and prose again, so what is pasted
    /// with the table shows as a change to the document, not only to its rows.
    @Test(arguments: [
        ("docs/protocol.md", "## Settings"), ("docs/events.md", "## Every event"),
        ("docs/presets.md", "## Every preset"),
    ])
    func aGeneratedTableStandsAloneBetweenBlankLines(path: String, heading: String) {
        let lines = Self.text(path).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)),
            let first = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("|") })
        else {
            Issue.record("\(path): no table after \(heading)")
            return
        }
        let end = lines[first...].firstIndex { !$0.hasPrefix("|") } ?? lines.endIndex
        #expect(lines[first - 1].isEmpty, "\(path): the line before the table is not blank")
        #expect(end < lines.endIndex && lines[end].isEmpty, "\(path): the line after the table is not blank")
        if end + 1 < lines.endIndex {
            #expect(
                Self.runnerLines(in: String(lines[end + 1])).isEmpty, "\(path): a test run's output follows the table")
        }
    }

    @Test func thePresetTableIsThePresets() {
        let shown = Self.table(after: "## Every preset", in: Self.text("docs/presets.md"))
        #expect(shown == Self.presetTable, "docs/presets.md's table should read:\n\(Self.presetTable)")
    }
}

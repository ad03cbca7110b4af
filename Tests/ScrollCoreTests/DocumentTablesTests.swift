import Foundation
import Testing

@testable import ScrollCore

/// The tables of the code's own lists in docs/ are made from those lists, row for row and word for word:
/// the event catalog (docs/events.md) and the presets (docs/presets.md). When one changes, the test fails
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

    @Test func theEventTableIsTheCatalog() {
        let shown = Self.table(after: "## Every event", in: Self.text("docs/events.md"))
        #expect(shown == Self.eventTable, "docs/events.md's table should read:\n\(Self.eventTable)")
    }

    @Test func thePresetTableIsThePresets() {
        let shown = Self.table(after: "## Every preset", in: Self.text("docs/presets.md"))
        #expect(shown == Self.presetTable, "docs/presets.md's table should read:\n\(Self.presetTable)")
    }
}

import Foundation
import Testing

@testable import ScrollCore

/// The event catalog is the one list of event kinds (issue 21 §2): docs/protocol.md's event table
/// lists exactly its names, each once, a row never mixing categories; `welcome.events` serves it.
struct EventCatalogTests {
    /// What the page's timeline draws, served with the catalog (`welcome.events[].plot`): spans of loads and
    /// refreshes, where each fails, and the marks.
    @Test func theTimelinesPlotsComeWithTheCatalog() {
        var plotted: [EventName: EventPlot] = [:]
        for name in EventName.allCases { plotted[name] = name.catalogEntry.plot }
        #expect(
            plotted == [
                .loadMoreStarted: .loadBegins, .loadMoreFinished: .loadEnds, .loadMoreCancelled: .loadEnds,
                .loadMoreFailed: .loadFails, .refreshStarted: .refreshBegins, .refreshFinished: .refreshEnds,
                .refreshFailed: .refreshFails, .reachedBottom: .bottomReached, .presetDisagreement: .presetsDisagree,
            ])
    }

    static func text(_ path: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The event names of each row of the table under the `Events` heading: the code spans of its first cell.
    static func eventRows(in document: String) -> [[String]] {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == "# Events" || $0 == "## Events" }) else { return [] }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
        return section.filter { $0.hasPrefix("| `") }.map { line in
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            return cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
    }

    static func check(_ path: String) {
        let rows = eventRows(in: text(path))
        #expect(!rows.isEmpty, "\(path) has an event table")
        let names = rows.flatMap { $0 }
        let known = Set(EventName.allCases.map(\.rawValue))
        #expect(names.filter { !known.contains($0) } == [], "\(path) names events the catalog does not have")
        #expect(EventName.allCases.map(\.rawValue).filter { !names.contains($0) } == [], "\(path) leaves out")
        #expect(Dictionary(grouping: names) { $0 }.filter { $0.value.count > 1 }.keys.sorted() == [], "\(path) twice")
        for row in rows {
            let categories = Set(row.compactMap { EventName(rawValue: $0)?.category })
            #expect(categories.count <= 1, "\(path): the row \(row) mixes categories \(categories)")
        }
    }

    @Test func theProtocolsEventTableIsTheCatalog() {
        Self.check("docs/protocol.md")
    }

    @Test func everyCategoryIsDocumentedInTheProtocol() {
        let protocolText = Self.text("docs/protocol.md")
        #expect(EventCategory.allCases.filter { !protocolText.contains("`\($0.rawValue)`") } == [])
    }

    @Test func everyEventHasAOneLineMeaning() {
        for name in EventName.allCases {
            #expect(!name.meaning.isEmpty && !name.meaning.contains("\n") && name.meaning.count <= 100, "\(name)")
        }
        // Every category has its events.
        #expect(Set(EventName.allCases.map(\.category)) == Set(EventCategory.allCases))
    }

    @Test func theWelcomeServesTheCatalogInOrder() throws {
        let welcome = try foundationJSON(
            ServerMessage.welcome(session: "s1", resume: "t", config: ScrollConfig()).encoded())
        let events = try #require(welcome["events"]?.array)
        #expect(events.map { $0["name"]?.string } == EventName.allCases.map(\.rawValue))
        #expect(events.map { $0["category"]?.string } == EventName.allCases.map(\.category.rawValue))
        #expect(events.map { $0["meaning"]?.string } == EventName.allCases.map(\.meaning))
        #expect(events.first { $0["name"] == "loadMoreFailed" }?["failure"] == true)
        #expect(events.first { $0["name"] == "anchorKept" }?["category"] == "anchor")
    }
}

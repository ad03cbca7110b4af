import Foundation
import Testing

@testable import ScrollCore

/// The session logs each of its controller's decisions as the event the decision's `description` names,
/// with the same fields: an app that logs the decisions reads the playground's log (docs/swiftui.md).
struct FeedDecisionLogTests {
    /// One of each decision, at either edge where the edge names the event.
    static let samples: [FeedDecision] = [
        .loadStarted(.bottom, trigger: .bottom), .loadStarted(.top, trigger: .pull),
        .retryStarted(.bottom, trigger: .retry, attempt: 3, perSecond: 2, retry: 2),
        .retryStarted(.top, trigger: .manual, attempt: 2, perSecond: 1, retry: nil),
        .loadSuppressed(.bottom, trigger: .bottom, reason: .loadInFlight),
        .loadSuppressed(.top, trigger: .top, reason: .refreshing),
        .loadSuppressed(.bottom, trigger: .manual, reason: .retryScheduled),
        .loadSuppressed(.bottom, trigger: .bottom, reason: .gaveUp),
        .ruleHeld(.bottom), .exhausted(.bottom), .exhausted(.top),
        .loadIgnored(.bottom, trigger: .manual), .loadIgnored(.top, trigger: .manual),
        .loadCancelled(.bottom, reason: .refreshStarted), .loadCancelled(.top, reason: .reset),
        .retryScheduled(.bottom, retry: 1, delayMs: 750, failures: 1),
        .retryScheduled(.top, retry: 2, delayMs: 1500, failures: 2),
        .retryCancelled(.bottom, retry: 1, reason: .manualLoad),
        .retryCancelled(.top, retry: 3, reason: .retryPolicyChanged),
        .gaveUp(.bottom, failures: 6, retries: 5), .gaveUp(.top, failures: 4, retries: 3),
        .refreshStarted(trigger: .manual), .holdStarted(ms: 2000), .refreshYielded(trigger: .pull),
        .refreshIgnored(trigger: .manual), .refreshCancelled, .holdCancelled, .returnedToOrigin, .followsArrivals,
    ]

    /// The decision's case, as docs/swiftui.md's table names it (a new case fails to compile here until it
    /// has a name, and a sample above).
    static func caseName(_ decision: FeedDecision) -> String {
        switch decision {
        case .loadStarted: "loadStarted"
        case .retryStarted: "retryStarted"
        case .loadSuppressed: "loadSuppressed"
        case .ruleHeld: "ruleHeld"
        case .exhausted: "exhausted"
        case .loadIgnored: "loadIgnored"
        case .loadCancelled: "loadCancelled"
        case .retryScheduled: "retryScheduled"
        case .retryCancelled: "retryCancelled"
        case .gaveUp: "gaveUp"
        case .refreshStarted: "refreshStarted"
        case .holdStarted: "holdStarted"
        case .refreshYielded: "refreshYielded"
        case .refreshIgnored: "refreshIgnored"
        case .refreshCancelled: "refreshCancelled"
        case .holdCancelled: "holdCancelled"
        case .returnedToOrigin: "returnedToOrigin"
        case .followsArrivals: "followsArrivals"
        }
    }

    /// The event name and fields a decision's description gives: `name(key: value, …)`.
    static func parse(_ description: String) -> (name: String, fields: [String: String]) {
        guard let open = description.firstIndex(of: "(") else { return (description, [:]) }
        let inner = description[description.index(after: open)..<description.index(before: description.endIndex)]
        var fields: [String: String] = [:]
        for pair in inner.components(separatedBy: ", ") {
            let parts = pair.components(separatedBy: ": ")
            guard parts.count == 2 else {
                Issue.record("not a field: \(pair) in \(description)")
                continue
            }
            fields[parts[0]] = parts[1]
        }
        return (String(description[..<open]), fields)
    }

    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number): String(Int(number))
        default: nil
        }
    }

    @Test(arguments: samples)
    func theSessionLogsADecisionAsItsDescriptionSays(_ decision: FeedDecision) {
        var h = Harness(["startAt": 40])
        var effects: [SessionEffect] = []
        h.session.carryOut([decision], geometrySeq: nil, into: &effects)
        switch decision {
        case .ruleHeld, .holdStarted, .refreshCancelled, .holdCancelled, .followsArrivals:
            // No event of its own: a timer, a command, or (a rule held for a jump) the jump's suppression.
            #expect(effects.logs.isEmpty)
        default:
            let (name, fields) = Self.parse(decision.description)
            #expect(effects.logs.map(\.name.rawValue) == [name])
            for (key, value) in fields {
                #expect(Self.text(effects.logs.first?.data[key]) == value, "\(name).\(key)")
            }
        }
    }

    /// docs/swiftui.md's table names each decision's event and action.
    @Test func theGuideTablesEveryDecision() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/swiftui.md"), encoding: .utf8)
        // A row: | the decisions | their reasons | the events the playground logs | the actions |
        let rows = guide.split(separator: "\n").filter { $0.hasPrefix("| `") }.map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        for decision in Self.samples {
            let caseName = Self.caseName(decision)
            let row = rows.first { $0[0].contains("`\(caseName)(") || $0[0].contains("`\(caseName)`") }
            #expect(row != nil, "no row for \(caseName)")
            guard let row, row.count == 4 else { continue }
            // The table names the bottom edge's events; the top's differ by their prefix.
            let event = String(decision.description.prefix { $0 != "(" })
                .replacingOccurrences(of: "loadPrevious", with: "loadMore")
            if !["ruleHeld", "holdStarted", "refreshCancelled", "holdCancelled"].contains(caseName) {
                #expect(row[2].contains("`\(event)`"), "\(caseName): \(event)")
            }
            guard let action = decision.action else { continue }
            let actionName = String(String(describing: action).prefix { $0 != "(" })
            #expect(row[3].contains("`\(actionName)"), "\(caseName): \(actionName)")
        }
    }
}

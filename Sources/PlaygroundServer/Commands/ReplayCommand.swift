import CommandLineOptions
import Foundation
import ScrollCore

/// `scroll-playground replay`: runs recorded sessions through ScrollCore and prints the decisions.
public struct ReplayCommand: Sendable {
    /// What to print.
    public enum Mode: Sendable {
        /// Every decision.
        case decisions
        /// Only the decisions that differ from the recorded ones.
        case diff
        /// Every preset side by side, where they disagree.
        case compare
        /// A markdown table: what each preset does with each trace.
        case summary
    }

    public var traces: [String]
    public var overrides: [String: JSONValue] = [:]
    public var mode = Mode.decisions
    public var format = LogFormat.text
    /// `--max-trace-bytes`.
    public var maxTraceBytes = TraceInput.defaultMaxBytes

    /// Reads the traces and renders the report; errors name the file and line.
    public func run() throws(UsageError) -> String {
        do {
            try Replay(overrides: overrides).validate()
        } catch {
            throw UsageError("replay: \(error)")
        }
        var loaded: [(path: String, trace: Trace)] = []
        for path in traces {
            let data = try TraceInput.read(path, maxBytes: maxTraceBytes, command: "replay")
            let text = String(decoding: data, as: UTF8.self)
            let trace: Trace
            do {
                trace = try Trace.parse(bytes: data)
            } catch {
                if Self.isEventExport(text) {
                    throw UsageError(
                        "replay: \(path): this is the page's event export (Export events), not a trace: "
                            + "use Download trace in the log panel (the server needs --log-dir) or GET /api/sessions/ID/trace"
                    )
                }
                throw UsageError("replay: \(path): \(error)")
            }
            if let line = trace.tornFinalLine {
                StandardError.writeLine(
                    "replay: \(path): ignored line \(line), the last, cut off mid-write (the recording server stopped abruptly)"
                )
            }
            loaded.append((path, trace))
        }
        switch mode {
        case .summary:
            return ReplayReport.summary(
                loaded.map { (name: ($0.path as NSString).lastPathComponent, trace: $0.trace) }, overrides: overrides)
        case .decisions:
            let trace = loaded[0].trace
            return ReplayReport.decisions(
                ReplayReport.fromSessionStart(Replay(overrides: overrides).run(trace), of: trace),
                session: trace.header.session, format: format)
        case .diff:
            let trace = loaded[0].trace
            return ReplayReport.diff(
                recorded: ReplayReport.fromSessionStart(trace.recordedDecisions, of: trace),
                replayed: ReplayReport.fromSessionStart(Replay(overrides: overrides).run(trace), of: trace),
                format: format)
        case .compare:
            return ReplayReport.compare(loaded[0].trace, overrides: overrides, format: format)
        }
    }
}

extension ReplayCommand {
    /// Whether the text is the log panel's event export: event records (`seq`, `name`, `time`), no trace lines.
    static func isEventExport(_ text: String) -> Bool {
        guard let first = text.split(separator: "\n").first,
            let record = try? JSONParser.parse(String(first)).object
        else { return false }
        return record["kind"] == nil && record["name"]?.string != nil && record["seq"] != nil && record["time"] != nil
    }
}

/// Renders replay results as text or JSON lines.
enum ReplayReport {
    static func decisions(_ decisions: [TimedDecision], session: String, format: LogFormat) -> String {
        decisions.map { line(for: $0, session: session, format: format) }.joined(separator: "\n")
    }

    static func line(for decision: TimedDecision, session: String, format: LogFormat, prefix: String = "") -> String {
        switch format {
        case .text:
            return prefix
                + TextLogFormatter.line(time: milliseconds(decision.t), session: session, entry: decision.entry)
        case .json:
            return decisionJSON(
                decision, extra: prefix.isEmpty ? [:] : ["change": .string(prefix == "- " ? "removed" : "added")]
            )
            .jsonString
        }
    }

    static func decisionJSON(_ decision: TimedDecision, extra: [String: JSONValue] = [:]) -> JSONValue {
        var members = extra
        members["t"] = .int(Int(decision.t))
        members["name"] = .string(decision.entry.name.rawValue)
        if let geometrySeq = decision.entry.geometrySeq { members["geometrySeq"] = .int(geometrySeq) }
        members["data"] = .object(decision.entry.data)
        return .object(members)
    }

    /// When the session started on the server's clock: its first recorded line (the page's `hello`).
    /// A trace's `t` counts from the server's start, which says nothing to someone reading one session.
    static func sessionStart(of trace: Trace) -> Int64 {
        trace.lines.first?.t ?? 0
    }

    /// The decisions with their times counted from the session's start.
    static func fromSessionStart(_ decisions: [TimedDecision], of trace: Trace) -> [TimedDecision] {
        let start = sessionStart(of: trace)
        return decisions.map { TimedDecision(t: $0.t - start, entry: $0.entry) }
    }

    /// `12.345s` for 12345 ms, fixed width so columns line up.
    static func milliseconds(_ t: Int64) -> String {
        // The reader keeps `t` from going back, so a span is never negative; a sign is written if one is.
        let whole = t.magnitude
        let fraction = String(whole % 1000)
        let text =
            "\(t < 0 ? "-" : "")\(whole / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    static func diff(recorded: [TimedDecision], replayed: [TimedDecision], format: LogFormat) -> String {
        let difference = replayed.map(\.entry).difference(from: recorded.map(\.entry))
        guard !difference.isEmpty else {
            return format == .json ? "" : "no differences: \(recorded.count) decisions match"
        }
        var changes: [(position: Int, order: Int, text: String)] = []
        for change in difference {
            switch change {
            case .remove(let offset, _, _):
                changes.append(
                    (offset, 0, line(for: recorded[offset], session: "recorded", format: format, prefix: "- ")))
            case .insert(let offset, _, _):
                changes.append(
                    (offset, 1, line(for: replayed[offset], session: "replayed", format: format, prefix: "+ ")))
            }
        }
        return changes.sorted { ($0.position, $0.order) < ($1.position, $1.order) }.map(\.text).joined(separator: "\n")
    }

    /// The decisions that say what a preset did with a gesture.
    static let comparedNames: [EventName: String] = [
        .reachedBottom: "bottom", .leftBottom: "left", .loadMoreStarted: "load", .loadMoreSuppressed: "suppressed",
        .feedExhausted: "exhausted", .pullStarted: "pull", .refreshEligible: "armed", .refreshStarted: "refresh",
        .scrollToTop: "toTop",
    ]

    static func compare(_ trace: Trace, overrides: [String: JSONValue], format: LogFormat) -> String {
        let presets = Preset.allCases
        var byGeometry: [Int: [Preset: [String]]] = [:]
        var times: [Int: Int64] = [:]
        var totals: [Preset: (loads: Int, refreshes: Int)] = [:]
        for preset in presets {
            var forced = overrides
            forced["preset"] = .string(preset.rawValue)
            var loads = 0
            var refreshes = 0
            for decision in Replay(overrides: forced).run(trace) {
                if decision.entry.name == .loadMoreStarted { loads += 1 }
                if decision.entry.name == .refreshStarted { refreshes += 1 }
                guard let seq = decision.entry.geometrySeq, let label = comparedNames[decision.entry.name] else {
                    continue
                }
                byGeometry[seq, default: [:]][preset, default: []].append(label)
                times[seq] = min(times[seq] ?? .max, decision.t - sessionStart(of: trace))
            }
            totals[preset] = (loads, refreshes)
        }
        let rows = byGeometry.keys.sorted().filter { seq in
            Set(presets.map { byGeometry[seq]?[$0] ?? [] }).count > 1
        }
        if format == .json {
            let rowValues: [JSONValue] = rows.map { seq in
                var cells: [String: JSONValue] = [:]
                for preset in presets {
                    cells[preset.rawValue] = .array((byGeometry[seq]?[preset] ?? []).map { .string($0) })
                }
                return ["geometrySeq": .int(seq), "t": .int(Int(times[seq] ?? 0)), "presets": .object(cells)]
            }
            var totalValues: [String: JSONValue] = [:]
            for preset in presets {
                totalValues[preset.rawValue] = [
                    "loads": .int(totals[preset]!.loads), "refreshes": .int(totals[preset]!.refreshes),
                ]
            }
            return JSONValue.object(["disagreements": .array(rowValues), "totals": .object(totalValues)]).jsonString
        }
        var table: [[String]] = [["geometry", "time"] + presets.map(\.rawValue)]
        for seq in rows {
            table.append(
                ["#\(seq)", milliseconds(times[seq] ?? 0).trimmingCharacters(in: .whitespaces)]
                    + presets.map { (byGeometry[seq]?[$0] ?? []).joined(separator: ",").ifEmpty("·") })
        }
        table.append(["total", ""] + presets.map { "\(totals[$0]!.loads) loads, \(totals[$0]!.refreshes) refr." })
        let heading =
            rows.isEmpty
            ? "The presets agree on every geometry of this trace."
            : "Where the presets disagree (\(rows.count) geometries):"
        return heading + "\n" + render(table)
    }

    /// Aligns a table's columns with two spaces between them.
    static func render(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
                separator: "  "
            )
            .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    static func summary(_ traces: [(name: String, trace: Trace)], overrides: [String: JSONValue]) -> String {
        var lines = ["| trace | " + Preset.allCases.map { "`\($0.rawValue)`" }.joined(separator: " | ") + " |"]
        lines.append("|---|" + String(repeating: "---|", count: Preset.allCases.count))
        for (name, trace) in traces {
            let cells = Preset.allCases.map { preset -> String in
                var forced = overrides
                forced["preset"] = .string(preset.rawValue)
                let names = Replay(overrides: forced).run(trace).map(\.entry.name)
                var parts = [
                    plural(names.count { $0 == .loadMoreStarted }, "load"),
                    plural(names.count { $0 == .refreshStarted }, "refresh"),
                ]
                let suppressed = names.count { $0 == .loadMoreSuppressed }
                if suppressed > 0 { parts.append("\(suppressed) suppressed") }
                let failed = names.count { $0 == .loadMoreFailed }
                if failed > 0 { parts.append("\(failed) failed") }
                let retried = names.count { $0 == .loadMoreRetryStarted }
                if retried > 0 { parts.append(retried == 1 ? "1 retry" : "\(retried) retries") }
                if names.contains(.loadMoreGaveUp) { parts.append("gave up") }
                if names.contains(.loadMoreCancelled) { parts.append("load cancelled") }
                if names.contains(.scrollToTop) { parts.append("scrollToTop") }
                return parts.joined(separator: ", ")
            }
            lines.append("| `\(name)` | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : (noun.hasSuffix("h") ? "es" : "s"))"
    }
}

extension String {
    fileprivate func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}

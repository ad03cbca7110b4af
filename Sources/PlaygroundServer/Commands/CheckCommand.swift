import CommandLineOptions
import Dispatch
import Foundation
import ScrollCore
import ScrollLab

/// How `check` prints its report.
public enum CheckFormat: String, CaseIterable, Sendable {
    /// A table of preset × property and the findings.
    case text
    /// One JSON object.
    case json
}

/// `scroll-playground check`: property-based checking of every preset.
public struct CheckCommand: Sendable {
    public var seconds = 60.0
    public var seed = 1
    public var scenarios = 300
    public var preset: Preset?
    public var outDirectory = "logs/check-traces"
    public var format = CheckFormat.text
    public var threads: Int?
    /// How the simulated page scrolls (`--set physics=`).
    public var physics = ScrollConfig().physics
    /// How its list reports the content size (`--set contentSize=`).
    public var contentSize = ScrollConfig().contentSize
    /// `--gestures DIR`: every trace there gives its hand to the scenarios.
    public var gestureDirectory: String?
    /// `--max-trace-bytes`, for each trace of ``gestureDirectory``.
    public var maxTraceBytes = TraceInput.defaultMaxBytes

    public init() {}

    /// The settings `check --set` takes: the page's, which the generated scenarios do not vary.
    public static let settableKeys = ["physics", "contentSize"]

    /// Sets one of ``settableKeys`` from its text.
    public mutating func set(key: String, text: String) throws(LabError) {
        switch key {
        case "physics":
            guard let value = ScrollPhysics(rawValue: text) else {
                throw .badValue(
                    key: key, reason: "must be one of \(ScrollPhysics.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            physics = value
        case "contentSize":
            guard let value = ContentSizeModel(rawValue: text) else {
                throw .badValue(
                    key: key,
                    reason: "must be one of \(ContentSizeModel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            contentSize = value
        default:
            throw .unknownKey(key, accepted: Self.settableKeys)
        }
    }

    /// The most traces `--gestures` reads.
    public static let handLimit = 1000

    /// The hands of the traces (`*.jsonl`) in `directory`, by file name, as scenarios.
    static func hands(in directory: String, maxTraceBytes: Int) throws(UsageError) -> [Scenario] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), !isFolder.boolValue {
            throw UsageError(
                "check: --gestures \(directory): a file, not a folder of traces (one trace: simulate --gesture trace:\(directory))"
            )
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }
                .sorted()
        } catch {
            throw UsageError("check: --gestures \(directory): cannot read it: \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw UsageError("check: --gestures \(directory): no .jsonl traces there") }
        guard names.count <= handLimit else {
            throw UsageError("check: --gestures \(directory): \(names.count) traces, more than \(handLimit)")
        }
        var scenarios: [Scenario] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            let data = try TraceInput.read(path, maxBytes: maxTraceBytes, command: "check: --gestures")
            do {
                let trace = try Trace.parse(bytes: data)
                scenarios.append(Scenario(hand: try RecordedHand(trace: trace)))
            } catch let error as TraceError {
                throw UsageError("check: --gestures: \(path): \(error)")
            } catch {
                throw UsageError("check: --gestures: \(path): \(error)")
            }
        }
        return scenarios
    }

    /// What the run found and its report.
    public struct Outcome: Sendable {
        public var results: [Checker.PresetResult]
        public var report: String
    }

    /// Runs the check, writes each minimal trace to ``outDirectory`` and renders the report.
    public func run(reducer: @escaping LabReducer = LabSession.scrollCore) throws(UsageError) -> Outcome {
        let started = DispatchTime.now().uptimeNanoseconds
        let budget = UInt64(seconds * 1e9)
        var checker = Checker(
            seed: UInt64(seed), scenarios: scenarios, presets: preset.map { [$0] } ?? Preset.allCases,
            reducer: reducer,
            fixed: ["physics": .string(physics.rawValue), "contentSize": .string(contentSize.rawValue)])
        if let gestureDirectory { checker.hands = try Self.hands(in: gestureDirectory, maxTraceBytes: maxTraceBytes) }
        let results = checker.run(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount) {
            DispatchTime.now().uptimeNanoseconds - started > budget
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let page = "physics \(physics.rawValue), contentSize \(contentSize.rawValue)"
        var paths: [String: String] = [:]
        let findings = results.flatMap(\.findings)
        if !findings.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: outDirectory, withIntermediateDirectories: true)
                for finding in findings {
                    let path = (outDirectory as NSString).appendingPathComponent(
                        "\(finding.preset.rawValue)-\(finding.property.rawValue).jsonl")
                    try Data(Self.file(finding, seed: seed).utf8).write(to: URL(fileURLWithPath: path))
                    paths[Self.key(finding)] = path
                }
            } catch {
                throw UsageError("check: cannot write to \(outDirectory): \(error.localizedDescription)")
            }
        }
        let report =
            format == .json
            ? Self.json(results, paths: paths, seed: seed, seconds: elapsed, page: page).jsonString
            : Self.text(results, paths: paths, seed: seed, seconds: elapsed, page: page)
        return Outcome(results: results, report: report)
    }

    private static func key(_ finding: Checker.Finding) -> String {
        "\(finding.preset.rawValue)/\(finding.property.rawValue)"
    }

    /// The trace file: its header names the finding, then the lines `replay` runs.
    static func file(_ finding: Checker.Finding, seed: Int) -> String {
        let check: JSONValue = [
            "property": .string(finding.property.rawValue), "violation": .string(finding.violation.detail),
            "scenario": .string(finding.scenario.description), "frames": .int(finding.frames),
            "seed": .int(seed),
        ]
        return String(decoding: finding.trace.fileBytes(headerAdding: ["check": check]), as: UTF8.self)
    }

    static func text(
        _ results: [Checker.PresetResult], paths: [String: String], seed: Int, seconds: Double, page: String
    ) -> String {
        var rows = [["preset"] + Property.allCases.map(\.heading)]
        var notes: [String] = []
        for result in results {
            var row = [result.preset.rawValue]
            for property in Property.allCases {
                switch result.outcome(property) {
                case .pass: row.append("pass")
                case .notApplicable: row.append("n/a")
                case .fail:
                    notes.append("")
                    row.append("FAIL [\(notes.count)]")
                    let finding = result.findings.first { $0.property == property }!
                    notes[notes.count - 1] =
                        "[\(notes.count)] \(result.preset.rawValue) \(property.rawValue): \(finding.violation.detail)\n"
                        + "    \(finding.scenario) — \(finding.frames) frames\n    \(paths[key(finding)] ?? "")"
                }
            }
            rows.append(row)
        }
        let counts = results.map { "\($0.preset.rawValue) \($0.scenarios)" }.joined(separator: ", ")
        return LabFormat.align(rows) + "\n\n" + (notes.isEmpty ? "" : notes.joined(separator: "\n") + "\n\n")
            + "seed \(seed); \(page); scenarios per preset: \(counts); \(LabFormat.number((seconds * 10).rounded() / 10)) s"
    }

    static func json(
        _ results: [Checker.PresetResult], paths: [String: String], seed: Int, seconds: Double, page: String
    ) -> JSONValue {
        .object([
            "seed": .int(seed), "seconds": .number((seconds * 10).rounded() / 10), "page": .string(page),
            "presets": .array(
                results.map { result in
                    var properties: [String: JSONValue] = [:]
                    for property in Property.allCases {
                        var cell: [String: JSONValue] = ["outcome": .string(result.outcome(property).rawValue)]
                        if let finding = result.findings.first(where: { $0.property == property }) {
                            cell["violation"] = .string(finding.violation.detail)
                            cell["scenario"] = .string(finding.scenario.description)
                            cell["frames"] = .int(finding.frames)
                            cell["trace"] = .string(paths[key(finding)] ?? "")
                        }
                        properties[property.rawValue] = .object(cell)
                    }
                    return [
                        "preset": .string(result.preset.rawValue), "scenarios": .int(result.scenarios),
                        "properties": .object(properties),
                    ]
                }),
        ])
    }
}

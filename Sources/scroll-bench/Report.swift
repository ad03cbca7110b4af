import Foundation
import ScrollCore

/// One measured figure of a run.
struct Metric {
    /// How a value is shown.
    enum Unit {
        case count, ratio, perSecond, milliseconds, microseconds, kibibytes, mebibytes, percent, seconds
    }

    /// The JSON name, e.g. `roundTripP99Ms`.
    let key: String
    /// The table's label.
    let label: String
    let unit: Unit
    /// nil when not measured (e.g. server CPU for a server the bench does not know the pid of), or,
    /// for a latency with `beyond` set, when it falls among requests never answered.
    let value: Double?
    /// What a nil value means for a latency percentile: slower than this (e.g. `> 3 s`).
    let beyond: String?

    init(_ key: String, _ label: String, _ unit: Unit, _ value: Double?, beyond: String? = nil) {
        self.key = key
        self.label = label
        self.unit = unit
        self.value = value
        self.beyond = beyond
    }

    /// The value a summary works with: an unanswered percentile is +∞ (worse than any), a value not
    /// measured is left out.
    var summarizable: Double? {
        value ?? (beyond != nil ? .infinity : nil)
    }

    func formatted(_ value: Double?) -> String {
        if value == .infinity, let beyond { return beyond }
        guard let value, value.isFinite else { return beyond ?? "n/a" }
        switch unit {
        // Held within Int's range: a measured rate past 9e18 would trap in Int(_:).
        case .count: return grouped(value.rounded().clampedInteger(in: Int.min...Int.max))
        case .ratio: return decimal(value, significant: 3) + "×"
        case .perSecond: return grouped(value.rounded().clampedInteger(in: Int.min...Int.max)) + " /s"
        case .milliseconds: return decimal(value, significant: 3) + " ms"
        case .microseconds: return decimal(value, significant: 3) + " µs"
        case .kibibytes: return decimal(value, significant: 3) + " KiB"
        case .mebibytes: return decimal(value, significant: 4) + " MiB"
        case .percent: return decimal(value, significant: 3) + " %"
        case .seconds: return decimal(value, significant: 3) + " s"
        }
    }
}

/// Groups thousands: `60012` → `60,012`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return value < 0 ? "-" + result : result
}

/// At least `significant` significant digits, never fewer than 0 or more than 3 decimals.
func decimal(_ value: Double, significant: Int) -> String {
    let magnitude = abs(value)
    var decimals = 0
    if magnitude > 0 {
        decimals = max(0, min(3, significant - 1 - Int(log10(magnitude).rounded(.down))))
    }
    return String(format: "%.\(decimals)f", value)
}

/// The result of one run: a title line, notes, then metrics in table order.
struct RunReport {
    var mode: String
    var title: String
    var notes: [String] = []
    /// Notes about what went wrong in this run; a multi-run table shows each distinct one once.
    var warnings: [String] = []
    var metrics: [Metric] = []
    /// Extra text fields for JSON (e.g. error codes).
    var details: [String: JSONValue] = [:]

    mutating func add(_ key: String, _ label: String, _ unit: Metric.Unit, _ value: Double?, beyond: String? = nil) {
        metrics.append(Metric(key, label, unit, value, beyond: beyond))
    }
}

/// Prints one or several runs of the same mode: a single run as `label value`, several as
/// `label median (min – max)`.
enum ReportPrinter {
    static func printTable(_ runs: [RunReport]) {
        guard let first = runs.first else { return }
        print(first.title)
        for note in first.notes { print("  " + note) }
        var warnings: [String] = []
        for run in runs { for warning in run.warnings where !warnings.contains(warning) { warnings.append(warning) } }
        for warning in warnings { print("  ! " + warning) }
        let width = max(40, (first.metrics.map(\.label.count).max() ?? 0) + 2)
        if runs.count == 1 {
            for metric in first.metrics {
                print(
                    "  " + metric.label.padding(toLength: width, withPad: " ", startingAt: 0)
                        + metric.formatted(metric.value))
            }
            return
        }
        print(
            "  " + "".padding(toLength: width, withPad: " ", startingAt: 0)
                + "median of \(runs.count) runs   (min – max)")
        for (index, metric) in first.metrics.enumerated() {
            let values = runs.compactMap { $0.metrics.count > index ? $0.metrics[index].summarizable : nil }
            let summary = Summary(values)
            let median = metric.formatted(summary?.median)
            let range = summary.map { "(\(metric.formatted($0.min)) – \(metric.formatted($0.max)))" } ?? ""
            print(
                "  " + metric.label.padding(toLength: width, withPad: " ", startingAt: 0)
                    + median.padding(toLength: max(18, median.count + 2), withPad: " ", startingAt: 0) + range)
        }
    }

    static func printJSON(_ runs: [RunReport]) {
        guard let first = runs.first else { return }
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.key("mode")
        writer.string(first.mode)
        writer.key("title")
        writer.string(first.title)
        writer.key("notes")
        writer.beginArray()
        for note in first.notes { writer.string(note) }
        writer.endArray()
        writer.key("runs")
        writer.beginArray()
        for run in runs {
            writer.beginObject()
            writer.key("warnings")
            writer.beginArray()
            for warning in run.warnings { writer.string(warning) }
            writer.endArray()
            for metric in run.metrics {
                writer.key(metric.key)
                if let value = metric.value, value.isFinite { writer.number(value) } else { writer.null() }
            }
            for (name, value) in run.details.sorted(by: { $0.key < $1.key }) {
                writer.key(name)
                writer.value(value)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.key("summary")
        writer.beginObject()
        for (index, metric) in first.metrics.enumerated() {
            writer.key(metric.key)
            let values = runs.compactMap { $0.metrics.count > index ? $0.metrics[index].summarizable : nil }
            if let summary = Summary(values) {
                // +∞ (a percentile among unanswered requests) is written as null.
                func number(_ value: Double) {
                    if value.isFinite { writer.number(value) } else { writer.null() }
                }
                writer.beginObject()
                writer.key("median")
                number(summary.median)
                writer.key("min")
                number(summary.min)
                writer.key("max")
                number(summary.max)
                writer.endObject()
            } else {
                writer.null()
            }
        }
        writer.endObject()
        writer.endObject()
        print(String(decoding: writer.bytes, as: UTF8.self))
    }
}

/// Median, minimum and maximum of some values.
struct Summary {
    let median: Double
    let min: Double
    let max: Double

    /// nil without values; +∞ values (unanswered) sort last.
    init?(_ values: [Double]) {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2  // +∞ stays +∞
        min = sorted[0]
        max = sorted[sorted.count - 1]
    }
}

/// Nearest-rank percentiles of samples, sorted once. Requests that were never answered count as
/// slower than every sample (`censored`): a percentile that falls among them has no value.
struct Percentiles {
    private let sorted: [UInt64]
    private let censored: Int

    init(_ samples: [UInt64], censored: Int = 0) {
        sorted = samples.sorted()
        self.censored = max(0, censored)
    }

    var count: Int { sorted.count }

    /// The `p`-th percentile (0…100); nil without samples, or when it falls among the unanswered.
    func value(_ p: Double) -> UInt64? {
        let total = sorted.count + censored
        guard total > 0 else { return nil }
        let rank = Swift.max(1, Int((p / 100 * Double(total)).rounded(.up)))
        guard rank <= sorted.count else { return nil }
        return sorted[rank - 1]
    }

    /// The percentile in milliseconds.
    func milliseconds(_ p: Double) -> Double? {
        value(p).map { Double($0) / 1e6 }
    }
}

import ScrollCore

/// What a sweep measured: one row per grid point, each the mean over its runs.
public struct SweepResult: Equatable, Sendable {
    /// A grid point and its runs.
    public struct Row: Equatable, Sendable {
        /// The swept keys' values, in key order.
        public var values: [String]
        public var runs: [SimulationReport]

        public init(values: [String], runs: [SimulationReport]) {
            self.values = values
            self.runs = runs
        }

        /// Each metric's mean over the runs, in ``SimulationReport/metrics`` order.
        public var metrics: [(name: String, value: Double)] {
            let all = runs.map(\.metrics)
            return all[0].indices.map { index in
                (all[0][index].name, all.reduce(0) { $0 + $1[index].value } / Double(all.count))
            }
        }

        /// One metric's mean.
        public func metric(_ name: String) -> Double? { metrics.first { $0.name == name }?.value }
    }

    public var keys: [String]
    public var rows: [Row]

    public init(keys: [String], rows: [Row]) {
        self.keys = keys
        self.rows = rows
    }

    /// The columns of the text table (CSV and JSON carry every metric).
    public static let tableMetrics = [
        "stallTotalMs", "stallP95Ms", "started", "suppressed", "cancelled", "failed", "duplicated", "pagesNeverSeen",
        "refreshesPerPull", "pullsWithoutRefresh", "peakDOMItems",
    ]

    /// An aligned text table.
    public func table() -> String {
        var lines = [keys + Self.tableMetrics]
        for row in rows {
            lines.append(row.values + Self.tableMetrics.map { LabFormat.number(row.metric($0) ?? 0) })
        }
        return LabFormat.align(lines)
    }

    /// CSV with a header line, every metric.
    public func csv() -> String {
        let names = rows.first?.metrics.map(\.name) ?? []
        var lines = [(keys + names).joined(separator: ",")]
        for row in rows {
            lines.append(
                (row.values.map(LabFormat.csvField) + row.metrics.map { LabFormat.number($0.value) }).joined(
                    separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object: the keys and, per point, its settings and metrics.
    public func json() -> JSONValue {
        .object([
            "keys": .array(keys.map { .string($0) }),
            "points": .array(
                rows.map { row in
                    .object([
                        "settings": .object(
                            Dictionary(uniqueKeysWithValues: zip(keys, row.values.map(LabFormat.value)))),
                        "metrics": .object(
                            Dictionary(uniqueKeysWithValues: row.metrics.map { ($0.name, .number($0.value)) })),
                        "runs": .int(row.runs.count),
                    ])
                }),
        ])
    }
}

extension SimulationReport {
    /// The report as `name value` lines.
    public func text() -> String {
        LabFormat.align(metrics.map { [$0.name, LabFormat.number($0.value)] })
    }

    /// The report as one JSON object.
    public func json() -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: metrics.map { ($0.name, .number($0.value)) }))
    }

    /// The report as a CSV header and one line.
    public func csv() -> String {
        metrics.map(\.name).joined(separator: ",") + "\n"
            + metrics.map { LabFormat.number($0.value) }.joined(separator: ",")
    }
}

extension LabFormat {
    /// Columns padded to their widest cell, two spaces apart.
    public static func align(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == 0 ? "" : "  "
                line += cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// A CSV field, quoted when it must be.
    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + text.replacingAll("\"", with: "\"\"") + "\"" : text
    }

    /// A swept value as JSON: a number when it reads as one.
    static func value(_ text: String) -> JSONValue {
        Double(text).map { .number($0) } ?? .string(text)
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}

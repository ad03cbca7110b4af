import ScrollCore

/// One slice of a sweep's grid (`simulate --sweep … --shard K/N`): every Nth point from the Kth, with each
/// run's whole report, so that ``merge(_:)`` rebuilds exactly what one run of the whole grid gives.
public struct SweepShard: Equatable, Sendable {
    /// Which slice: `k` of `n`, 1-based.
    public var k: Int
    public var n: Int
    /// The sweep it is a slice of: its base settings, keys, every key's values and runs per point.
    public var sweep: JSONValue
    /// The points it ran: their index in the grid and their row.
    public var rows: [(index: Int, row: SweepResult.Row)]

    public static func == (lhs: SweepShard, rhs: SweepShard) -> Bool {
        lhs.k == rhs.k && lhs.n == rhs.n && lhs.sweep == rhs.sweep && lhs.rows.map(\.index) == rhs.rows.map(\.index)
            && lhs.rows.map(\.row) == rhs.rows.map(\.row)
    }

    /// Reads `K/N` (1 ≤ K ≤ N ≤ 10,000).
    public static func parseSlice(_ text: String) -> (k: Int, n: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), 1 <= k, k <= n, n <= 10_000 else {
            return nil
        }
        return (k, n)
    }

    /// The file `--shard` writes: one JSON object.
    public var json: JSONValue {
        .object([
            "kind": "sweepShard", "shard": .int(k), "of": .int(n), "sweep": sweep,
            "points": .array(
                rows.map { entry in
                    .object([
                        "index": .int(entry.index), "values": .array(entry.row.values.map { .string($0) }),
                        "runs": .array(entry.row.runs.map(\.fields)),
                    ])
                }),
        ])
    }

    /// Reads a shard file, checking every field.
    public init(parsing value: JSONValue) throws(LabError) {
        guard let members = value.object, members["kind"] == "sweepShard" else {
            throw .badShard("not a shard file (\"kind\": \"sweepShard\")")
        }
        guard let k = Self.integer(members["shard"]), let n = Self.integer(members["of"]), 1 <= k, k <= n else {
            throw .badShard("\"shard\" and \"of\" must be integers with 1 ≤ shard ≤ of")
        }
        guard let sweep = members["sweep"], sweep.object != nil else { throw .badShard("\"sweep\" must be an object") }
        guard let points = members["points"]?.array else { throw .badShard("\"points\" must be an array") }
        var rows: [(Int, SweepResult.Row)] = []
        for point in points {
            guard let index = Self.integer(point["index"]), index >= 0 else {
                throw .badShard("a point's \"index\" must be a non-negative integer")
            }
            guard let values = point["values"]?.array?.compactMap(\.string), let runs = point["runs"]?.array,
                !runs.isEmpty
            else {
                throw .badShard("point \(index): \"values\" must be strings and \"runs\" a non-empty array")
            }
            rows.append((index, SweepResult.Row(values: values, runs: try runs.map(SimulationReport.init(fields:)))))
        }
        self.init(k: k, n: n, sweep: sweep, rows: rows)
    }

    public init(k: Int, n: Int, sweep: JSONValue, rows: [(index: Int, row: SweepResult.Row)]) {
        self.k = k
        self.n = n
        self.sweep = sweep
        self.rows = rows
    }

    /// Joins the slices of one sweep into its result, in grid order: every slice once, every point once.
    public static func merge(_ shards: [SweepShard]) throws(LabError) -> SweepResult {
        guard let first = shards.first else { throw .badShard("no shard files") }
        for shard in shards where shard.sweep != first.sweep || shard.n != first.n {
            throw .badShard("shard \(shard.k)/\(shard.n) is of another sweep than shard \(first.k)/\(first.n)")
        }
        let slices = shards.map(\.k).sorted()
        if let twice = zip(slices, slices.dropFirst()).first(where: { $0 == $1 })?.0 {
            throw .badShard("shard \(twice)/\(first.n) is given twice")
        }
        guard slices == Array(1...first.n) else {
            let missing = Set(1...first.n).subtracting(slices).sorted().map(String.init)
            throw .badShard("missing shard(s) \(missing.joined(separator: ", ")) of \(first.n)")
        }
        guard let keys = first.sweep["keys"]?.array?.compactMap(\.string),
            let total = integer(first.sweep["points"])
        else {
            throw .badShard("\"sweep\" must name its keys and its number of points")
        }
        var rows = [SweepResult.Row?](repeating: nil, count: total)
        for shard in shards {
            for (index, row) in shard.rows {
                guard index < total, index % shard.n == shard.k - 1, rows[index] == nil, row.values.count == keys.count
                else {
                    throw .badShard("shard \(shard.k)/\(shard.n): point \(index) does not belong to it")
                }
                rows[index] = row
            }
        }
        guard let complete = rows as? [SweepResult.Row] else {
            throw .badShard("\(rows.count { $0 == nil }) point(s) missing")
        }
        return SweepResult(keys: keys, rows: complete)
    }

    /// A JSON number that is an integer within ±2^53, as an `Int`.
    static func integer(_ value: JSONValue?) -> Int? {
        guard let number = value?.number, number == number.rounded(), abs(number) <= 9_007_199_254_740_991 else {
            return nil
        }
        return Int(number)
    }
}

extension Sweep {
    /// What a shard file names as its sweep: the base simulation, the keys and their values, the runs. Two
    /// shards merge only when this is the same.
    public var identity: JSONValue {
        let layout = base.layout
        return .object([
            "config": base.config.recordedJSON,
            "gesture": .string(base.hand.map { "trace:\($0.name) (\($0.steps.count) steps)" } ?? base.gesture.rawValue),
            "seconds": .number(base.seconds), "hz": .number(base.hz),
            "source": base.source == .synthetic ? "synthetic" : .int(base.source.available(maxItems: 0) ?? 0),
            "layout": [
                "containerWidth": .number(layout.containerWidth), "containerHeight": .number(layout.containerHeight),
                "insetTop": .number(layout.insetTop), "insetBottom": .number(layout.insetBottom),
                "itemHeight": .number(layout.itemHeight), "endShortfall": .number(layout.endShortfall),
            ],
            "keys": .array(axes.map { .string($0.key) }),
            "values": .array(axes.map { .array($0.values.map { .string($0) }) }),
            "runs": .int(runs), "points": .int(points.count),
        ])
    }

    /// Runs slice `k` of `n`: the points whose index is `k − 1` modulo `n`.
    public func run(shard k: Int, of n: Int, threads: Int) -> SweepShard {
        var slice = self
        let all = points
        let indices = Array(stride(from: k - 1, to: all.count, by: n))
        slice.pointsOverride = indices.map { all[$0] }
        let result = slice.run(threads: threads)
        return SweepShard(k: k, n: n, sweep: identity, rows: Array(zip(indices, result.rows)))
    }
}

extension SimulationReport {
    /// Every stored field, for a shard file.
    public var fields: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: Self.fieldPaths.map { ($0.name, .int(self[keyPath: $0.path])) }))
    }

    /// Reads ``fields`` back, each an integer.
    public init(fields value: JSONValue) throws(LabError) {
        self.init()
        for (name, path) in Self.fieldPaths {
            guard let number = SweepShard.integer(value[name]) else {
                throw .badShard("a run's \"\(name)\" must be an integer")
            }
            self[keyPath: path] = number
        }
    }

    static let fieldPaths: [(name: String, path: WritableKeyPath<SimulationReport, Int> & Sendable)] = [
        ("stallTotalMs", \.stallTotalMs), ("stallP95Ms", \.stallP95Ms), ("stallMaxMs", \.stallMaxMs),
        ("requestsStarted", \.requestsStarted), ("requestsSuppressed", \.requestsSuppressed),
        ("requestsCancelled", \.requestsCancelled), ("requestsFailed", \.requestsFailed),
        ("requestsDuplicated", \.requestsDuplicated), ("pagesLoaded", \.pagesLoaded),
        ("pagesNeverSeen", \.pagesNeverSeen), ("pulls", \.pulls), ("pullRefreshes", \.pullRefreshes),
        ("pullsWithoutRefresh", \.pullsWithoutRefresh), ("peakDOMItems", \.peakDOMItems), ("items", \.items),
        ("geometries", \.geometries),
    ]
}

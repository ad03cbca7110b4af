import ScrollCore

/// One swept key and its values, from `KEY=a,b,c` or `KEY=from:to:step`.
public struct SweepAxis: Equatable, Sendable {
    public var key: String
    /// The values as text, in order.
    public var values: [String]

    public init(key: String, values: [String]) {
        self.key = key
        self.values = values
    }

    /// Reads `KEY=a,b,c` or `KEY=from:to:step` (inclusive), checking every value against the key.
    public init(parsing text: String) throws(LabError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { throw .badSweep(text) }
        key = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...])
        guard Simulation.keys.contains(key) else { throw .unknownKey(key, accepted: Simulation.keys) }
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3 {
            guard let from = Double(parts[0]), let to = Double(parts[1]), from.isFinite, to.isFinite else {
                throw .badSweep(text)
            }
            guard let step = Double(parts[2]), step != 0, step.isFinite else { throw .badStep(spec) }
            guard (to - from) / step >= 0 || from == to else { throw .emptyRange(spec) }
            // Counted as a double first: `0:1e300:1e-300` has more points than an Int holds.
            let points = ((to - from) / step + 1e-9).rounded(.down) + 1
            guard points <= Double(Sweep.pointLimit) else {
                throw .tooManyPoints(points.clampedInteger(in: 0...Int.max), limit: Sweep.pointLimit)
            }
            let count = Int(points)
            values = (0..<count).map { LabFormat.number(from + Double($0) * step) }
        } else if parts.count == 1 {
            values = spec.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !values.contains(where: \.isEmpty) else { throw .emptyRange(spec) }
        } else {
            throw .badSweep(text)
        }
        var probe = Simulation()
        for value in values { try probe.apply(key: key, text: value) }
    }
}

/// Every combination of the swept keys' values, each run as a ``Simulation``.
public struct Sweep: Sendable {
    /// The most points a grid may have.
    public static let pointLimit = 100_000

    public var base: Simulation
    public var axes: [SweepAxis]
    /// Runs per point, with seeds `seed`, `seed + 1`, …; the metrics are their mean.
    public var runs: Int

    public init(base: Simulation, axes: [SweepAxis], runs: Int = 1) throws(LabError) {
        var seen = Set<String>()
        for axis in axes where !seen.insert(axis.key).inserted { throw .repeatedKey(axis.key) }
        let count = axes.reduce(1) { $0 * $1.values.count }
        guard count <= Self.pointLimit else { throw .tooManyPoints(count, limit: Self.pointLimit) }
        self.base = base
        self.axes = axes
        self.runs = max(1, runs)
    }

    /// A slice of the grid to run instead of all of it (``run(shard:of:threads:)``).
    var pointsOverride: [[String]]?

    /// The grid's points, first key outermost: each the values of the keys, in order.
    public var points: [[String]] {
        pointsOverride
            ?? axes.reduce([[]]) { grid, axis in grid.flatMap { point in axis.values.map { point + [$0] } } }
    }

    /// One point's simulation.
    public func simulation(_ point: [String]) -> Simulation {
        var simulation = base
        for (axis, value) in zip(axes, point) {
            // Checked when the axis was read.
            try? simulation.apply(key: axis.key, text: value)
        }
        return simulation
    }

    /// Runs every point `runs` times on `threads` threads at once (Dispatch's pool; give it the cores).
    public func run(threads: Int) -> SweepResult {
        let points = points
        let reports = concurrentMap(count: points.count * runs, threads: threads) { job in
            var simulation = simulation(points[job / runs])
            simulation.config.seed &+= UInt64(job % runs)
            return simulation.run()
        }
        let rows = points.indices.map { index in
            SweepResult.Row(values: points[index], runs: Array(reports[index * runs..<(index + 1) * runs]))
        }
        return SweepResult(keys: axes.map(\.key), rows: rows)
    }
}

import ScrollCore

/// Property-based checking: random scenarios per preset, every property after every step, and each
/// property's first failure shrunk to a minimal scenario.
public struct Checker: Sendable {
    /// What was found for one preset and property.
    public struct Finding: Equatable, Sendable {
        public var preset: Preset
        public var property: Property
        /// The shrunk scenario.
        public var scenario: Scenario
        /// Its violation.
        public var violation: Violation
        /// Geometry frames in the shrunk scenario, up to the violation.
        public var frames: Int
        /// The shrunk scenario as a trace, up to the violation.
        public var trace: Trace
    }

    /// One preset's result.
    public struct PresetResult: Equatable, Sendable {
        public var preset: Preset
        public var scenarios: Int
        public var findings: [Finding]

        /// pass, fail or n/a for a property.
        public func outcome(_ property: Property) -> Outcome {
            guard property.applies(to: preset) else { return .notApplicable }
            return findings.contains { $0.property == property } ? .fail : .pass
        }
    }

    /// A cell of the report.
    public enum Outcome: String, Sendable {
        case pass, fail
        case notApplicable = "n/a"
    }

    public var seed: UInt64
    /// Scenarios per preset, at most.
    public var scenarios: Int
    public var presets: [Preset]
    public var reducer: LabReducer
    /// Settings every scenario has (`physics`, `contentSize`), beside the generated ones.
    public var fixed: [String: JSONValue]
    /// Runs a candidate shrink may take per finding.
    public var shrinkBudget = 3000
    /// Recorded hands (`check --gestures DIR`), as scenarios: each runs under every preset checked, before
    /// the random ones, and is shrunk like them.
    public var hands: [Scenario] = []

    public init(
        seed: UInt64 = 1, scenarios: Int = 300, presets: [Preset] = Preset.allCases,
        reducer: @escaping LabReducer = LabSession.scrollCore, fixed: [String: JSONValue] = [:]
    ) {
        self.seed = seed
        self.scenarios = scenarios
        self.presets = presets
        self.reducer = reducer
        self.fixed = fixed
    }

    /// Checks every preset on `threads` threads; `expired` says when the time is up (checked between runs).
    public func run(threads: Int, expired: @escaping @Sendable () -> Bool = { false }) -> [PresetResult] {
        concurrentMap(count: presets.count, threads: threads) { index in check(presets[index], expired: expired) }
    }

    /// Checks one preset.
    public func check(_ preset: Preset, expired: @Sendable () -> Bool = { false }) -> PresetResult {
        var findings: [Finding] = []
        var ran = 0
        let open = Property.allCases.filter { $0.applies(to: preset) }
        let recorded = hands.map { hand in
            var scenario = hand
            scenario.settings["preset"] = .string(preset.rawValue)
            scenario.settings.merge(fixed) { _, fixed in fixed }
            return scenario
        }
        for index in 0..<(recorded.count + scenarios) {
            if expired() || findings.count == open.count { break }
            let scenario =
                index < recorded.count
                ? recorded[index]
                : Scenario.random(
                    preset: preset, seed: SeededGenerator.mix(seed, index - recorded.count), fixed: fixed)
            let run = CheckRun(scenario, reducer: reducer)
            ran += 1
            for violation in run.violations where !findings.contains(where: { $0.property == violation.property }) {
                findings.append(shrink(scenario, violation.property, expired: expired))
            }
        }
        return PresetResult(preset: preset, scenarios: ran, findings: findings.sorted { $0.property < $1.property })
    }

    /// Shrinks a failing scenario: fewer steps, fewer frames, smaller moves, plainer settings, while the
    /// same property still fails.
    public func shrink(_ scenario: Scenario, _ property: Property, expired: @Sendable () -> Bool = { false }) -> Finding
    {
        var best = scenario
        var budget = shrinkBudget
        func fails(_ candidate: Scenario) -> Bool {
            budget -= 1
            return CheckRun(candidate, stopAt: property, reducer: reducer).violation(of: property) != nil
        }
        var improved = true
        while improved, budget > 0, !expired() {
            improved = false
            for candidate in Self.candidates(best) {
                guard budget > 0 else { break }
                if fails(candidate) {
                    best = candidate
                    improved = true
                    break
                }
            }
        }
        let run = CheckRun(best, record: true, stopAt: property, reducer: reducer)
        var trace = run.session.trace(session: "\(best.preset.rawValue)-\(property.rawValue)")!
        // The page goes away where the violation showed, so the trace ends there, as a recorded one does.
        trace.lines.append(.closed(t: run.session.now, code: 1000, resumable: false))
        trace.lines.append(
            .decision(t: run.session.now, LogEntry(.sessionClosed, ["code": .int(1000), "resumable": .bool(false)])))
        return Finding(
            preset: best.preset, property: property, scenario: best, violation: run.violation(of: property)!,
            frames: run.frames, trace: trace)
    }

    /// Simpler scenarios than `scenario`, the most ambitious first.
    static func candidates(_ scenario: Scenario) -> [Scenario] {
        var result: [Scenario] = []
        let steps = scenario.steps
        // Fewer steps: halves, quarters, … down to single steps.
        var chunk = steps.count
        while chunk >= 1 {
            for start in stride(from: 0, to: steps.count, by: chunk) {
                var fewer = scenario
                fewer.steps.removeSubrange(start..<min(steps.count, start + chunk))
                result.append(fewer)
            }
            chunk /= 2
        }
        // Fewer frames and smaller moves.
        for (index, step) in steps.enumerated() {
            for simpler in simpler(step) {
                var candidate = scenario
                candidate.steps[index] = simpler
                result.append(candidate)
            }
        }
        // Plainer settings and layout.
        let plain: [String: JSONValue] = [
            "failureRate": 0, "jitterMs": 0, "loadLatencyMs": 100, "refreshLatencyMs": 1200, "initialCount": 30,
            "pageSize": 20, "maxItems": 200,
        ]
        for (key, value) in plain.sorted(by: { $0.key < $1.key }) where scenario.settings[key] != value {
            var candidate = scenario
            candidate.settings[key] = value
            result.append(candidate)
        }
        var layout = scenario.layout
        for change in [
            { (layout: inout PageLayout) in layout.insetTop = 0 }, { $0.insetBottom = 0 }, { $0.endShortfall = 0 },
            { $0.containerHeight = $0.containerHeight.rounded() },
        ] {
            var candidate = scenario
            change(&layout)
            candidate.layout = layout
            if candidate.layout != scenario.layout { result.append(candidate) }
            layout = scenario.layout
        }
        return result
    }

    private static func simpler(_ step: Scenario.Step) -> [Scenario.Step] {
        switch step {
        case .fling(let velocity): [velocity > 0 ? .toEnd : .toTop]
        case .drag(let speed, let frames):
            [speed > 0 ? .toEnd : .toTop] + (frames > 1 ? [.drag(speed, frames: frames / 2)] : [])
        case .pull(let distance): distance > 16 ? [.pull((distance / 2).rounded())] : []
        case .pause(let milliseconds): milliseconds > 16 ? [.pause(milliseconds / 2)] : []
        case .resize(let height): height != height.rounded() ? [.resize(height.rounded())] : []
        case .stroke(let moves, let release):
            [moves.reduce(0, +) >= 0 ? .toEnd : .toTop]
                + (moves.count > 1 ? [.stroke(Array(moves.prefix(moves.count / 2)), release: release)] : [])
                + (release != 0 ? [.stroke(moves, release: 0)] : [])
                + (moves.contains { abs($0) > 1 }
                    ? [.stroke(moves.map { ($0 / 2).rounded() }, release: release / 2)] : [])
        case .toEnd, .toTop, .switchPreset: []
        }
    }
}

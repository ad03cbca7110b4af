import ScrollCore

extension RecordedHand {
    /// Takes the hand out of a trace. Pure: the trace's lines are read once, with one replay up to the first
    /// geometry to learn how many items the page held then (an item's height).
    public init(trace: Trace) throws(HandError) {
        var hello: (t: Int64, config: [String: JSONValue])?
        var steps: [Step] = []
        var previous: (geometry: FeedGeometry, phase: FeedScrollPhase)?
        var firstGeometry: (t: Int64, geometry: FeedGeometry)?
        var fingerDown = false
        var intervals: [Int64] = []
        // The page's own clock between two reports (`geometry.t`): a recorder's frames reach the server in
        // bursts, so its pace is read here.
        var pageIntervals: [Double] = []
        var lastPageT: Double?
        var lastGeometryT: Int64?
        let defaults = trace.header.config
        // A SwiftUI app scrolls on UIScrollView whatever its settings say: its finger is read as a finger.
        let fromApp = trace.header.recorder?.page.hasPrefix("app:") ?? false
        var physics = fromApp ? .ios : defaults.physics
        // The geometry reports, for the release's velocity (it is read from the frames after it).
        var pendingLift: PendingLift?
        // How close to the end the page came, and whether it ever reached it: a browser that stops short
        // (zoom leaves 0.4 px) never does.
        var closestToEnd = Double.infinity

        for (index, line) in trace.lines.enumerated() {
            guard case .input(let lineT, let text) = line,
                let message = try? ClientMessage.decode(text)
            else { continue }
            switch message {
            case .hello(let opening):
                // A resume or a fork's takeover continues the same page: only the first hello opens it.
                guard hello == nil else { continue }
                hello = (lineT, opening.config)
                if !fromApp, let name = opening.config["physics"]?.string, let chosen = ScrollPhysics(rawValue: name) {
                    physics = chosen
                }
            case .config(let fields):
                guard let start = hello?.t else { continue }
                if let name = fields["physics"]?.string, let chosen = ScrollPhysics(rawValue: name) {
                    physics = chosen
                }
                var json = fields
                json["type"] = "config"
                steps.append(Step(t: lineT - start, actions: [.message(.object(json))], phase: nil))
            case .refresh, .loadMore, .loadPrevious, .reset, .jump:
                guard let start = hello?.t, let json = try? JSONParser.parse(text) else { continue }
                steps.append(Step(t: lineT - start, actions: [.message(json)], phase: nil))
            case .ping:
                continue
            case .geometry(let report):
                guard let start = hello?.t else { continue }
                // The header is line 1: the trace's lines follow it, one a line.
                if let reason = Self.unsimulable(report.geometry) { throw .unsimulable(line: index + 2, reason) }
                let t = lineT - start
                let geometry = report.geometry
                let phase = report.phase
                if let lastGeometryT, t > lastGeometryT { intervals.append(t - lastGeometryT) }
                if let lastPageT, report.t > lastPageT, report.t - lastPageT < 1000 {
                    pageIntervals.append(report.t - lastPageT)
                }
                lastPageT = report.t
                lastGeometryT = t
                guard let before = previous else {
                    firstGeometry = (lineT, geometry)
                    previous = (geometry, phase)
                    steps.append(Step(t: t, actions: [], phase: phase))
                    continue
                }
                previous = (geometry, phase)
                var actions: [Action] = []
                if geometry.containerSize.height != before.geometry.containerSize.height {
                    actions.append(.resize(geometry.containerSize.height))
                }
                let position = Self.position(geometry)
                let was = Self.position(before.geometry)
                let bounds = Self.bounds(geometry)
                let contentChanged = geometry.contentSize.height != before.geometry.contentSize.height
                closestToEnd = min(closestToEnd, max(0, bounds.maxOffset - position))
                let touching = phase == .interacting || phase == .tracking
                // A lift waiting for its moving frames takes its velocity (and, when the finger held still
                // before it, its time) from the first two.
                if var lift = pendingLift {
                    let frame = max(16, intervals.last ?? 16)
                    if touching || t - lift.t > 6 * frame {
                        Self.resolve(&steps, lift, second: nil, bounds: bounds)
                        pendingLift = nil
                    } else if lift.firstMove == nil, abs(position - lift.position) > 1e-9 {
                        lift.firstMove = (position, t)
                        lift.bounds = bounds
                        pendingLift = lift
                    } else if lift.firstMove != nil {
                        Self.resolve(&steps, lift, second: (position, t), bounds: bounds)
                        pendingLift = nil
                    }
                }
                if physics == .ios {
                    if touching {
                        let model = IOSScrollModel()
                        let delta = model.raw(for: position, bounds: bounds) - model.raw(for: was, bounds: bounds)
                        actions.append(.finger(delta))
                        fingerDown = true
                    } else if fingerDown {
                        fingerDown = false
                        if abs(position - was) <= 1e-9 {
                            // The page reported the release where the finger left it: it lifts here.
                            actions.append(.lift(velocity: 0))
                            pendingLift = PendingLift(
                                stepIndex: steps.count, position: position, t: t, afterReport: false,
                                frame: intervals.last ?? 16)
                        } else if let last = steps.indices.last {
                            // The first report already moved: the finger lifted right after the last one.
                            steps[last].afterReport.append(.lift(velocity: 0))
                            pendingLift = PendingLift(
                                stepIndex: last, position: was, t: steps[last].t, afterReport: true,
                                frame: intervals.dropLast().last ?? 16, firstMove: (position, t), bounds: bounds)
                        }
                    } else if before.phase == .idle, phase == .idle, !contentChanged, abs(position - was) > 0.5 {
                        actions.append(.jump(Self.target(position, bounds: bounds)))
                    }
                } else {
                    let shown = -min(0, position)
                    let wasShown = -min(0, was)
                    let moved = max(0, position) - max(0, was)
                    // New rows at the top or a trimmed top shift the position by their height: the page's doing.
                    let shifted =
                        contentChanged
                        && abs(moved - (geometry.contentSize.height - before.geometry.contentSize.height)) < 0.5
                    if shown != wasShown { actions.append(.pull(shown)) }
                    if abs(moved) > 1e-9, !shifted {
                        if phase == .idle, before.phase == .idle, !contentChanged {
                            actions.append(.jump(Self.target(position, bounds: bounds)))
                        } else if !(contentChanged && phase == .idle) {
                            actions.append(.scroll(moved))
                        }
                    }
                }
                steps.append(Step(t: t, actions: actions, phase: phase))
            }
            guard steps.count <= Self.stepLimit else { throw .tooLong(steps.count) }
        }
        if let lift = pendingLift {
            Self.resolve(&steps, lift, second: nil, bounds: firstGeometry.map { Self.bounds($0.geometry) })
        }
        guard let hello else { throw .noHello }
        guard let first = firstGeometry else { throw .noGeometry }

        // The page's layout from its first report; an item's height from the items it held then.
        var layout = PageLayout()
        layout.containerHeight = first.geometry.containerSize.height
        layout.containerWidth = first.geometry.containerSize.width
        layout.insetTop = first.geometry.contentInsets.top
        layout.insetBottom = first.geometry.contentInsets.bottom
        let held = Replay.rebuild(trace, through: first.t, id: "hand", resumeToken: "hand").state.window.items.count
        if held > 0, first.geometry.contentSize.height > 0 {
            layout.itemHeight = first.geometry.contentSize.height / Double(held)
        }
        var config = defaults
        try? config.apply(hello.config.filter { ScrollConfig.settingNames.contains($0.key) })
        layout.contentSize = config.contentSize
        if physics == .browser, closestToEnd > 0.001, closestToEnd < 1 { layout.endShortfall = closestToEnd }

        let sorted = intervals.sorted()
        name = trace.header.session
        self.defaults = defaults
        settings = hello.config
        source = trace.header.source
        self.layout = layout
        self.physics = physics
        if let page = trace.header.recorder?.page {
            origin = page.hasPrefix("app:") ? .swiftUI : .recorderJS
        } else {
            origin = .page
        }
        self.steps = steps
        durationMs = max(0, (trace.lines.last?.t ?? hello.t) - hello.t)
        let paced = pageIntervals.sorted()
        let median = paced.isEmpty ? (sorted.isEmpty ? 16 : Double(sorted[sorted.count / 2])) : paced[paced.count / 2]
        frameMs = Int64(max(4, min(100, median.rounded())))
        recordedDecisions = trace.recordedDecisions.map { TimedDecision(t: $0.t - hello.t, entry: $0.entry) }
    }

    /// The geometry the lab simulates, px: a viewport of the lab's own `containerHeight` / `containerWidth` /
    /// inset ranges, and content and offsets up to a billion px (a browser stops near 3.3e7). Past them a hand
    /// from a hostile or broken recorder would drive the simulated page to sizes it cannot report.
    static let simulable: [(name: String, read: @Sendable (FeedGeometry) -> Double, range: ClosedRange<Double>)] = [
        ("containerSize.height", { $0.containerSize.height }, 1...100_000),
        ("containerSize.width", { $0.containerSize.width }, 0...100_000),
        ("contentInsets.top", { $0.contentInsets.top }, 0...100_000),
        ("contentInsets.bottom", { $0.contentInsets.bottom }, 0...100_000),
        ("contentInsets.leading", { $0.contentInsets.leading }, 0...100_000),
        ("contentInsets.trailing", { $0.contentInsets.trailing }, 0...100_000),
        ("contentSize.height", { $0.contentSize.height }, 0...1e9),
        ("contentSize.width", { $0.contentSize.width }, 0...1e9),
        ("contentOffset.y", { $0.contentOffset.y }, -1e9...1e9),
        ("contentOffset.x", { $0.contentOffset.x }, -1e9...1e9),
    ]

    /// Why the lab cannot simulate this geometry (the first field out of ``simulable``); nil when it can.
    static func unsimulable(_ geometry: FeedGeometry) -> String? {
        guard let bad = simulable.first(where: { !$0.range.contains($0.read(geometry)) }) else { return nil }
        // The value as given (0.0001, 1e+308), not rounded as a report's numbers are.
        return "\(bad.name) \(bad.read(geometry)) is outside what the lab simulates "
            + "(\(LabFormat.number(bad.range.lowerBound))…\(LabFormat.number(bad.range.upperBound)) px)"
    }

    /// `contentOffset` measured from the content's top (the iOS model's position).
    static func position(_ geometry: FeedGeometry) -> Double {
        geometry.contentOffset.y + geometry.contentInsets.top
    }

    /// The bounds the iOS model had for this geometry.
    static func bounds(_ geometry: FeedGeometry) -> IOSScrollModel.Bounds {
        IOSScrollModel.Bounds(
            maxOffset: geometry.contentSize.height + geometry.contentInsets.top + geometry.contentInsets.bottom
                - geometry.containerSize.height,
            dimension: geometry.containerSize.height)
    }

    static func target(_ position: Double, bounds: IOSScrollModel.Bounds) -> JumpTarget {
        if position <= 0.001 { return .top }
        if position >= bounds.maxOffset - 0.001 { return .end }
        return .offset(position)
    }

    /// A release whose velocity is read from the frames after it.
    struct PendingLift {
        var stepIndex: Int
        var position: Double
        var t: Int64
        /// Whether the lift follows the step's report (the finger lifted right after its last frame).
        var afterReport: Bool
        /// The recording's frame then, ms.
        var frame: Int64
        var firstMove: (position: Double, t: Int64)? = nil
        /// The bounds at the first move.
        var bounds: IOSScrollModel.Bounds? = nil
    }

    /// Gives a pending lift its velocity. A finger that held still before lifting reports nothing, so the
    /// lift may have come whole frames after the last report: each delay of 0…3 frames is tried, and the one
    /// whose momentum passes closest to the second moving frame wins.
    private static func resolve(
        _ steps: inout [Step], _ lift: PendingLift, second: (position: Double, t: Int64)?,
        bounds fallback: IOSScrollModel.Bounds?
    ) {
        guard steps.indices.contains(lift.stepIndex) else { return }
        var velocity = 0.0
        var delay: Int64 = 0
        if let first = lift.firstMove, let bounds = lift.bounds ?? fallback {
            let frame = max(1, lift.frame)
            var best = Double.infinity
            for k in Int64(0)...3 where lift.t + k * frame < first.t {
                let start = lift.t + k * frame
                let v = releaseVelocity(
                    from: lift.position, to: first.position, ms: Double(first.t - start), bounds: bounds)
                guard let second else {
                    velocity = v
                    break
                }
                var model = IOSScrollModel(position: lift.position)
                model.release(velocity: v, bounds: bounds)
                model.advance(ms: Double(second.t - start), bounds: bounds)
                let error = abs(model.position - second.position)
                if error < best - 1e-9 {
                    (best, velocity, delay) = (error, v, k * frame)
                }
            }
        }
        func replace(_ actions: inout [Action]) {
            guard let index = actions.lastIndex(where: { if case .lift = $0 { true } else { false } }) else { return }
            if delay == 0 {
                actions[index] = .lift(velocity: velocity)
            } else {
                actions.remove(at: index)
            }
        }
        if lift.afterReport {
            replace(&steps[lift.stepIndex].afterReport)
        } else {
            replace(&steps[lift.stepIndex].actions)
        }
        guard delay > 0 else { return }
        // The finger held still and lifted later: a step of its own, where the steps' times put it.
        let t = lift.t + delay
        let at = steps.firstIndex { $0.t > t } ?? steps.endIndex
        steps.insert(Step(t: t, actions: [.lift(velocity: velocity)], phase: nil), at: at)
    }

    /// The speed a release had, from where the content was `ms` later: the model's momentum inverted in range,
    /// its spring inverted past an end.
    static func releaseVelocity(from start: Double, to end: Double, ms: Double, bounds: IOSScrollModel.Bounds)
        -> Double
    {
        guard ms > 0 else { return 0 }
        if start < 0 || start > bounds.maxOffset {
            // x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ωt), solved for v0.
            let target = start < 0 ? 0 : bounds.maxOffset
            let omega = IOSScrollModel.bounceFrequency
            let x0 = start - target
            let x = end - target
            let seconds = ms / 1000
            return (x * IOSScrollModel.exp(omega * seconds) - x0) / seconds - omega * x0
        }
        // travel = v0/1000 · d(1 − dᵗ)/(1 − d), solved for v0.
        let d = IOSScrollModel.normalDecelerationRate
        let travel = end - start
        return travel * 1000 * (1 - d) / (d * (1 - IOSScrollModel.power(d, ms)))
    }
}

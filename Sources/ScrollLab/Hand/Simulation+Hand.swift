import ScrollCore

extension Simulation {
    /// The hand on its own recording's page and settings: `--set` and `--sweep` change them from here.
    public init(hand: RecordedHand) {
        self.init()
        config = hand.config
        layout = hand.layout
        source = hand.source
        hz = 1000 / Double(hand.frameMs)
        seconds = min(3600, max(0.1, Double(hand.durationMs) / 1000))
        self.hand = hand
    }

    /// Runs a recorded hand: its steps at their recorded times, and frames at the recording's pace between
    /// them (so momentum that now runs longer, or content that now lands sooner, is seen), until
    /// ``seconds``. The page's content grows as *these* settings load. `record` keeps the run's trace. `stop`
    /// is asked at every frame with its time (ms): once it says yes the run ends there (`stopped`), so work
    /// nobody waits for any more ends within a frame.
    public func run(hand: RecordedHand, record: Bool = false, stop: (Int64) -> Bool = { _ in false }) -> (
        report: SimulationReport, trace: Trace?, stopped: Bool
    ) {
        var pageLayout = layout
        pageLayout.contentSize = config.contentSize
        var session = LabSession(source: source, layout: pageLayout, record: record, itemCap: itemCap)
        var meter = Meter(pullThreshold: config.rules.pullThreshold)
        meter.observe(session.hello(config.recordedJSON.object ?? [:]), session: session, at: 0)
        // Settings this run changed from the recording's: a recorded `config` message does not undo them.
        let mine = config.json.object ?? [:]
        let recorded = hand.config.json.object ?? [:]
        let forced = Set(mine.keys.filter { mine[$0] != recorded[$0] })
        let end = Int64((seconds * 1000).rounded())
        let frame = max(1, Int64((1000 / hz).rounded()))
        var previous: Int64 = 0
        // No frame before the page's first report: it had not laid out yet.
        var lastFrame: Int64?
        var index = 0
        var fingerDown = false
        var frames = 0
        // Under the browser's scrolling the page's phase between two recorded frames is the last one's.
        var recordedPhase = FeedScrollPhase.idle
        while true {
            // A step recorded earlier than the last frame (a trace whose clock went back) runs at that frame: time
            // only goes on, so the work is bounded by the steps and the run's frames.
            let stepT = index < hand.steps.count ? max(hand.steps[index].t, lastFrame ?? 0) : Int64.max
            let fillT = lastFrame.map { $0 + frame } ?? .max
            let t = min(stepT, fillT)
            guard t <= end else { break }
            if stop(t) { return (meter.report(session: session, at: t, frames: frames), nil, true) }
            while let fired = session.fireNext(upTo: t) {
                meter.observe(fired.effects, session: session, at: session.now)
            }
            session.advanceClock(to: t)
            if t > previous {
                session.page.advanceMotion(ms: Double(t - previous))
                previous = t
            }
            if stepT == t {
                let step = hand.steps[index]
                index += 1
                for action in step.actions {
                    perform(action, on: &session, meter: &meter, fingerDown: &fingerDown, forced: forced)
                }
                if let stepPhase = step.phase {
                    recordedPhase = stepPhase
                    let phase = Self.phase(recorded: stepPhase, page: session.page, physics: hand.physics)
                    if let effects = session.sendGeometry(phase: phase) {
                        meter.observe(effects, session: session, at: t)
                    }
                }
                for action in step.afterReport {
                    perform(action, on: &session, meter: &meter, fingerDown: &fingerDown, forced: forced)
                }
            } else {
                let phase: FeedScrollPhase =
                    hand.physics == .browser
                    ? recordedPhase
                    : fingerDown
                        ? .interacting : session.page.motion.motion == .idle ? .idle : session.page.motion.phase
                if let effects = session.sendGeometry(phase: phase) { meter.observe(effects, session: session, at: t) }
            }
            meter.frame(session: session, at: t)
            if lastFrame != nil || hand.steps[max(0, index - 1)].phase != nil { lastFrame = t }
            frames += 1
        }
        while let fired = session.fireNext(upTo: end) {
            meter.observe(fired.effects, session: session, at: session.now)
        }
        return (meter.report(session: session, at: end, frames: frames), session.trace(session: "hand"), false)
    }

    /// The phase the simulated page reports at a recorded step: the recording's while a finger is down (or
    /// under the browser's scrolling, which the hand replays as recorded); otherwise the iOS model's, and
    /// `decelerating` where the recording still said so on the frame its motion ended.
    static func phase(recorded: FeedScrollPhase, page: SimulatedPage, physics: ScrollPhysics) -> FeedScrollPhase {
        guard physics == .ios, recorded != .interacting, recorded != .tracking else { return recorded }
        if page.motion.motion != .idle { return page.motion.phase }
        return recorded == .decelerating || recorded == .animating ? recorded : .idle
    }

    private func perform(
        _ action: RecordedHand.Action, on session: inout LabSession, meter: inout Meter, fingerDown: inout Bool,
        forced: Set<String>
    ) {
        switch action {
        case .finger(let delta):
            session.page.drag(by: delta)
            fingerDown = true
        case .lift(let velocity):
            session.page.lift(velocity: velocity)
            fingerDown = false
        case .scroll(let delta):
            session.page.pull = 0
            session.page.scroll(by: delta)
        case .pull(let shown):
            if shown <= 0 {
                session.page.pull = 0
            } else if session.page.scroll <= 0 {
                session.page.pull = shown
            }
        case .jump(.top):
            session.page.scrollToTop()
        case .jump(.end):
            session.page.pull = 0
            session.page.scroll = session.page.maxScroll
        case .jump(.offset(let offset)):
            session.page.pull = 0
            session.page.scroll = min(max(0, offset), session.page.maxScroll)
        case .resize(let height):
            session.page.resize(containerHeight: height)
        case .message(let json):
            guard var fields = json.object else { return }
            if fields["type"] == "config" {
                for key in forced { fields[key] = nil }
                guard fields.count > 1 else { return }
            }
            let text = JSONValue.object(fields).jsonBytes
            guard let message = try? ClientMessage.decode(text) else { return }
            let effects = session.send(message, json: .object(fields))
            meter.observe(effects, session: session, at: session.now)
        }
    }
}

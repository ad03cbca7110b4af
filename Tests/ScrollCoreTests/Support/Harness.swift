import Testing

@testable import ScrollCore

/// One session driven through `reduce` with a manual clock: it fires the timers of the session's one queue
/// (its runtime's) in due order when the clock advances, and checks that the `schedule` and `cancel` effects
/// a transport follows keep the same timers. Nothing here sleeps or reads a real clock.
struct Harness {
    var session: SessionState
    /// The manual clock, in ms.
    private(set) var now: Int64 = 0
    /// Timers the core asked for and has not cancelled, earliest first: the session's queue.
    var timers: [(due: Int64, id: TimerID)] { session.pendingTimers.map { ($0.due, $0.timer) } }
    /// The timers a transport following the effects would run.
    private(set) var transport: Set<TimerID> = []
    /// Every event the core logged, with the clock time it was logged at.
    private(set) var logged: [(time: Int64, entry: LogEntry)] = []
    /// What `hello` produced.
    private(set) var opening: [SessionEffect] = []
    /// The `seq` of the last geometry sent.
    private(set) var seq = 0
    /// Every effect since `hello`, opening included, in order.
    private(set) var loggedEffects: [SessionEffect] = []

    /// Opens a session with `hello` carrying `config` (camelCase settings, `preset` among them).
    init(_ config: [String: JSONValue] = [:], defaults: ScrollConfig = ScrollConfig(), source: FeedSource = .synthetic)
    {
        session = SessionState(id: "s1", resumeToken: "token-1", config: defaults, source: source)
        opening = send(.helloReceived(Hello(config: config)))
    }

    /// Applies one event at the current time, keeping track of timers and logs.
    @discardableResult
    mutating func send(_ event: SessionEvent) -> [SessionEffect] {
        // A timer that fires is gone from the transport (the session may schedule it again).
        if case .timerFired(let id) = event { transport.remove(id) }
        let effects = session.reduce(event, now: now)
        loggedEffects += effects
        for effect in effects {
            switch effect {
            case .schedule(let id, _):
                transport.insert(id)
            case .cancel(let id):
                transport.remove(id)
            case .log(let entry):
                logged.append((now, entry))
            case .send:
                break
            }
        }
        // One the queue dropped without a `cancel` would fire late on a server and be ignored, but it is a
        // bookkeeping slip.
        #expect(transport == Set(session.pendingTimers.map(\.timer)), "the transport's timers and the queue differ")
        return effects
    }

    /// Sends a vertical geometry; the next `seq` is used.
    @discardableResult
    mutating func scroll(
        y: Double, x: Double = 0, content: Double = 2000, container: Double = 800, insets: ScrollInsets = .zero,
        phase: FeedScrollPhase = .idle
    ) -> [SessionEffect] {
        geometry(
            FeedGeometry(
                contentOffset: ScrollPoint(x: x, y: y), contentSize: ScrollSize(width: 400, height: content),
                containerSize: ScrollSize(width: 400, height: container), contentInsets: insets),
            phase: phase)
    }

    /// Sends any geometry; the next `seq` is used.
    @discardableResult
    mutating func geometry(
        _ geometry: FeedGeometry, phase: FeedScrollPhase = .idle, anchor: ItemAnchor? = nil, rev: Int? = nil
    ) -> [SessionEffect] {
        seq += 1
        return send(
            .geometryReceived(
                GeometryReport(seq: seq, t: Double(now), geometry: geometry, phase: phase, anchor: anchor, rev: rev)))
    }

    /// Moves the clock forward, firing every timer that falls due on the way, earliest first.
    @discardableResult
    mutating func advance(by milliseconds: Int64) -> [SessionEffect] {
        let target = now + milliseconds
        var effects: [SessionEffect] = []
        while let next = session.nextTimer, next.due <= target {
            now = next.due
            effects += send(.timerFired(next.id))
        }
        now = target
        return effects
    }

    /// The last `state` the core sent.
    var lastState: StateMessage { session.lastSentState! }

    /// The names of everything logged so far.
    var loggedNames: [EventName] { logged.map(\.entry.name) }
}

extension Array where Element == SessionEffect {
    /// The logged entries, in order.
    var logs: [LogEntry] {
        compactMap { if case .log(let entry) = $0 { entry } else { nil } }
    }

    /// The names of the logged entries, in order.
    var names: [EventName] { logs.map(\.name) }

    /// The `items` messages sent, in order.
    var itemsMessages: [ItemsMessage] {
        compactMap { if case .send(.items(let message)) = $0 { message } else { nil } }
    }
}

extension StateMessage {
    /// This state with `change` applied: expected states are written as "the last one, plus these changes".
    func with(_ change: (inout StateMessage) -> Void) -> StateMessage {
        var copy = self
        change(&copy)
        return copy
    }
}

/// The indicator of `refreshable`, `refreshableLegacy` and `playground` for a pull progress.
func pullIndicator(progress: Double, threshold: Double = 68, bottomVisible: Bool = false) -> IndicatorState {
    IndicatorState(
        topVisible: progress > 0, topHeight: threshold * progress, topScale: 0.6 + 0.4 * progress, topOpacity: progress,
        bottomVisible: bottomVisible)
}

/// The synthetic feed's items `range` (0-based), as the session hands them out.
func syntheticItems(_ range: Range<Int>, seed: UInt64 = 1) -> [FeedItem] {
    range.map { FeedSource.synthetic.item(at: $0, seed: seed)! }
}

@testable import ScrollCore

/// One session driven through `reduce` with a manual clock: it keeps the timers the core schedules and
/// fires them in due order when the clock advances. Nothing here sleeps or reads a real clock.
struct Harness {
    var session: SessionState
    /// The manual clock, in ms.
    private(set) var now: Int64 = 0
    /// Timers the core asked for and has not cancelled, in the order they were scheduled.
    private(set) var timers: [(due: Int64, id: TimerID)] = []
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
        let effects = session.reduce(event, now: now)
        loggedEffects += effects
        for effect in effects {
            switch effect {
            case .schedule(let id, let delay):
                // Like the transport: scheduling an id again replaces the earlier timer.
                timers.removeAll { $0.id == id }
                timers.append((now + Int64(delay), id))
            case .cancel(let id):
                timers.removeAll { $0.id == id }
            case .log(let entry):
                logged.append((now, entry))
            case .send:
                break
            }
        }
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
        while let next = timers.enumerated().filter({ $0.element.due <= target }).min(by: {
            $0.element.due < $1.element.due
        }) {
            timers.remove(at: next.offset)
            now = next.element.due
            effects += send(.timerFired(next.element.id))
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

import ScrollCore

/// What the lab hands the logic under test: an input on the session's connection, or a timer it asked for.
public enum LabInput: Equatable, Sendable {
    /// A message (or connection change), as the server's transport hands it over.
    case input(SessionInput)
    /// A timer the logic scheduled fell due.
    case timer(TimerID)
}

/// The logic under test: ScrollCore's reducer, or (in tests) one with a bug put in on purpose.
public typealias LabReducer = @Sendable (inout SessionState, LabInput, Int64) -> [SessionEffect]

/// One session run on a virtual clock against a ``SimulatedPage``: it fires the timers of the session's
/// one queue (its runtime's) when the clock passes them, applies `items` and `scrollToTop` to the page, and
/// (when asked) records everything as a format-1 trace that `scroll-playground replay` runs again.
/// Nothing here sleeps, opens a socket or reads a clock.
public struct LabSession: Sendable {
    /// ScrollCore's own logic, exactly as the server runs it.
    public static let scrollCore: LabReducer = { state, input, now in
        switch input {
        case .input(let input): state.handle(input, now: now, maxMessageBytes: Self.maxMessageBytes)
        case .timer(let timer): state.reduce(.timerFired(timer), now: now)
        }
    }

    /// The message size limit a recorded trace names (the server's default).
    public static let maxMessageBytes = 64 * 1024

    /// A timer the logic asked for.
    public struct PendingTimer: Equatable, Sendable {
        /// When it is due, ms.
        public var due: Int64
        /// Its place among timers due at the same time.
        public var order: Int
        /// The timer.
        public var id: TimerID
    }

    /// The session as the logic keeps it.
    public private(set) var state: SessionState
    /// The page.
    public var page: SimulatedPage
    /// The virtual clock, ms.
    public private(set) var now: Int64 = 0
    /// Timers asked for and not cancelled or fired: the session's queue, earliest first.
    public var pending: [PendingTimer] {
        state.runtime.timers.entries.map { PendingTimer(due: $0.due, order: $0.order, id: $0.id) }
    }
    /// The last geometry sent and its phase.
    public private(set) var lastSent: (geometry: FeedGeometry, phase: FeedScrollPhase)?
    /// The `seq` of the last geometry sent.
    public private(set) var seq = 0
    /// The trace's lines so far, when recording.
    public private(set) var recorded: [Trace.Line]?
    private let reducer: LabReducer
    private let defaults: ScrollConfig

    /// A session with server defaults `defaults` (a trace's header) and a page with `layout`; nothing is
    /// sent yet. `record` keeps the trace; `itemCap` bounds the items the session holds.
    public init(
        defaults: ScrollConfig = ScrollConfig(), source: FeedSource = .synthetic, layout: PageLayout,
        record: Bool = false, itemCap: Int? = nil, reducer: @escaping LabReducer = LabSession.scrollCore
    ) {
        state = SessionState(id: "lab", resumeToken: "lab-resume", config: defaults, source: source, itemCap: itemCap)
        page = SimulatedPage(layout: layout)
        recorded = record ? [] : nil
        self.reducer = reducer
        self.defaults = defaults
    }

    /// Whether a page load's timer is pending (the ground truth of "a load in flight").
    public var loadsPending: Int {
        state.runtime.timers.entries.count { if case .pageLoad = $0.id { true } else { false } }
    }

    /// Whether a refresh's timer is pending.
    public var refreshesPending: Int {
        state.runtime.timers.entries.count { if case .refresh = $0.id { true } else { false } }
    }

    /// When the earliest pending timer falls due; nil when none is pending.
    public var nextDue: Int64? { state.nextTimer?.due }

    /// Moves the clock to `t` (never back).
    public mutating func advanceClock(to t: Int64) {
        now = max(now, t)
    }

    /// Fires the earliest timer due at or before `t`, moving the clock to it; nil when none is due.
    public mutating func fireNext(upTo t: Int64) -> (timer: TimerID, effects: [SessionEffect])? {
        guard let timer = state.nextTimer, timer.due <= t else { return nil }
        now = max(now, timer.due)
        recorded?.append(.timer(t: now, timer.id))
        let effects = reducer(&state, .timer(timer.id), now)
        // Firing takes the timer off the session's queue; a reducer that left it there does not stall the clock.
        if state.nextTimer == timer { state.runtime.cancel(timer.id) }
        apply(effects)
        return (timer.id, effects)
    }

    /// Sends a client message at the current time. When recording, the message goes through its JSON
    /// text exactly as a replay will read it back; `json` is built only then (most runs do not record, and
    /// building the tree cost more than the reducer's work on the frame).
    @discardableResult
    public mutating func send(_ message: ClientMessage, json: @autoclosure () -> JSONValue) -> [SessionEffect] {
        let effects: [SessionEffect]
        if recorded != nil {
            let bytes = json().jsonBytes
            recorded?.append(.input(t: now, text: bytes))
            // A hand from a hostile trace can take the page where its JSON does not read back (a size past
            // what a message may say): the message itself then runs, as unrecorded, and nothing traps.
            let decoded = (try? ClientMessage.decode(bytes)) ?? message
            effects = reducer(&state, .input(.message(.success(decoded))), now)
        } else {
            // The message itself, not a copy kept in case recording replaces it: a copy is a measurable part of a frame.
            effects = reducer(&state, .input(.message(.success(message))), now)
        }
        apply(effects)
        return effects
    }

    /// Sends `hello` with these settings.
    @discardableResult
    public mutating func hello(_ config: [String: JSONValue]) -> [SessionEffect] {
        send(.hello(Hello(config: config)), json: ["type": "hello", "version": 1, "config": .object(config)])
    }

    /// Sends a `config` message.
    @discardableResult
    public mutating func configure(_ fields: [String: JSONValue]) -> [SessionEffect] {
        var json = fields
        json["type"] = "config"
        return send(.config(fields), json: .object(json))
    }

    /// Sends the page's geometry with `phase`, unless it is the same as the last one sent.
    @discardableResult
    public mutating func sendGeometry(phase: FeedScrollPhase, force: Bool = false) -> [SessionEffect]? {
        let geometry = page.geometry
        if !force, let lastSent, lastSent.geometry == geometry, lastSent.phase == phase { return nil }
        lastSent = (geometry, phase)
        seq += 1
        let report = GeometryReport(seq: seq, t: Double(now), geometry: geometry, phase: phase)
        return send(.geometry(report), json: Self.json(report))
    }

    /// What resuming at `lastRev` would send, run on a copy: the session itself is untouched.
    public func resumeProbe(lastRev: Int) -> [SessionEffect] {
        var copy = state
        let hello = Hello(resume: state.resumeToken, lastRev: lastRev)
        return reducer(&copy, .input(.message(.success(.hello(hello)))), now)
    }

    /// The trace recorded so far (nil unless recording).
    public func trace(session: String = "lab") -> Trace? {
        guard let recorded else { return nil }
        let header = Trace.Header(
            session: session, server: "scroll-lab", config: defaults, source: state.source,
            maxMessageBytes: Self.maxMessageBytes, itemCap: state.itemCap)
        return Trace(header: header, lines: recorded)
    }

    private mutating func apply(_ effects: [SessionEffect]) {
        for effect in effects {
            switch effect {
            case .schedule, .cancel:
                // The session's runtime queued or dropped it already: its queue is the one the lab fires.
                continue
            case .send(.items(let message)):
                page.apply(message)
            case .send(.command(name: "scrollToTop")):
                page.scrollToTop()
            case .send(.scrollToItem(let id, let anchor)):
                page.scrollToItem(id, anchor: anchor)
            case .log(let entry):
                recorded?.append(.decision(t: now, entry.asLogged))
            case .send:
                continue
            }
        }
    }

    /// A geometry message as the page writes it.
    static func json(_ report: GeometryReport) -> JSONValue {
        let geometry = report.geometry
        return [
            "type": "geometry", "seq": .int(report.seq), "t": .number(report.t),
            "contentOffset": ["x": .number(geometry.contentOffset.x), "y": .number(geometry.contentOffset.y)],
            "contentSize": [
                "width": .number(geometry.contentSize.width), "height": .number(geometry.contentSize.height),
            ],
            "containerSize": [
                "width": .number(geometry.containerSize.width), "height": .number(geometry.containerSize.height),
            ],
            "contentInsets": [
                "top": .number(geometry.contentInsets.top), "leading": .number(geometry.contentInsets.leading),
                "bottom": .number(geometry.contentInsets.bottom),
                "trailing": .number(geometry.contentInsets.trailing),
            ],
            "phase": .string(report.phase.rawValue),
        ]
    }
}

/// Runs a recorded session through the same logic the server used, on a virtual clock.
public struct Replay: Sendable {
    /// Settings forced onto the session ("what if it had used …"): applied over `hello.config` and
    /// removed from later `config` messages, so the session keeps them throughout.
    public var overrides: [String: JSONValue]

    public init(overrides: [String: JSONValue] = [:]) {
        self.overrides = overrides
    }

    /// Checks the overrides before a run, naming the first bad setting.
    public func validate() throws(ConfigError) {
        var config = ScrollConfig()
        try config.apply(overrides)
    }

    /// The decisions the session makes with this replay's overrides.
    ///
    /// Without overrides, timers fire exactly where the trace recorded them, so the decisions are the
    /// recorded ones. With overrides the timers differ, so they fire when the core asked for them:
    /// before any input at or after their due time, and all remaining ones after the last input.
    public func run(_ trace: Trace) -> [TimedDecision] {
        var runner = Runner(trace: trace, overrides: overrides)
        return runner.run()
    }

    /// The session as it stood at moment `t` of a trace (every line at or before it replayed with the
    /// recorded timers), under a new id and resume token: what a fork starts from. The reducer is
    /// deterministic, so a replay of the same lines reaches the same state.
    public static func rebuild(_ trace: Trace, through t: Int64, id: String, resumeToken: String) -> Rebuilt {
        let lines = trace.lines.filter { line in
            if case .decision = line { return false }
            return line.t <= t
        }
        var runner = Runner(trace: Trace(header: trace.header, lines: lines), overrides: [:])
        runner.state = SessionState(
            id: id, resumeToken: resumeToken, config: trace.header.config, source: trace.header.source,
            itemCap: trace.header.itemCap)
        runner.state.forkedFrom = trace.header.fork
        let decisions = runner.run()
        return Rebuilt(
            state: runner.state, lines: lines, decisions: decisions, pendingTimers: runner.state.pendingTimers)
    }
}

/// A session rebuilt from a trace up to a moment (``Replay/rebuild(_:through:id:resumeToken:)``).
public struct Rebuilt: Equatable, Sendable {
    /// The state after the last line at or before the moment.
    public var state: SessionState
    /// The trace's lines up to the moment, decisions left out.
    public var lines: [Trace.Line]
    /// The decisions those lines make.
    public var decisions: [TimedDecision]
    /// Timers the logic had asked for that had not fired by the moment, earliest first.
    public var pendingTimers: [PendingTimer]

    /// The lines up to the moment with the decisions they made, each decision after the inputs of its time
    /// (a replay reads only their order among decisions): what a fork's trace starts with.
    public var traceLines: [Trace.Line] {
        var merged: [Trace.Line] = []
        merged.reserveCapacity(lines.count + decisions.count)
        var pending = decisions[...]
        for line in lines {
            while let next = pending.first, next.t < line.t {
                merged.append(.decision(t: next.t, next.entry))
                pending.removeFirst()
            }
            merged.append(line)
        }
        merged += pending.map { .decision(t: $0.t, $0.entry) }
        return merged
    }

    /// Gives the session its id: a server rebuilds a fork before it knows the number the session gets.
    public mutating func rename(_ id: String) {
        state.id = id
    }
}

/// A timer the logic asked for and when it is due (milliseconds, on the trace's clock).
public struct PendingTimer: Equatable, Sendable {
    public var timer: TimerID
    public var due: Int64
}

private struct Runner {
    let trace: Trace
    let overrides: [String: JSONValue]
    var state: SessionState
    var decisions: [TimedDecision] = []

    init(trace: Trace, overrides: [String: JSONValue]) {
        self.trace = trace
        self.overrides = overrides
        state = SessionState(
            id: trace.header.session, resumeToken: "replay", config: trace.header.config, source: trace.header.source,
            itemCap: trace.header.itemCap)
        // A fork's trace: its takeover is logged as the fork it was.
        state.forkedFrom = trace.header.fork
    }

    var followsRecordedTimers: Bool { overrides.isEmpty }

    mutating func run() -> [TimedDecision] {
        for line in trace.lines {
            switch line {
            case .input(let t, let text):
                fireDue(before: t)
                let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(text) }.map(applyOverrides)
                handle(.message(decoded), at: t)
            case .timer(let t, let timer):
                // The session's runtime holds the one timer queue: a recorded timer it is not waiting for is
                // skipped, as before (under overrides the timers differ, and fire when due instead).
                guard followsRecordedTimers, state.runtime.timers.contains(timer) else {
                    continue
                }
                apply(state.reduce(.timerFired(timer), now: t), at: t)
            case .violation(let t, let kind):
                fireDue(before: t)
                handle(.violation(kind), at: t)
            case .closed(let t, let code, let resumable):
                fireDue(before: t)
                handle(.closed(code: code, resumable: resumable), at: t)
            case .decision:
                continue
            }
        }
        // After the last line the operations in flight complete; the message clock (`newMessage`) would
        // tick forever, so it stops with the trace.
        if !followsRecordedTimers {
            state.runtime.cancel(.newMessage)
            fireDue(before: .max, stoppingClocks: true)
        }
        return decisions
    }

    /// Virtual clock: fires every timer of the session's queue due at or before `t`, earliest first.
    mutating func fireDue(before t: Int64, stoppingClocks: Bool = false) {
        guard !followsRecordedTimers else { return }
        while let next = state.nextTimer, next.due <= t {
            apply(state.reduce(.timerFired(next.id), now: next.due), at: next.due)
            // Firing takes a timer off the queue; one the session did not take (it was not open) goes too.
            if state.nextTimer == next { state.runtime.cancel(next.id) }
            if stoppingClocks { state.runtime.cancel(.newMessage) }
        }
    }

    mutating func handle(_ input: SessionInput, at t: Int64) {
        apply(state.handle(input, now: t, maxMessageBytes: trace.header.maxMessageBytes), at: t)
    }

    mutating func apply(_ effects: [SessionEffect], at t: Int64) {
        for effect in effects {
            switch effect {
            case .schedule, .cancel:
                // Already in the session's queue.
                continue
            case .log(let entry):
                decisions.append(TimedDecision(t: t, entry: entry.asLogged))
            case .send:
                continue
            }
        }
    }

    func applyOverrides(_ message: ClientMessage) -> ClientMessage {
        guard !overrides.isEmpty else { return message }
        switch message {
        case .hello(var hello):
            hello.config.merge(overrides) { _, forced in forced }
            return .hello(hello)
        case .config(let fields):
            return .config(fields.filter { overrides[$0.key] == nil })
        case .geometry, .refresh, .loadMore, .loadPrevious, .reset, .jump, .ping:
            // Settings travel only in `hello` and `config`.
            return message
        }
    }
}

/// What a feed's executor runs: a page load at an edge, or the refresh.
package enum FeedWork: Hashable, Sendable {
    /// The page load at this edge.
    case load(FeedEdge)
    /// The refresh.
    case refresh
}

/// A timer the runtime itself runs for a feed, whatever the executor names it.
package enum FeedTimerRole: Hashable, Sendable {
    /// The work with this ticket lands: an executor that simulates latency (the playground's synthetic feed)
    /// has the runtime queue it; an app's work reports its own end.
    case lands(FeedWork, ticket: Int)
    /// The scheduled retry with this ticket at the edge is due.
    case retry(FeedEdge, ticket: Int)
    /// The preset's fixed hold of the refresh indicator ends.
    case hold
}

/// How an executor names timers: the runtime's own (``FeedTimerRole``) and any of its own it queues beside
/// them in the one queue (the playground's next message, its jumps, its origin log).
package protocol FeedTimerKey: Hashable, Sendable {
    /// The executor's name for one of the runtime's timers.
    init(_ role: FeedTimerRole)
    /// What the runtime makes of this timer: nil for one of the executor's own.
    var role: FeedTimerRole? { get }
}

extension FeedTimerRole: FeedTimerKey {
    package init(_ role: FeedTimerRole) { self = role }
    package var role: FeedTimerRole? { self }
}

/// What an executor does for one decision (``FeedRuntime/step(_:now:)``). Every executor switches over
/// every case: a new effect fails to compile until each says what it does.
package enum FeedStep<Timer: FeedTimerKey>: Equatable, Sendable {
    /// Start the page load at the edge; `ticket` names it until it ends.
    case startLoad(FeedEdge, FeedTrigger, ticket: Int)
    /// Drop the load with `ticket` and do not report it; `landing` is its landing timer, already unqueued,
    /// when the executor had the runtime queue one.
    case cancelLoad(FeedEdge, ticket: Int, landing: Timer?)
    /// Start the refresh; `ticket` names it until it ends.
    case startRefresh(FeedTrigger, ticket: Int)
    /// Drop the refresh with `ticket` and do not report it (`landing` as for a load).
    case cancelRefresh(ticket: Int, landing: Timer?)
    /// The runtime queued `timer` (a retry, the hold) `afterMs` from now: an executor on a real clock arms it.
    case armed(Timer, afterMs: Int)
    /// The runtime dropped `timer`.
    case disarmed(Timer)
    /// What only the view does: scroll to the top or the bottom, or show that the retries gave up.
    case view(FeedViewAction)
    /// Nothing to run: the decision is for the log.
    case none
}

/// What only the view does for a decision.
package enum FeedViewAction: Equatable, Sendable {
    /// Scroll to the top (the content returned to its origin).
    case scrollToTop
    /// Scroll to the bottom (new items arrived while the reader was there).
    case scrollToBottom
    /// The retries of the edge's failed page gave up: show a Retry row.
    case gaveUp(FeedEdge)

    /// The action as an app's `onAction` hears it.
    package var action: FeedAction {
        switch self {
        case .scrollToTop: .scrollToTop
        case .scrollToBottom: .scrollToBottom
        case .gaveUp(let edge): .gaveUp(edge)
        }
    }
}

/// What a timer that fell due asks of its executor (``FeedRuntime/fire(_:)``).
package enum FiredTimer<Timer: FeedTimerKey>: Equatable, Sendable {
    /// The simulated work with this ticket lands: the executor says how it ended.
    case lands(FeedWork, ticket: Int)
    /// Tell the rules this (a retry is due, the hold ended) and carry out what they decide.
    case event(FeedEvent)
    /// One of the executor's own timers.
    case own(Timer)
}

/// One feed's runtime: its ``FeedController`` (the decisions), its one timer queue, and the work in flight
/// (the ticket of each edge's load, of the refresh and of each scheduled retry, kept here only). The
/// playground's session, replay and lab and the app's `FeedModel` all run a feed through one of these and
/// supply only their leaf effects: each decision becomes a ``FeedStep`` in ``step(_:now:)``, the one switch
/// over the decisions that runs anything.
package struct FeedRuntime<Timer: FeedTimerKey>: Equatable, Sendable {
    /// The decisions.
    package var controller: FeedController
    /// The timers: the runtime's (retries, the hold, simulated landings) and the executor's own.
    package private(set) var timers = TimerQueue<Timer>()
    /// The next ticket (the playground's timer names count them: `pageLoad-3`).
    package private(set) var nextTicket = 1
    /// The ticket of each edge's load in flight.
    package private(set) var loads = PerEdge<Int?>(nil)
    /// The ticket of the refresh in flight.
    package private(set) var refresh: Int?
    /// The ticket of each edge's scheduled retry.
    package private(set) var retries = PerEdge<Int?>(nil)

    /// A runtime for one feed.
    package init(_ controller: FeedController) {
        self.controller = controller
    }

    /// Takes the next ticket (for the executor's own timers too, so the names count as before).
    package mutating func takeTicket() -> Int {
        defer { nextTicket += 1 }
        return nextTicket
    }

    /// The ticket of `work` in flight, if any.
    package func ticket(of work: FeedWork) -> Int? {
        switch work {
        case .load(let edge): loads[edge]
        case .refresh: refresh
        }
    }

    /// Asks the controller. Work that this event ends (it landed, failed, was dropped by the app, or its
    /// retry came due) is no longer in flight; what the controller decides is then carried out step by step.
    package mutating func decide<Generator: RandomNumberGenerator>(
        _ event: FeedEvent, now: Int64, using generator: inout Generator
    ) -> [FeedDecision] {
        end(by: event)
        return controller.decide(event, now: now, using: &generator)
    }

    /// The work `event` ends is no longer in flight. (``decide(_:now:using:)`` is this, then the controller's
    /// `decide`; a caller that asks the controller itself, the session on every geometry, calls the two: the
    /// runtime's generic `decide` would run unspecialized across the module boundary.)
    package mutating func end(by event: FeedEvent) {
        switch event {
        case .loadFinished(let edge, _, _), .loadFailed(let edge), .loadCancelled(let edge):
            drop(.load(edge))
        case .refreshFinished, .refreshFailed:
            drop(.refresh)
        case .retryDue(let edge):
            retries[edge] = nil
        case .geometryChanged, .loadRequested, .refreshRequested, .holdEnded, .tick, .itemsArrived, .feedChanged,
            .settingsChanged, .reset:
            break
        }
    }

    /// The executor's work ended without the controller's word (a jump dropped the loads): forgets its ticket
    /// and unqueues its landing; returns the landing timer that was queued, if any.
    @discardableResult
    package mutating func drop(_ work: FeedWork) -> Timer? {
        guard let ticket = ticket(of: work) else { return nil }
        switch work {
        case .load(let edge): loads[edge] = nil
        case .refresh: refresh = nil
        }
        let landing = Timer(.lands(work, ticket: ticket))
        return timers.cancel(landing) ? landing : nil
    }

    /// What the executor does for `decision`, with the runtime's bookkeeping done: the one switch over every
    /// decision that runs anything (a new ``FeedDecision`` fails to compile here until it is said).
    package mutating func step(_ decision: FeedDecision, now: Int64) -> FeedStep<Timer> {
        switch decision {
        case .loadStarted(let edge, let trigger):
            let ticket = takeTicket()
            loads[edge] = ticket
            return .startLoad(edge, trigger, ticket: ticket)
        case .loadCancelled(let edge, _):
            guard let ticket = loads[edge] else { return .none }
            return .cancelLoad(edge, ticket: ticket, landing: drop(.load(edge)))
        case .refreshStarted(let trigger):
            let ticket = takeTicket()
            refresh = ticket
            return .startRefresh(trigger, ticket: ticket)
        case .refreshCancelled:
            guard let ticket = refresh else { return .none }
            return .cancelRefresh(ticket: ticket, landing: drop(.refresh))
        case .retryScheduled(let edge, _, let delay, _):
            let ticket = takeTicket()
            retries[edge] = ticket
            return arm(Timer(.retry(edge, ticket: ticket)), after: delay, now: now)
        case .retryCancelled(let edge, _, _):
            guard let ticket = retries[edge] else { return .none }
            retries[edge] = nil
            let timer = Timer(.retry(edge, ticket: ticket))
            timers.cancel(timer)
            return .disarmed(timer)
        case .holdStarted(let ms):
            return arm(Timer(.hold), after: ms, now: now)
        case .holdCancelled:
            timers.cancel(Timer(.hold))
            return .disarmed(Timer(.hold))
        case .gaveUp(let edge, _, _):
            return .view(.gaveUp(edge))
        case .returnedToOrigin:
            return .view(.scrollToTop)
        case .followsArrivals:
            return .view(.scrollToBottom)
        case .retryStarted, .loadSuppressed, .ruleHeld, .exhausted, .loadIgnored, .refreshYielded, .refreshIgnored:
            return .none
        }
    }

    private mutating func arm(_ timer: Timer, after ms: Int, now: Int64) -> FeedStep<Timer> {
        timers.schedule(timer, at: now + Int64(ms))
        return .armed(timer, afterMs: ms)
    }

    /// An executor that simulates its work's latency: `work` with `ticket` lands `ms` from now. Returns the
    /// timer queued, for an executor on a real clock to arm.
    package mutating func lands(_ work: FeedWork, ticket: Int, after ms: Int, now: Int64) -> Timer {
        let timer = Timer(.lands(work, ticket: ticket))
        timers.schedule(timer, at: now + Int64(ms))
        return timer
    }

    /// Queues one of the executor's own timers `ms` from now (replacing one of the same name).
    package mutating func schedule(_ timer: Timer, after ms: Int, now: Int64) {
        timers.schedule(timer, at: now + Int64(ms))
    }

    /// Drops one of the executor's own timers; returns whether it was waiting.
    @discardableResult
    package mutating func cancel(_ timer: Timer) -> Bool {
        timers.cancel(timer)
    }

    /// Drops every timer of the executor's own that `matching` names (a replay stopping its clocks).
    package mutating func cancelAll(where matching: (Timer) -> Bool) {
        timers.cancelAll { $0.role == nil && matching($0) }
    }

    /// `timer` fell due: it leaves the queue, and the runtime says what it asks for. Nil for a timer that was
    /// not waiting (dropped before it fired, or fired already): nothing happens.
    package mutating func fire(_ timer: Timer) -> FiredTimer<Timer>? {
        guard timers.cancel(timer) else { return nil }
        switch timer.role {
        case .lands(let work, let ticket)?:
            return self.ticket(of: work) == ticket ? .lands(work, ticket: ticket) : nil
        case .retry(let edge, let ticket)?:
            return retries[edge] == ticket ? .event(.retryDue(edge)) : nil
        case .hold?:
            return .event(.holdEnded)
        case nil:
            return .own(timer)
        }
    }

    /// Where the work in flight and the controller disagree, if anywhere (for tests: the runtime is the only
    /// writer of both, so this is nil after every step).
    package var disagreement: String? {
        for edge in FeedEdge.allCases {
            if (loads[edge] != nil) != controller.isLoading(edge) { return "\(edge) load ticket \(loads[edge] as Any)" }
            let scheduled = if case .scheduled = controller.loads[edge].failure?.next { true } else { false }
            if (retries[edge] != nil) != scheduled { return "\(edge) retry ticket \(retries[edge] as Any)" }
        }
        if (refresh != nil) != controller.refresh.isInFlight { return "refresh ticket \(refresh as Any)" }
        return nil
    }
}

extension SessionState {
    // MARK: Asking the controller, carrying out what it decides

    /// Asks the controller about `event`, through the runtime. The feed's ends are said first, as the window
    /// has them now (they change as items land, trim and load back). A retry's jitter is drawn from the
    /// session's generator, between its latency and failure draws, so a replay draws the same.
    mutating func ask(_ event: FeedEvent) -> [FeedDecision] {
        runtime.controller.feedChanged(hasMore: hasMore, hasPrevious: hasPrevious)
        runtime.end(by: event)
        return runtime.controller.decide(event, now: now, using: &generator)
    }

    /// Carries out the controller's decisions, in order: the runtime turns each into a step (its one switch
    /// over the decisions), the session runs the step's leaf effect (the synthetic feed serves a load or a
    /// refresh, its latency and failure drawn now; a timer the runtime queued goes to the transport) and logs
    /// the decision as the event of its name. `geometrySeq`: the geometry that caused them, if one did.
    mutating func carryOut(_ decisions: [FeedDecision], geometrySeq seq: Int?, into effects: inout [SessionEffect]) {
        for decision in decisions {
            run(runtime.step(decision, now: now), geometrySeq: seq, into: &effects)
            log(decision, geometrySeq: seq, into: &effects)
        }
    }

    /// The session's leaf effect of one step.
    private mutating func run(_ step: FeedStep<TimerID>, geometrySeq seq: Int?, into effects: inout [SessionEffect]) {
        switch step {
        case .startLoad(let edge, let trigger, let ticket):
            startRequest(at: edge, trigger, ticket: ticket, geometrySeq: seq, into: &effects)
        case .cancelLoad(_, let ticket, let landing):
            drawnToFail.remove(ticket)
            if let landing { effects.append(.cancel(landing)) }
        case .startRefresh(let trigger, let ticket):
            startRefreshRequest(trigger, ticket: ticket, geometrySeq: seq, into: &effects)
        case .cancelRefresh(let ticket, let landing):
            drawnToFail.remove(ticket)
            if let landing { effects.append(.cancel(landing)) }
        case .armed(let timer, let delay):
            effects.append(.schedule(timer, afterMilliseconds: delay))
        case .disarmed(let timer):
            effects.append(.cancel(timer))
        case .view(let action):
            switch action {
            case .scrollToTop: effects.append(.send(.command(name: "scrollToTop")))
            // The arrival's own log says so (`messageArrived`, `follow`), then `scrollToBottom`.
            case .scrollToBottom: effects.append(.send(.command(name: "scrollToBottom")))
            // The log's `gaveUp` row is the page's Retry row.
            case .gaveUp: break
            }
        case .none:
            break
        }
    }

    /// Logs one decision as the event of its name, with the session's fields.
    private mutating func log(_ decision: FeedDecision, geometrySeq seq: Int?, into effects: inout [SessionEffect]) {
        switch decision {
        case .loadStarted, .refreshStarted:
            // Logged as the synthetic feed starts it, with its drawn latency.
            break
        case .retryStarted(let edge, let trigger, let attempt, let perSecond, let retry):
            var data: [String: JSONValue] = [
                "page": .int(edges[edge].nextPage), "trigger": JSONValue(trigger), "attempt": .int(attempt),
                "perSecond": .int(perSecond),
            ]
            if let retry { data["retry"] = .int(retry) }
            effects.append(.log(LogEntry(edge.events.retryStarted, geometrySeq: seq, data)))
        case .loadSuppressed(let edge, let trigger, let reason):
            var data: [String: JSONValue] = ["trigger": JSONValue(trigger), "reason": JSONValue(Reason(reason))]
            // Held back by a load or a failed page: that page. (While refreshing, no page is in question.)
            if reason != .refreshing { data["page"] = .int(edges[edge].nextPage) }
            effects.append(.log(LogEntry(edge.events.suppressed, geometrySeq: seq, data)))
        case .ruleHeld(let edge):
            // The top rule of a feed without a top edge is held quietly; any other rule waits for the jump.
            guard edge == .bottom || topRuleIsLive else { return }
            suppressForJump(edge, geometrySeq: seq, into: &effects)
        case .exhausted(let edge):
            effects.append(
                .log(LogEntry(edge.events.exhausted, geometrySeq: seq, ["total": .int(window.items.count)])))
        case .loadIgnored(let edge, let trigger):
            effects.append(
                .log(
                    LogEntry(
                        edge.events.ignored,
                        [
                            "trigger": JSONValue(trigger),
                            "reason": JSONValue(Reason.retryCancellation(.feedExhausted)),
                            "total": .int(window.items.count),
                        ])))
        case .loadCancelled(let edge, let reason):
            logCancel(at: edge, reason: Reason(reason), into: &effects)
        case .retryScheduled(let edge, let retry, let delay, let failures):
            effects.append(
                .log(
                    LogEntry(
                        edge.events.retryScheduled,
                        [
                            "page": .int(edges[edge].nextPage), "retry": .int(retry),
                            "retryMax": .int(config.rules.retryMax),
                            "delayMs": .int(delay), "failures": .int(failures),
                        ])))
        case .retryCancelled(let edge, let retry, let reason):
            effects.append(
                .log(
                    LogEntry(
                        edge.events.retryCancelled,
                        ["page": .int(edges[edge].nextPage), "retry": .int(retry), "reason": JSONValue(Reason(reason))])
                ))
        case .gaveUp(let edge, let failures, let retries):
            effects.append(
                .log(
                    LogEntry(
                        edge.events.gaveUp,
                        ["page": .int(edges[edge].nextPage), "failures": .int(failures), "retries": .int(retries)])))
        case .refreshYielded(let trigger):
            effects.append(
                .log(
                    LogEntry(
                        .refreshYielded, geometrySeq: seq,
                        [
                            "trigger": JSONValue(trigger), "reason": JSONValue(Reason.hasPrevious),
                            "wins": "loadPrevious",
                        ])))
        case .refreshIgnored(let trigger):
            effects.append(
                .log(
                    LogEntry(
                        .refreshIgnored, ["trigger": JSONValue(trigger), "reason": JSONValue(Reason.refreshInFlight)])))
        case .holdStarted, .holdCancelled, .refreshCancelled, .followsArrivals:
            // The page sees them in `state` (and `messageArrived` says a follow).
            break
        case .returnedToOrigin:
            effects.append(.log(LogEntry(.scrollToTop, geometrySeq: seq)))
        }
    }

    /// A load the controller started, served by the synthetic feed: its outcome is drawn now, its landing
    /// queued in the runtime.
    private mutating func startRequest(
        at edge: FeedEdge, _ trigger: FeedTrigger, ticket: Int, geometrySeq seq: Int?,
        into effects: inout [SessionEffect]
    ) {
        let latency = drawLatency(config.loadLatencyMs)
        if drawFailure() { drawnToFail.insert(ticket) }
        var data: [String: JSONValue] = [
            "page": .int(edges[edge].nextPage), "trigger": JSONValue(trigger), "latencyMs": .int(latency),
        ]
        if let geometry = lastGeometry?.geometry.along(config.rules.axis), geometry.contentLength != 0 {
            if edge == .bottom {
                data["distanceToBottom"] = .number(geometry.distanceToBottom)
            } else {
                data["distanceToTop"] = .number(geometry.distanceToTop)
            }
        }
        effects.append(.log(LogEntry(edge.events.started, geometrySeq: seq, data)))
        let landing = runtime.lands(.load(edge), ticket: ticket, after: latency, now: now)
        effects.append(.schedule(landing, afterMilliseconds: latency))
    }

    /// A refresh the controller started, served by the synthetic feed: its outcome is drawn now.
    private mutating func startRefreshRequest(
        _ trigger: FeedTrigger, ticket: Int, geometrySeq seq: Int?, into effects: inout [SessionEffect]
    ) {
        let latency = drawLatency(config.refreshLatencyMs)
        if drawFailure() { drawnToFail.insert(ticket) }
        var data: [String: JSONValue] = ["trigger": JSONValue(trigger), "latencyMs": .int(latency)]
        if seq != nil { data["distance"] = .number(controller.verdict.pull.distance) }
        effects.append(.log(LogEntry(.refreshStarted, geometrySeq: seq, data)))
        let landing = runtime.lands(.refresh, ticket: ticket, after: latency, now: now)
        effects.append(.schedule(landing, afterMilliseconds: latency))
    }

    /// The session drops the load in flight at `edge` itself (a jump): the runtime forgets it, its landing
    /// leaves the transport, and the log says why.
    mutating func dropRequest(at edge: FeedEdge, reason: Reason, into effects: inout [SessionEffect]) {
        guard let ticket = runtime.loads[edge] else { return }
        drawnToFail.remove(ticket)
        if let landing = runtime.drop(.load(edge)) { effects.append(.cancel(landing)) }
        logCancel(at: edge, reason: reason, into: &effects)
    }

    private func logCancel(at edge: FeedEdge, reason: Reason, into effects: inout [SessionEffect]) {
        effects.append(
            .log(LogEntry(edge.events.cancelled, ["page": .int(edges[edge].nextPage), "reason": JSONValue(reason)])))
    }

    /// Whether the top rule may load: a feed that opened at its first item has nothing above it and its top
    /// rule stays quiet there (a bounded window's top rule loads back what it trimmed, while something is
    /// above).
    var topRuleIsLive: Bool { config.twoWay || hasPrevious }

    /// The rules the controller holds back: both while a jump is under way (the edges are the jump's doing),
    /// the top one quietly while it is not live.
    var heldRules: Set<FeedEdge> {
        var held: Set<FeedEdge> = jump == .idle ? [] : [.bottom, .top]
        if !topRuleIsLive { held.insert(.top) }
        return held
    }

    /// Gives the controller ``heldRules`` before a geometry is decided. The set is built only when the
    /// controller's differs: building it (an allocation and an edge's hash) on every geometry cost about
    /// 1,100 instructions a message, and the held rules change only when a jump starts or ends or the top
    /// rule comes alive.
    mutating func holdRules() {
        let bottom = jump != .idle
        let top = bottom || !topRuleIsLive
        let held = controller.heldRules
        let wanted = (bottom ? 1 : 0) + (top ? 1 : 0)
        // A set of edges with as many members as wanted is the wanted one, but for a single member.
        let same = held.count == wanted && (wanted != 1 || held.first == (top ? .top : .bottom))
        if !same { controller.heldRules = heldRules }
    }
}

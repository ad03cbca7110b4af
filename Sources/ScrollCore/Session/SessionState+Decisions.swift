extension SessionState {
    // MARK: Asking the controller, carrying out what it decides

    /// Asks the controller about `event`. The feed's ends are said first, as the window has them now (they
    /// change as items land, trim and load back). A retry's jitter is drawn from the session's generator,
    /// between its latency and failure draws, so a replay draws the same.
    mutating func ask(_ event: FeedEvent) -> [FeedDecision] {
        controller.feedChanged(hasMore: hasMore, hasPrevious: hasPrevious)
        return controller.decide(event, now: now, using: &generator)
    }

    /// Carries out the controller's decisions, in order: a load or refresh it starts is served by the
    /// synthetic feed (its latency and failure drawn now, its timer scheduled), a retry it schedules gets a
    /// timer, what it cancels loses its timer, and each decision is logged as the event of its name.
    /// `geometrySeq`: the geometry that caused them, if one did.
    mutating func carryOut(_ decisions: [FeedDecision], geometrySeq seq: Int?, into effects: inout [SessionEffect]) {
        for decision in decisions {
            carryOut(decision, geometrySeq: seq, into: &effects)
        }
    }

    private mutating func carryOut(
        _ decision: FeedDecision, geometrySeq seq: Int?, into effects: inout [SessionEffect]
    ) {
        switch decision {
        case .loadStarted(let edge, let trigger):
            startRequest(at: edge, trigger, geometrySeq: seq, into: &effects)
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
                            "trigger": JSONValue(trigger), "reason": JSONValue(Reason.feedExhausted),
                            "total": .int(window.items.count),
                        ])))
        case .loadCancelled(let edge, let reason):
            cancelRequest(at: edge, reason: Reason(reason), into: &effects)
        case .retryScheduled(let edge, let retry, let delay, let failures):
            let token = takeToken()
            edges[edge].retryToken = token
            effects.append(.schedule(edge.retryTimer(token), afterMilliseconds: delay))
            effects.append(
                .log(
                    LogEntry(
                        edge.events.retryScheduled,
                        [
                            "page": .int(edges[edge].nextPage), "retry": .int(retry), "retryMax": .int(config.retryMax),
                            "delayMs": .int(delay), "failures": .int(failures),
                        ])))
        case .retryCancelled(let edge, let retry, let reason):
            if let token = edges[edge].retryToken { effects.append(.cancel(edge.retryTimer(token))) }
            edges[edge].retryToken = nil
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
        case .refreshStarted(let trigger):
            startRefreshRequest(trigger, geometrySeq: seq, into: &effects)
        case .holdStarted(let ms):
            effects.append(.schedule(.refreshHold, afterMilliseconds: ms))
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
        case .refreshCancelled:
            if let request = refreshRequest { effects.append(.cancel(.refresh(request.token))) }
            refreshRequest = nil
        case .holdCancelled:
            effects.append(.cancel(.refreshHold))
        case .returnedToOrigin:
            effects.append(.send(.command(name: "scrollToTop")))
            effects.append(.log(LogEntry(.scrollToTop, geometrySeq: seq)))
        case .followsArrivals:
            // The arrival's own log says so (`messageArrived`, `follow`), then `scrollToBottom`.
            effects.append(.send(.command(name: "scrollToBottom")))
        }
    }

    /// A load the controller started, served by the synthetic feed: its outcome is drawn now.
    private mutating func startRequest(
        at edge: FeedEdge, _ trigger: FeedTrigger, geometrySeq seq: Int?, into effects: inout [SessionEffect]
    ) {
        let latency = drawLatency(config.loadLatencyMs)
        let request = SimulatedRequest(token: takeToken(), willFail: drawFailure())
        edges[edge].request = request
        // A retry that starts is the scheduled one (its timer fired) or replaced it (cancelled before).
        edges[edge].retryToken = nil
        var data: [String: JSONValue] = [
            "page": .int(edges[edge].nextPage), "trigger": JSONValue(trigger), "latencyMs": .int(latency),
        ]
        if let geometry = lastGeometry?.geometry.along(config.axis), geometry.contentLength != 0 {
            if edge == .bottom {
                data["distanceToBottom"] = .number(geometry.distanceToBottom)
            } else {
                data["distanceToTop"] = .number(geometry.distanceToTop)
            }
        }
        effects.append(.log(LogEntry(edge.events.started, geometrySeq: seq, data)))
        effects.append(.schedule(edge.loadTimer(request.token), afterMilliseconds: latency))
    }

    /// A refresh the controller started, served by the synthetic feed: its outcome is drawn now.
    private mutating func startRefreshRequest(
        _ trigger: FeedTrigger, geometrySeq seq: Int?, into effects: inout [SessionEffect]
    ) {
        let latency = drawLatency(config.refreshLatencyMs)
        let request = SimulatedRequest(token: takeToken(), willFail: drawFailure())
        refreshRequest = request
        var data: [String: JSONValue] = ["trigger": JSONValue(trigger), "latencyMs": .int(latency)]
        if seq != nil { data["distance"] = .number(controller.verdict.pull.distance) }
        effects.append(.log(LogEntry(.refreshStarted, geometrySeq: seq, data)))
        effects.append(.schedule(.refresh(request.token), afterMilliseconds: latency))
    }

    /// Drops the load in flight at `edge` (its timer, if it still fires, is not recognised) and says why.
    mutating func cancelRequest(at edge: FeedEdge, reason: Reason, into effects: inout [SessionEffect]) {
        guard let request = edges[edge].request else { return }
        edges[edge].request = nil
        effects.append(.cancel(edge.loadTimer(request.token)))
        effects.append(
            .log(LogEntry(edge.events.cancelled, ["page": .int(edges[edge].nextPage), "reason": JSONValue(reason)])))
    }

    /// The synthetic side follows the controller: a request exactly while the controller's load (or refresh)
    /// is in flight, a retry timer exactly while it has a retry scheduled. Only a bug in the reducer can break
    /// this, no input can, and a session that went on would ignore its own timers; checked in release builds
    /// too, at the cost of a few comparisons per event.
    func checkTheSyntheticSideFollowsTheController() {
        for edge in FeedEdge.allCases {
            precondition(
                (edges[edge].request != nil) == controller.isLoading(edge), "\(edge) request out of step with its load")
            let scheduled = if case .scheduled = controller.loads[edge].failure?.next { true } else { false }
            precondition((edges[edge].retryToken != nil) == scheduled, "\(edge) retry timer out of step with its retry")
        }
        precondition((refreshRequest != nil) == controller.refresh.isInFlight, "refresh request out of step")
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

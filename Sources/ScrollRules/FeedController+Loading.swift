extension FeedController {
    // MARK: Page loads, at either edge

    /// The edge's rule fired: its page loads, unless the app holds the rule.
    mutating func ruleFired(_ edge: FeedEdge, _ turn: inout Turn) {
        if heldRules.contains(edge) {
            turn.decide(.ruleHeld(edge))
        } else {
            load(edge, edge == .bottom ? .bottom : .top, &turn)
        }
    }

    /// Something asks `edge` for a page: one load per edge at a time, none past the feed's end or start, the
    /// refresh's and the retry policy's guards, then the load starts.
    mutating func load(_ edge: FeedEdge, _ trigger: FeedTrigger, _ turn: inout Turn) {
        // A load the app cannot run is never started: it would stay in flight for ever.
        guard canLoad(edge) else { return }
        let failure = loads[edge].failure
        let ask: LoadAsk = trigger == .manual ? .person : trigger == .retry ? .retry : .rule
        let admission = settings.behavior.admitLoad(
            ask, inFlight: loads[edge].inFlight != nil, hasMore: hasItems(beyond: edge), refreshing: isRefreshing,
            retry: failure?.next.status)
        switch admission {
        case .inFlight:
            guard var load = loads[edge].inFlight, !load.suppressionNoted else { return }
            load.suppressionNoted = true
            loads[edge] = .inFlight(load)
            turn.decide(.loadSuppressed(edge, trigger: trigger, reason: .loadInFlight))
        case .exhausted:
            if let failure {
                cancelRetry(of: failure, at: edge, .feedExhausted, &turn)
                loads[edge] = .idle
            }
            if loads[edge] != .exhausted {
                loads[edge] = .exhausted
                turn.decide(.exhausted(edge))
            } else if trigger == .manual {
                // A person pressed Load more: say why nothing happens (the edge rule stays quiet).
                turn.decide(.loadIgnored(edge, trigger: trigger))
            }
        case .refreshing(let reschedulesRetry):
            turn.decide(.loadSuppressed(edge, trigger: trigger, reason: .refreshing))
            // The retry's turn comes again after a fresh delay: dropping it would stall the feed.
            if reschedulesRetry, var failure, case .scheduled(let retry) = failure.next {
                scheduleRetry(&failure, number: retry.number, at: edge, &turn)
                loads[edge] = .failed(failure)
            }
        case .retryScheduled, .gaveUp:
            // A scheduled retry holds the edge rule back (firing too would be the request loop); after giving
            // up only a person may retry. Said once per step.
            guard var held = failure, !held.suppressionNoted else { return }
            held.suppressionNoted = true
            loads[edge] = .failed(held)
            let reason: LoadSuppression = held.next == .gaveUp ? .gaveUp : .retryScheduled
            turn.decide(.loadSuppressed(edge, trigger: trigger, reason: reason))
        case .start(let abandonsRetry):
            if abandonsRetry, let failure { cancelRetry(of: failure, at: edge, .manualLoad, &turn) }
            start(edge, trigger, after: failure, &turn)
        }
    }

    /// Starts the load; a page that failed before carries its history, and says which try this is and how
    /// many loads of the page started in the last second.
    private mutating func start(
        _ edge: FeedEdge, _ trigger: FeedTrigger, after failure: LoadFailure?,
        _ turn: inout Turn
    ) {
        var load = PageLoad(recentStarts: [turn.now])
        if let failure {
            load.failures = failure.failures
            load.recentStarts = failure.recentStarts.filter { turn.now - $0 < 1000 } + [turn.now]
            var retry: Int?
            switch (trigger, failure.next) {
            case (.retry, .scheduled(let scheduled)):
                load.retries = scheduled.number
                retry = scheduled.number
            case (.manual, _):
                // A person asked: the automatic retries start over.
                load.retries = 0
            default:
                load.retries = failure.retries
            }
            turn.decide(
                .retryStarted(
                    edge, trigger: trigger, attempt: failure.failures + 1, perSecond: load.recentStarts.count,
                    retry: retry))
        }
        loads[edge] = .inFlight(load)
        turn.decide(.loadStarted(edge, trigger: trigger))
    }

    /// The load at `edge` landed. `shown`: the view shows it, so presets that re-arm evaluate the edge
    /// rule afresh on the next geometry.
    mutating func land(_ edge: FeedEdge, hasMore more: Bool, shown: Bool) {
        guard loads[edge].inFlight != nil else { return }
        loads[edge] = .idle
        if edge == .bottom { hasMore = more } else { hasPrevious = more }
        if shown { rearm(edge) }
    }

    /// The load at `edge` failed: the retry policy decides about its page.
    mutating func fail(_ edge: FeedEdge, _ turn: inout Turn) {
        guard let load = loads[edge].inFlight else { return }
        var failure = LoadFailure(
            failures: load.failures + 1, retries: load.retries, recentStarts: load.recentStarts, next: .manual)
        decideRetry(&failure, at: edge, &turn)
        loads[edge] = .failed(failure)
    }
}

extension SessionState {
    /// The retry policy's decision about a page that just failed (`retryPolicy`): wait for a person, do
    /// nothing, schedule the next automatic retry, or give up.
    mutating func decideRetry(_ failure: inout LoadFailure, at edge: FeedEdge, into effects: inout [SessionEffect]) {
        failure.suppressionLogged = false
        switch config.feedSettings.retryDecision(afterRetries: failure.retries) {
        case .manual:
            failure.next = .manual
        case .noRetry:
            failure.next = .noRetry
        case .giveUp:
            failure.next = .gaveUp
            effects.append(
                .log(
                    LogEntry(
                        edge.events.gaveUp,
                        [
                            "page": .int(failure.page), "failures": .int(failure.failures),
                            "retries": .int(failure.retries),
                        ])))
        case .retry(let number):
            scheduleRetry(&failure, number: number, at: edge, into: &effects)
        }
    }

    /// Schedules automatic retry `number` of the failed page after its backoff delay.
    mutating func scheduleRetry(
        _ failure: inout LoadFailure, number: Int, at edge: FeedEdge, into effects: inout [SessionEffect]
    ) {
        let delay = retryDelay(number)
        let retry = ScheduledRetry(token: takeToken(), number: number, due: now + Int64(delay))
        failure.next = .scheduled(retry)
        failure.suppressionLogged = false
        effects.append(.schedule(edge.retryTimer(retry.token), afterMilliseconds: delay))
        effects.append(
            .log(
                LogEntry(
                    edge.events.retryScheduled,
                    [
                        "page": .int(failure.page), "retry": .int(number), "retryMax": .int(config.retryMax),
                        "delayMs": .int(delay), "failures": .int(failure.failures),
                    ])))
    }

    /// The delay before retry `number` (1-based), the rules' backoff with its jitter drawn from the seeded generator.
    mutating func retryDelay(_ number: Int) -> Int {
        config.feedSettings.retryDelay(number) { half in Int(generator.next() % UInt64(half + 1)) }
    }

    /// A trigger the retry policy held back (a scheduled retry holds back the edge rule, since firing too
    /// would be the request loop; after giving up only a person may retry) is logged once per step.
    mutating func noteRetryHeldBack(
        _ trigger: Trigger, failure: LoadFailure, at edge: FeedEdge, geometrySeq: Int?,
        into effects: inout [SessionEffect]
    ) {
        guard !failure.suppressionLogged else { return }
        let reason: Reason = failure.next == .gaveUp ? .gaveUp : .retryScheduled
        var logged = failure
        logged.suppressionLogged = true
        edges[edge].load = .failed(logged)
        effects.append(
            .log(
                LogEntry(
                    edge.events.suppressed, geometrySeq: geometrySeq,
                    ["trigger": JSONValue(trigger), "reason": JSONValue(reason), "page": .int(failure.page)])))
    }

    /// Cancels the failed page's scheduled retry, if it has one, and says why.
    mutating func abandonRetry(
        _ failure: LoadFailure, reason: Reason, at edge: FeedEdge, into effects: inout [SessionEffect]
    ) {
        guard case .scheduled(let retry) = failure.next else { return }
        effects.append(.cancel(edge.retryTimer(retry.token)))
        effects.append(
            .log(
                LogEntry(
                    edge.events.retryCancelled,
                    ["page": .int(failure.page), "retry": .int(retry.number), "reason": JSONValue(reason)])))
    }

    /// A load of a page that failed before is starting: it carries the page's history, and the log says
    /// which try it is and how many loads of the page started in the last second.
    mutating func noteRetryStarted(
        _ load: inout PageLoad, after failure: LoadFailure, trigger: Trigger, at edge: FeedEdge, geometrySeq: Int?,
        into effects: inout [SessionEffect]
    ) {
        load.failures = failure.failures
        load.recentStarts = failure.recentStarts.filter { now - $0 < 1000 } + [now]
        var data: [String: JSONValue] = [
            "page": .int(load.page), "trigger": JSONValue(trigger), "attempt": .int(failure.failures + 1),
            "perSecond": .int(load.recentStarts.count),
        ]
        switch (trigger, failure.next) {
        case (.retry, .scheduled(let retry)):
            load.retries = retry.number
            data["retry"] = .int(retry.number)
        case (.manual, _):
            // A person asked: the automatic retries start over.
            load.retries = 0
        default:
            load.retries = failure.retries
        }
        effects.append(.log(LogEntry(edge.events.retryStarted, geometrySeq: geometrySeq, data)))
    }

    /// `state.loadFailure` for a failed page.
    func loadFailureState(_ failure: LoadFailure) -> LoadFailureState {
        switch failure.next {
        case .manual:
            LoadFailureState(page: failure.page, failures: failure.failures, next: .manual)
        case .noRetry:
            LoadFailureState(page: failure.page, failures: failure.failures, next: .none)
        case .scheduled(let retry):
            LoadFailureState(
                page: failure.page, failures: failure.failures, next: .scheduled, retry: retry.number,
                retryMax: config.retryMax, retryInMs: Int(max(0, retry.due - now)))
        case .gaveUp:
            LoadFailureState(
                page: failure.page, failures: failure.failures, next: .gaveUp, retryMax: config.retryMax)
        }
    }
}

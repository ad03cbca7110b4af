extension FeedController {
    // MARK: The retry policy

    /// The retry policy's decision about a page that just failed (`retryPolicy`): wait for a person, do
    /// nothing, schedule the next automatic retry, or give up.
    mutating func decideRetry(
        _ failure: inout LoadFailure, at edge: FeedEdge, _ turn: inout Turn
    ) {
        failure.suppressionNoted = false
        switch settings.retryDecision(afterRetries: failure.retries) {
        case .manual:
            failure.next = .manual
        case .noRetry:
            failure.next = .noRetry
        case .giveUp:
            failure.next = .gaveUp
            turn.decide(.gaveUp(edge, failures: failure.failures, retries: failure.retries))
        case .retry(let number):
            scheduleRetry(&failure, number: number, at: edge, &turn)
        }
    }

    /// Schedules automatic retry `number` of the failed page after its backoff delay, jitter drawn now.
    mutating func scheduleRetry(
        _ failure: inout LoadFailure, number: Int, at edge: FeedEdge, _ turn: inout Turn
    ) {
        let delay = settings.retryDelay(number) { half in turn.jitter(half) }
        failure.next = .scheduled(ScheduledRetry(number: number, due: turn.now + Int64(delay)))
        failure.suppressionNoted = false
        turn.decide(.retryScheduled(edge, retry: number, delayMs: delay, failures: failure.failures))
    }

    /// Drops the failed page's scheduled retry, if it has one, and says why.
    func cancelRetry(
        of failure: LoadFailure, at edge: FeedEdge, _ reason: RetryCancellation,
        _ turn: inout Turn
    ) {
        guard case .scheduled(let retry) = failure.next else { return }
        turn.decide(.retryCancelled(edge, retry: retry.number, reason: reason))
    }

    /// The scheduled retry at `edge` is due: it asks for the page as the retry policy's retry.
    mutating func retryDue(_ edge: FeedEdge, _ turn: inout Turn) {
        guard case .scheduled = loads[edge].failure?.next else { return }
        load(edge, .retry, &turn)
    }

    /// Runs what was due by the turn's clock: the end of the fixed hold, then each edge's scheduled retry.
    mutating func runWhatIsDue(_ turn: inout Turn) {
        if let ends = refresh.holdEnds, ends <= turn.now { endHold(&turn) }
        for edge in FeedEdge.allCases {
            guard case .scheduled(let retry) = loads[edge].failure?.next, retry.due <= turn.now else { continue }
            load(edge, .retry, &turn)
        }
    }
}

/// One thing a `FeedController` decided, with its reason, in the order it decided them: the actions an app
/// carries out (``action``) and everything it held back, scheduled, cancelled or ignored. The playground's
/// session logs each as the event its ``description`` names, with the same fields, so an app that logs
/// them reads like the playground's log.
public enum FeedDecision: Equatable, Hashable, Sendable {
    // MARK: Page loads

    /// A page load starts at the edge: `loadMore` (bottom) or `loadPrevious` (top).
    case loadStarted(FeedEdge, trigger: FeedTrigger)
    /// The load starting next is another try of a page whose loads failed: `attempt` counts this one (2: the
    /// first try after a failure), `perSecond` the page's loads started in the last second, this one
    /// included; `retry` is the automatic retry it is, nil when a person or the edge rule asked.
    case retryStarted(FeedEdge, trigger: FeedTrigger, attempt: Int, perSecond: Int, retry: Int?)
    /// An ask loaded nothing, and why. Decided once per load in flight and once per retry step (a held
    /// finger would say it on every frame), every time while refreshing.
    case loadSuppressed(FeedEdge, trigger: FeedTrigger, reason: LoadSuppression)
    /// The edge's rule fired while the app holds it (``FeedController/heldRules``): nothing loads.
    case ruleHeld(FeedEdge)
    /// The feed has nothing more at the edge. Decided once, until the feed had more again.
    case exhausted(FeedEdge)
    /// A person asked at an edge already exhausted: nothing loads.
    case loadIgnored(FeedEdge, trigger: FeedTrigger)
    /// The load in flight at the edge is dropped: cancel it and do not report how it ends.
    case loadCancelled(FeedEdge, reason: LoadCancellation)

    // MARK: Retries of a failed page

    /// Automatic retry `retry` of the edge's failed page starts after `delayMs`; its page failed `failures`
    /// times in a row.
    case retryScheduled(FeedEdge, retry: Int, delayMs: Int, failures: Int)
    /// The scheduled retry `retry` of the edge's failed page is dropped.
    case retryCancelled(FeedEdge, retry: Int, reason: RetryCancellation)
    /// The retry policy gave up on the edge's failed page after `retries` automatic retries: only a person
    /// loads it again.
    case gaveUp(FeedEdge, failures: Int, retries: Int)

    // MARK: Refresh

    /// A refresh starts.
    case refreshStarted(trigger: FeedTrigger)
    /// The preset's fixed hold keeps the indicator for `ms`, whatever the refresh does.
    case holdStarted(ms: Int)
    /// Older items exist above: the preset loads those (a `loadPrevious` follows) instead of refreshing.
    case refreshYielded(trigger: FeedTrigger)
    /// A person asked for a refresh while one is in flight: nothing starts.
    case refreshIgnored(trigger: FeedTrigger)
    /// The refresh in flight is dropped (a reset): cancel it and do not report how it ends.
    case refreshCancelled
    /// The fixed hold is dropped (a reset).
    case holdCancelled

    // MARK: The view

    /// The content returned to its origin: scroll to the top (`refreshOffsetObservable`).
    case returnedToOrigin
    /// New items arrived while the reader was at the bottom: follow them.
    case followsArrivals

    /// What the app must do for this decision, if anything.
    public var action: FeedAction? {
        switch self {
        case .loadStarted(let edge, _): edge == .bottom ? .loadMore : .loadPrevious
        case .loadCancelled(.bottom, .refreshStarted): .cancelLoadMore
        case .retryScheduled(let edge, _, let delay, _): .retry(edge, after: delay)
        case .gaveUp(let edge, _, _): .gaveUp(edge)
        case .refreshStarted: .refresh
        case .holdStarted(let ms): .wake(after: ms)
        case .returnedToOrigin: .scrollToTop
        case .followsArrivals: .scrollToBottom
        case .retryStarted, .loadSuppressed, .ruleHeld, .exhausted, .loadIgnored, .loadCancelled, .retryCancelled,
            .refreshYielded, .refreshIgnored, .refreshCancelled, .holdCancelled:
            nil
        }
    }
}

/// What asked for a load or a refresh, as the playground's log names it (`data.trigger`).
public enum FeedTrigger: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The preset's bottom rule (or the end of a refresh that held its load back).
    case bottom
    /// The preset's top rule.
    case top
    /// The preset's pull rule.
    case pull
    /// A person: Load more, Load older, Retry, Refresh.
    case manual
    /// The retry policy's scheduled retry.
    case retry
}

/// Why an ask loaded nothing (`data.reason` of `loadMoreSuppressed`).
public enum LoadSuppression: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A page load is already in flight at the edge.
    case loadInFlight
    /// The refresh indicator shows and the preset loads no page meanwhile.
    case refreshing
    /// The page's last load failed and an automatic retry is scheduled: the retry loads it.
    case retryScheduled
    /// The retry policy gave up on the page: only a person loads it again.
    case gaveUp
}

/// Why a load in flight was dropped (`data.reason` of `loadMoreCancelled`).
public enum LoadCancellation: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A refresh started and the preset cancels the page load in flight.
    case refreshStarted
    /// The app reset the feed.
    case reset
}

/// Why a scheduled retry was dropped (`data.reason` of `loadMoreRetryCancelled`).
public enum RetryCancellation: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A person asked for the page before the retry: it loads at once.
    case manualLoad
    /// The feed has nothing more at the edge.
    case feedExhausted
    /// The retry policy changed: the new one decides afresh.
    case retryPolicyChanged
    /// The app reset the feed.
    case reset
}

extension FeedDecision: CustomStringConvertible {
    /// The decision as the playground logs it: the event's name and its fields from the controller,
    /// `loadMoreSuppressed(trigger: bottom, reason: loadInFlight)`.
    public var description: String {
        switch self {
        case .loadStarted(let edge, let trigger):
            "\(edge.logName("Started"))(trigger: \(trigger.rawValue))"
        case .retryStarted(let edge, let trigger, let attempt, let perSecond, let retry):
            "\(edge.logName("RetryStarted"))(trigger: \(trigger.rawValue), attempt: \(attempt), perSecond: \(perSecond)"
                + (retry.map { ", retry: \($0))" } ?? ")")
        case .loadSuppressed(let edge, let trigger, let reason):
            "\(edge.logName("Suppressed"))(trigger: \(trigger.rawValue), reason: \(reason.rawValue))"
        case .ruleHeld(let edge):
            "ruleHeld(\(edge.rawValue))"
        case .exhausted(let edge):
            edge == .bottom ? "feedExhausted" : "feedStartReached"
        case .loadIgnored(let edge, let trigger):
            "\(edge.logName("Ignored"))(trigger: \(trigger.rawValue), reason: feedExhausted)"
        case .loadCancelled(let edge, let reason):
            "\(edge.logName("Cancelled"))(reason: \(reason.rawValue))"
        case .retryScheduled(let edge, let retry, let delay, let failures):
            "\(edge.logName("RetryScheduled"))(retry: \(retry), delayMs: \(delay), failures: \(failures))"
        case .retryCancelled(let edge, let retry, let reason):
            "\(edge.logName("RetryCancelled"))(retry: \(retry), reason: \(reason.rawValue))"
        case .gaveUp(let edge, let failures, let retries):
            "\(edge.logName("GaveUp"))(failures: \(failures), retries: \(retries))"
        case .refreshStarted(let trigger):
            "refreshStarted(trigger: \(trigger.rawValue))"
        case .holdStarted(let ms):
            "holdStarted(ms: \(ms))"
        case .refreshYielded(let trigger):
            "refreshYielded(trigger: \(trigger.rawValue), reason: hasPrevious, wins: loadPrevious)"
        case .refreshIgnored(let trigger):
            "refreshIgnored(trigger: \(trigger.rawValue), reason: refreshInFlight)"
        case .refreshCancelled:
            "refreshCancelled"
        case .holdCancelled:
            "holdCancelled"
        case .returnedToOrigin:
            "scrollToTop"
        case .followsArrivals:
            "scrollToBottom"
        }
    }
}

extension FeedEdge {
    /// The playground's name of this edge's event `kind`: `loadMoreSuppressed`, `loadPreviousSuppressed`.
    fileprivate func logName(_ kind: String) -> String {
        self == .bottom ? "loadMore\(kind)" : "loadPrevious\(kind)"
    }
}

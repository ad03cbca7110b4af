extension FeedEdge {
    /// The events this edge's loads log.
    public var events: Events {
        switch self {
        case .bottom:
            Events(
                started: .loadMoreStarted, finished: .loadMoreFinished, failed: .loadMoreFailed,
                retryScheduled: .loadMoreRetryScheduled, retryStarted: .loadMoreRetryStarted,
                retryCancelled: .loadMoreRetryCancelled, gaveUp: .loadMoreGaveUp, cancelled: .loadMoreCancelled,
                suppressed: .loadMoreSuppressed, exhausted: .feedExhausted, ignored: .loadMoreIgnored,
                reached: .reachedBottom, left: .leftBottom)
        case .top:
            Events(
                started: .loadPreviousStarted, finished: .loadPreviousFinished, failed: .loadPreviousFailed,
                retryScheduled: .loadPreviousRetryScheduled, retryStarted: .loadPreviousRetryStarted,
                retryCancelled: .loadPreviousRetryCancelled, gaveUp: .loadPreviousGaveUp,
                cancelled: .loadPreviousCancelled, suppressed: .loadPreviousSuppressed, exhausted: .feedStartReached,
                ignored: .loadPreviousIgnored, reached: .reachedTop, left: .leftTop)
        }
    }

    /// The timer of a load from this edge.
    public func loadTimer(_ token: Int) -> TimerID {
        self == .bottom ? .pageLoad(token) : .previousLoad(token)
    }

    /// The timer of a scheduled retry at this edge.
    public func retryTimer(_ token: Int) -> TimerID {
        self == .bottom ? .loadRetry(token) : .previousRetry(token)
    }

    /// The trigger its edge rule reports.
    public var ruleTrigger: FeedTrigger { self == .bottom ? .bottom : .top }

    /// The names of one edge's events.
    public struct Events: Equatable, Sendable {
        public var started, finished, failed, retryScheduled, retryStarted, retryCancelled, gaveUp, cancelled,
            suppressed, exhausted, ignored, reached, left: EventName
    }
}

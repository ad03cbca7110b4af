/// An end of the feed where pages load: the bottom brings the next pages (`loadMore…` events), the top
/// the previous ones, older items prepended to a feed that opened in the middle (`loadPrevious…`). Both
/// share one machinery (`PageLoadPhase`, the edge trigger, the in-flight guard, the retry policy); this
/// type names what differs: the events, the timers and the data an edge reports.
public enum FeedEdge: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The end: next pages are appended.
    case bottom
    /// The start: previous (older) pages are prepended.
    case top

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
    public var ruleTrigger: Trigger { self == .bottom ? .bottom : .top }

    /// The names of one edge's events.
    public struct Events: Equatable, Sendable {
        public var started, finished, failed, retryScheduled, retryStarted, retryCancelled, gaveUp, cancelled,
            suppressed, exhausted, ignored, reached, left: EventName
    }
}

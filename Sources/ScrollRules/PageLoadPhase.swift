/// Where one edge's page load stands (``FeedController/loads``): nothing loading, one load in flight, its
/// last load failed, or the feed exhausted at that edge and said so.
package enum PageLoadPhase: Equatable, Sendable {
    /// No load in flight.
    case idle
    /// A page load is in flight.
    case inFlight(PageLoad)
    /// The edge's last load failed; the retry policy decided what happens next.
    case failed(LoadFailure)
    /// The feed has no more items at this edge and `.exhausted` was decided; the edge is idle again as soon
    /// as the feed has more there, and says so again only after that.
    case exhausted

    /// The load in flight, if any.
    public var inFlight: PageLoad? {
        if case .inFlight(let load) = self { load } else { nil }
    }

    /// The failed page, if the edge's last load failed.
    public var failure: LoadFailure? {
        if case .failed(let failure) = self { failure } else { nil }
    }
}

/// A page load in flight, with the history of its page when earlier loads of it failed.
package struct PageLoad: Equatable, Sendable {
    /// Earlier loads of this page that failed in a row.
    public internal(set) var failures = 0
    /// Automatic retries used for this page since a person last asked (`retryMax` bounds them).
    public internal(set) var retries = 0
    /// When this page's loads started in the last second, this one included (the caller's clock, ms).
    public internal(set) var recentStarts: [Int64] = []
    /// An ask held back by this load (`loadSuppressed`, `loadInFlight`) was decided: said once per load.
    public internal(set) var suppressionNoted = false
}

/// A page whose last load failed, and what happens next under the retry policy.
package struct LoadFailure: Equatable, Sendable {
    /// The loads of this page that failed in a row.
    public internal(set) var failures: Int
    /// The automatic retries used since the last time a person asked (`retryMax` bounds them).
    public internal(set) var retries: Int
    /// When this page's loads started in the last second (the caller's clock, ms): the request rate.
    public internal(set) var recentStarts: [Int64]
    /// What happens next.
    public internal(set) var next: RetryStep
    /// An ask held back by `next` (`loadSuppressed`, `retryScheduled` or `gaveUp`) was decided: said once
    /// per step.
    public internal(set) var suppressionNoted = false
}

/// The retry policy's decision about a failed page.
package enum RetryStep: Equatable, Sendable {
    /// `manual`: a person retries (a Retry row), or the preset's own edge rule loads the page again.
    case manual
    /// `none`: nothing retries and no Retry row; the preset's own edge rule may load the page again.
    case noRetry
    /// `backoff`: an automatic retry is scheduled; the edge rule waits for it.
    case scheduled(ScheduledRetry)
    /// `backoff` used up `retryMax` retries: only a person loads the page again.
    case gaveUp

    /// The step as the load gate sees it.
    public var status: RetryStatus {
        switch self {
        case .manual: .manual
        case .noRetry: .noRetry
        case .scheduled: .scheduled
        case .gaveUp: .gaveUp
        }
    }
}

/// An automatic retry waiting for its time.
package struct ScheduledRetry: Equatable, Sendable {
    /// Which retry it is, 1…`retryMax`.
    public var number: Int
    /// When it is due (the caller's clock, ms).
    public var due: Int64

    /// Retry `number`, due at `due`.
    public init(number: Int, due: Int64) {
        self.number = number
        self.due = due
    }
}

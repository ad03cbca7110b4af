/// A page whose last load failed, and what happens next under the retry policy.
public struct LoadFailure: Equatable, Sendable {
    /// The page that failed (the next page to load).
    public var page: Int
    /// The loads of this page that failed in a row.
    public var failures: Int
    /// The automatic retries used since the last time a person asked (`retryMax` bounds them).
    public var retries: Int
    /// When this page's loads started in the last second (core clock, ms): the request rate the log shows.
    public var recentStarts: [Int64]
    /// What happens next.
    public var next: RetryStep
    /// A bottom trigger held back by `next` has been logged (once per step keeps the log readable).
    public var suppressionLogged = false
}

/// The retry policy's decision about a failed page.
public enum RetryStep: Equatable, Sendable {
    /// `manual`: a person retries (the Retry row), or the preset's own bottom rule loads the page again.
    case manual
    /// `none`: nothing retries and no Retry row; the preset's own bottom rule may load the page again.
    case noRetry
    /// `backoff`: an automatic retry is scheduled; the bottom rule waits for it.
    case scheduled(ScheduledRetry)
    /// `backoff` used up `retryMax` retries: only a person (Load more, Retry) loads the page again.
    case gaveUp
}

/// An automatic retry waiting for its timer.
public struct ScheduledRetry: Equatable, Sendable {
    /// Identifies the retry's timer (`loadRetry-N`), so a late one is recognised.
    public var token: Int
    /// Which retry it is, 1…`retryMax`.
    public var number: Int
    /// When it fires (core clock, ms).
    public var due: Int64
}

extension RetryStep {
    /// The step as the rules' load gate sees it.
    public var status: RetryStatus {
        switch self {
        case .manual: .manual
        case .noRetry: .noRetry
        case .scheduled: .scheduled
        case .gaveUp: .gaveUp
        }
    }
}

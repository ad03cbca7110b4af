/// The failed page as `state.loadFailure` shows it: what the page draws at the end of the feed.
public struct LoadFailureState: Equatable, Sendable {
    /// What the page offers.
    public enum Next: String, Equatable, Sendable, CaseIterable {
        /// "Couldn't load page N · Retry" (`retryPolicy` `manual`).
        case manual
        /// "Couldn't load page N", no Retry (`retryPolicy` `none`).
        case none
        /// "Retrying in N s", counting down, with Retry now (`backoff`).
        case scheduled
        /// "Gave up on page N" with Retry (`backoff` used up `retryMax`).
        case gaveUp
    }

    /// The page that failed.
    public var page: Int
    /// Its loads that failed in a row.
    public var failures: Int
    public var next: Next
    /// `scheduled`: which retry comes, 1…`retryMax`.
    public var retry: Int?
    /// `scheduled`, `gaveUp`: the session's `retryMax`.
    public var retryMax: Int?
    /// `scheduled`: milliseconds until it starts, counted from when this state was made.
    public var retryInMs: Int?

    public init(
        page: Int, failures: Int, next: Next, retry: Int? = nil, retryMax: Int? = nil, retryInMs: Int? = nil
    ) {
        self.page = page
        self.failures = failures
        self.next = next
        self.retry = retry
        self.retryMax = retryMax
        self.retryInMs = retryInMs
    }
}

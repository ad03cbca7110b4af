/// What happens after a page load fails (the `retryPolicy` setting).
public enum RetryPolicy: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A person retries: the page shows the failed page as a row with Retry. The preset's own bottom rule
    /// may load the page again too (a level-triggered design then loops, an edge-triggered one stalls).
    case manual
    /// The server retries by itself after `retryBaseMs`, doubling up to `retryMaxMs` (jittered), at most
    /// `retryMax` times, then gives up; meanwhile the bottom rule waits for the retry instead of firing.
    case backoff
    /// Nothing retries and the page offers no Retry: only the preset's own bottom rule (or Load more)
    /// loads the page again.
    case noRetry = "none"
}

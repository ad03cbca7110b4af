/// Where one edge's page load stands (``EdgeState/load``): nothing loading, one load in flight, its last
/// load failed, or the feed exhausted at that edge and said so.
public enum PageLoadPhase: Equatable, Sendable {
    /// No load in flight.
    case idle
    /// A page load is in flight.
    case inFlight(PageLoad)
    /// The edge's last load failed; the retry policy decided what happens next.
    case failed(LoadFailure)
    /// The feed has no more items at this edge and `feedExhausted` (`feedStartReached` at the top) was
    /// logged; it is logged again only after the feed had more (a setting changed, a reset).
    case exhausted
}

/// A page load in flight: its outcome is drawn when it starts, so replays reproduce it.
public struct PageLoad: Equatable, Sendable {
    /// Identifies the load, so a late timer of a cancelled one is recognised.
    public var token: Int
    /// The page it loads.
    public var page: Int
    public var willFail: Bool
    /// A suppressed trigger has been logged for it (once per load keeps the log readable).
    public var suppressionLogged = false
    /// Earlier loads of this page that failed in a row.
    public var failures = 0
    /// Automatic retries used for this page since a person last asked.
    public var retries = 0
    /// When this page's loads started in the last second, this one included (core clock, ms).
    public var recentStarts: [Int64] = []
}

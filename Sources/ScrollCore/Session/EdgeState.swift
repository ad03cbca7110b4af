/// What the session keeps about one edge of the feed beside its runtime: the last page it loaded and what
/// the log last said of the edge's rule. (Whether a load is in flight, failed or exhausted is the
/// controller's, ``FeedController/loads``; its ticket and timers the runtime's; what the window trimmed
/// there the window's, ``FeedWindow/trimmed``.)
public struct EdgeState: Equatable, Sendable {
    /// The number of the last page loaded at this edge: at the bottom the opening page is 1, at the top
    /// the first previous page is 1 (0: none yet). The page a load or a failure is about is the next one.
    public var page = 0
    /// The preset's rule for this edge held on the last geometry the log spoke of (`reachedBottom`,
    /// `reachedTop`; the top edge's only while the feed has one).
    public var reached = false

    /// An edge before its first page: no page, its rule not reached, nothing in flight.
    public init() {}

    /// The page a load at this edge loads, or a failure there is about.
    public var nextPage: Int { page + 1 }
}

/// What the session keeps about one edge of the feed beside its controller's decisions: the last page it
/// loaded, what the log last said of the edge's rule, and the synthetic feed's side of the load and the
/// retry the controller has there. (Whether a load is in flight, failed or exhausted is the controller's:
/// ``FeedController/loads``; what the window trimmed there is the window's: ``FeedWindow/trimmed``.)
public struct EdgeState: Equatable, Sendable {
    /// The number of the last page loaded at this edge: at the bottom the opening page is 1, at the top
    /// the first previous page is 1 (0: none yet). The page a load or a failure is about is the next one.
    public var page = 0
    /// The preset's rule for this edge held on the last geometry the log spoke of (`reachedBottom`,
    /// `reachedTop`; the top edge's only while the feed has one).
    public var reached = false
    /// The load in flight, as the synthetic feed serves it: present exactly while the controller's load at
    /// this edge is in flight.
    public var request: SimulatedRequest?
    /// The timer token of the scheduled retry (`loadRetry-N`, `previousRetry-N`): present exactly while the
    /// controller has a retry scheduled at this edge.
    public var retryToken: Int?

    /// An edge before its first page: no page, its rule not reached, nothing in flight.
    public init() {}

    /// The page a load at this edge loads, or a failure there is about.
    public var nextPage: Int { page + 1 }
}

/// A load or refresh the controller started, as the playground's synthetic feed serves it: the token of the
/// timer that completes it (so a late timer of a cancelled one is recognised) and whether it was drawn to
/// fail. Both are drawn when it starts, so replays reproduce it.
public struct SimulatedRequest: Equatable, Sendable {
    /// Identifies the timer that completes it (`pageLoad-N`, `previousLoad-N`, `refresh-N`).
    public var token: Int
    /// The seeded failure rate made it fail.
    public var willFail: Bool
}

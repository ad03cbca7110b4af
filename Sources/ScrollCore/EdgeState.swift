/// What the session knows about one edge of the feed: its page load, the last page it loaded, and whether
/// the preset's rule for it held on the last geometry. (What the window trimmed there is the window's:
/// ``FeedWindow/trimmed``.)
public struct EdgeState: Equatable, Sendable {
    /// The edge's page load: idle, in flight, failed, or the feed exhausted there.
    public var load = PageLoadPhase.idle
    /// The number of the last page loaded at this edge: at the bottom the opening page is 1, at the top
    /// the first previous page is 1 (0: none yet).
    public var page = 0
    /// The preset's rule for this edge held on the last geometry (`reachedBottom`, `reachedTop`).
    public var reached = false

    /// An edge before its first page: idle, no page, its rule not reached.
    public init() {}

    /// The load in flight, if any.
    public var inFlight: PageLoad? {
        if case .inFlight(let load) = load { load } else { nil }
    }

    /// The failed page, if the edge's last load failed.
    public var failure: LoadFailure? {
        if case .failed(let failure) = load { failure } else { nil }
    }
}

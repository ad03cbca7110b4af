/// The `state` message.
///
/// It is built for every geometry and copied into the effect, the effects' array and out again, so it is kept
/// small (144 bytes, not 376): what a typical state never has (a load failure, the indicator's failures, a
/// `recordingStopped` text) lives in one shared box, nil when none of it is there, and the top edge's and the
/// indicator's flags and numbers are held as they are sent. Its members read and write as plain values.
public struct StateMessage: Equatable, Sendable {
    /// The `seq` of the last geometry the server applied.
    public var ack: Int?
    public var preset: Preset
    public var reachedBottom: Bool
    public var pull: PullState
    public var refreshing: Bool
    public var loadingNextPage: Bool
    public var hasMore: Bool
    public var itemCount: Int
    /// What the wire's `indicator` says (``indicator`` without its failures).
    private(set) var drawn: DrawnIndicator
    /// The content's origin in the scroll view's coordinate space (`offsetObserving` only).
    public var origin: ScrollPoint?
    /// A bounded window (`windowSize`): which of the session's items the page holds (nil: all of them).
    public var window: WindowState?
    /// ``topEdge`` without its load failure.
    private(set) var top: TopEdgeFlags?
    /// The rare members; nil when all of them are nil.
    private(set) var rare: Rare?

    public init(
        ack: Int?, preset: Preset, reachedBottom: Bool, pull: PullState, refreshing: Bool, loadingNextPage: Bool,
        hasMore: Bool, itemCount: Int, indicator: IndicatorState, origin: ScrollPoint? = nil,
        loadFailure: LoadFailureState? = nil, topEdge: TopEdgeState? = nil, window: WindowState? = nil,
        recordingStopped: String? = nil
    ) {
        self.ack = ack
        self.preset = preset
        self.reachedBottom = reachedBottom
        self.pull = pull
        self.refreshing = refreshing
        self.loadingNextPage = loadingNextPage
        self.hasMore = hasMore
        self.itemCount = itemCount
        drawn = DrawnIndicator(indicator)
        self.origin = origin
        self.window = window
        top = topEdge.map(TopEdgeFlags.init)
        rare = Rare.holding(
            Rare.Members(
                loadFailure: loadFailure, topLoadFailure: topEdge?.loadFailure, bottomFailure: indicator.bottomFailure,
                topFailure: indicator.topFailure, recordingStopped: recordingStopped))
    }

    /// How to draw the two indicators (`indicator` on the wire); a failed page goes as ``loadFailure``.
    public var indicator: IndicatorState {
        get {
            IndicatorState(
                topVisible: drawn.topVisible, topHeight: drawn.topHeight, topScale: drawn.topScale,
                topOpacity: drawn.topOpacity, bottomVisible: drawn.bottomVisible, bottomFailure: rare?.bottomFailure,
                topFailure: rare?.topFailure)
        }
        set {
            drawn = DrawnIndicator(newValue)
            change {
                $0.bottomFailure = newValue.bottomFailure
                $0.topFailure = newValue.topFailure
            }
        }
    }

    /// The failed page and what comes next (nil: the last load did not fail).
    public var loadFailure: LoadFailureState? {
        get { rare?.loadFailure }
        set { change { $0.loadFailure = newValue } }
    }

    /// A two-way feed's top edge (nil for a feed that starts at its first item).
    public var topEdge: TopEdgeState? {
        get {
            top.map {
                TopEdgeState(
                    reachedTop: $0.reachedTop, hasPrevious: $0.hasPrevious, loadingPreviousPage: $0.loadingPreviousPage,
                    loadFailure: rare?.topLoadFailure)
            }
        }
        set {
            top = newValue.map(TopEdgeFlags.init)
            change { $0.topLoadFailure = newValue?.loadFailure }
        }
    }

    /// Why the session's trace stopped (the log folder is full, `--max-log-bytes`); nil while it is recorded.
    public var recordingStopped: String? {
        get { rare?.recordingStopped }
        set { change { $0.recordingStopped = newValue } }
    }

    /// Replaces the box with a changed copy (boxes are shared, never changed in place).
    private mutating func change(_ body: (inout Rare.Members) -> Void) {
        var members = rare?.members ?? Rare.Members()
        body(&members)
        rare = Rare.holding(members)
    }

    /// The numbers and flags of the wire's `indicator`.
    struct DrawnIndicator: Equatable, Sendable {
        var topHeight: Double
        var topScale: Double
        var topOpacity: Double
        var topVisible: Bool
        var bottomVisible: Bool

        init(_ indicator: IndicatorState) {
            topHeight = indicator.topHeight
            topScale = indicator.topScale
            topOpacity = indicator.topOpacity
            topVisible = indicator.topVisible
            bottomVisible = indicator.bottomVisible
        }
    }

    /// The flags of the wire's `topEdge`.
    struct TopEdgeFlags: Equatable, Sendable {
        var reachedTop: Bool
        var hasPrevious: Bool
        var loadingPreviousPage: Bool

        init(_ top: TopEdgeState) {
            reachedTop = top.reachedTop
            hasPrevious = top.hasPrevious
            loadingPreviousPage = top.loadingPreviousPage
        }
    }

    /// The rare members, shared between copies: immutable, so a copy of the state only retains it.
    final class Rare: Equatable, Sendable {
        struct Members: Equatable, Sendable {
            var loadFailure: LoadFailureState?
            var topLoadFailure: LoadFailureState?
            var bottomFailure: IndicatorState.Failure?
            var topFailure: IndicatorState.Failure?
            var recordingStopped: String?
        }

        let members: Members

        var loadFailure: LoadFailureState? { members.loadFailure }
        var topLoadFailure: LoadFailureState? { members.topLoadFailure }
        var bottomFailure: IndicatorState.Failure? { members.bottomFailure }
        var topFailure: IndicatorState.Failure? { members.topFailure }
        var recordingStopped: String? { members.recordingStopped }

        init(_ members: Members) {
            self.members = members
        }

        /// A box for `members`, or none when all of them are nil (a typical state allocates nothing).
        static func holding(_ members: Members) -> Rare? {
            if members.loadFailure == nil, members.topLoadFailure == nil, members.bottomFailure == nil,
                members.topFailure == nil, members.recordingStopped == nil
            {
                return nil
            }
            return Rare(members)
        }

        static func == (lhs: Rare, rhs: Rare) -> Bool { lhs === rhs || lhs.members == rhs.members }
    }
}

/// The items a bounded window holds, as `state.window` shows it.
public struct WindowState: Equatable, Sendable {
    /// The index (0-based) in the session's items of the first item the page holds.
    public var start: Int
    /// How many items the page holds.
    public var count: Int
    /// The window's limit (`windowSize`; 0 once unbounded again).
    public var limit: Int

    public init(start: Int, count: Int, limit: Int) {
        self.start = start
        self.count = count
        self.limit = limit
    }
}

/// The top edge of a two-way feed, as `state.topEdge` shows it.
public struct TopEdgeState: Equatable, Sendable {
    /// The preset's top rule on the last geometry.
    public var reachedTop: Bool
    /// Whether older items exist above the first one held.
    public var hasPrevious: Bool
    /// Whether a load of the previous page is in flight.
    public var loadingPreviousPage: Bool
    /// The failed previous page and what comes next (nil: its last load did not fail).
    public var loadFailure: LoadFailureState?

    public init(reachedTop: Bool, hasPrevious: Bool, loadingPreviousPage: Bool, loadFailure: LoadFailureState? = nil) {
        self.reachedTop = reachedTop
        self.hasPrevious = hasPrevious
        self.loadingPreviousPage = loadingPreviousPage
        self.loadFailure = loadFailure
    }
}

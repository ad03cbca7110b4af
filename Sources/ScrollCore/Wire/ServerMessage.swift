/// A message from the server to the page.
public enum ServerMessage: Equatable, Sendable {
    /// The session is open: its id, resume token, settings, the presets on offer (what each has and does)
    /// and the event catalog (every event kind with its category); `recordingStopped` says why the server does
    /// not record it (its log folder is full), if it does not. (Boxed: once a session, and as large as its
    /// settings; unboxed it would make every message, and every effect, that large.)
    indirect case welcome(session: String, resume: String, config: ScrollConfig, recordingStopped: String? = nil)
    /// Items changed.
    case items(ItemsMessage)
    /// The authoritative scroll state.
    case state(StateMessage)
    /// One event record, live.
    case event(EventRecord)
    /// Something the page must do, e.g. `scrollToTop`.
    case command(name: String)
    /// The command `scrollToItem`: scroll so the item sits at the anchor (a `jump`); the page measures its
    /// rows and places it exactly, once it holds the item (the `items` that follow may bring it).
    case scrollToItem(id: String, anchor: JumpAnchor)
    /// A refused message.
    case error(ProtocolError)
    /// The answer to `ping`.
    case pong(id: JSONValue)

    /// The `type` of each message the server sends: what the encoder knows (docs/protocol.md lists them all).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case welcome, items, state, event, command, error, pong
    }

    /// This message's `type`.
    public var kind: Kind {
        switch self {
        case .welcome: .welcome
        case .items: .items
        case .state: .state
        case .event: .event
        case .command, .scrollToItem: .command
        case .error: .error
        case .pong: .pong
        }
    }

    /// Messages with the same key may replace each other in a backed-up send queue (only the newest
    /// `state` matters); nil means the message must never be dropped.
    public var coalescingKey: String? {
        if case .state = self { return "state" }
        return nil
    }

    /// The same message telling the page that its session is not recorded, or no longer (`welcome` and
    /// `state` carry the reason; other messages are unchanged). Only the server knows this, not the core.
    public func noting(recordingStopped reason: String) -> ServerMessage {
        switch self {
        case .welcome(let session, let resume, let config, _):
            return .welcome(session: session, resume: resume, config: config, recordingStopped: reason)
        case .state(var message):
            message.recordingStopped = reason
            return .state(message)
        case .items, .event, .command, .scrollToItem, .error, .pong:
            return self
        }
    }
}

/// The `items` message.
public struct ItemsMessage: Equatable, Sendable {
    /// How the items apply to what the page has.
    public enum Operation: String, Equatable, Sendable {
        /// The page's items become exactly these.
        case replace
        /// Add at the end.
        case append
        /// Add at the start.
        case prepend
        /// Remove `count` items at `edge` (a bounded window, `windowSize`): they are far from the viewport;
        /// the page keeps what the user sees.
        case trim
    }

    public var op: Operation
    /// Increases by one per items message of the session.
    public var rev: Int
    public var items: [FeedItem]
    /// The session's item count after this message.
    public var total: Int
    public var hasMore: Bool
    /// A prepend of older items (load previous): the page keeps what the user sees, even at the very top
    /// (a refresh's prepend at the top shows its new items instead). Sent only when true.
    public var older: Bool
    /// `trim`: where the items go (`top` or `bottom`) and how many; `items` is empty.
    public var trimmed: (edge: FeedEdge, count: Int)? {
        get { trimEdge.map { ($0, trimCount) } }
        set {
            trimEdge = newValue?.edge
            trimCount = newValue?.count ?? 0
        }
    }
    private var trimEdge: FeedEdge?
    private var trimCount = 0

    public init(op: Operation, rev: Int, items: [FeedItem], total: Int, hasMore: Bool, older: Bool = false) {
        self.op = op
        self.rev = rev
        self.items = items
        self.total = total
        self.hasMore = hasMore
        self.older = older
    }

    /// A `trim` of `count` items at `edge`.
    public static func trim(
        _ edge: FeedEdge, count: Int, rev: Int, total: Int, hasMore: Bool
    ) -> ItemsMessage {
        var message = ItemsMessage(op: .trim, rev: rev, items: [], total: total, hasMore: hasMore)
        message.trimmed = (edge, count)
        return message
    }
}

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

/// An event as the core decides it: the server adds `seq`, `time` and `session`.
public struct LogEntry: Equatable, Sendable {
    public var name: EventName
    /// The geometry that caused it, if one did.
    public var geometrySeq: Int?
    public var data: [String: JSONValue]

    public init(_ name: EventName, geometrySeq: Int? = nil, _ data: [String: JSONValue] = [:]) {
        self.name = name
        self.geometrySeq = geometrySeq
        self.data = data
    }
}

/// A complete event record.
public struct EventRecord: Equatable, Sendable {
    /// Increases across the whole server.
    public var seq: Int
    /// ISO-8601 with milliseconds.
    public var time: String
    public var session: String
    public var entry: LogEntry

    public init(seq: Int, time: String, session: String, entry: LogEntry) {
        self.seq = seq
        self.time = time
        self.session = session
        self.entry = entry
    }
}

/// The names of the server's events; each one's category and one-line meaning are in ``catalogEntry``
/// (EventName+Catalog.swift), the one list docs/events.md, docs/protocol.md and the page follow.
public enum EventName: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A session started with `hello`.
    case sessionOpened
    /// A reconnecting page got its session back.
    case sessionResumed
    /// A page took over a fork: a session rebuilt from a parent trace up to a moment (data: `parent`,
    /// `parentSession`, `at`, `delivered`, `rev`).
    case sessionForked
    /// A connection ended (data: close code, whether it is resumable).
    case sessionClosed
    /// Settings changed (data: the changed settings).
    case configChanged
    /// The preset's bottom rule became true.
    case reachedBottom
    /// The preset's bottom rule became false.
    case leftBottom
    /// A `reset` put the feed back to its first page (data: the item count it replaced).
    case sessionReset
    /// A page load began.
    case loadMoreStarted
    /// A page landed.
    case loadMoreFinished
    /// A page load failed; items are unchanged.
    case loadMoreFailed
    /// The retry policy scheduled an automatic retry of the failed page (data: `retry`, `delayMs`).
    case loadMoreRetryScheduled
    /// A load of a page that failed before began (data: `trigger`, `attempt`, and `perSecond`, the loads of
    /// that page started in the last second: a design without a policy shows its loop here).
    case loadMoreRetryStarted
    /// A scheduled retry was abandoned (a person pressed Load more, a reset, the policy or the feed changed).
    case loadMoreRetryCancelled
    /// The retry policy used up `retryMax` retries: only a person loads the page again.
    case loadMoreGaveUp
    /// A page load was abandoned (a refresh started, or a reset); its result is discarded.
    case loadMoreCancelled
    /// A load trigger arrived while a load could not start (one in flight, or a refresh).
    case loadMoreSuppressed
    /// The feed has no more items; logged once.
    case feedExhausted
    /// A manual `loadMore` after `feedExhausted` was logged: nothing to load.
    case loadMoreIgnored
    /// The content began to be pulled past its top.
    case pullStarted
    /// The pull reached the point where a release (or, for some presets, the pull itself) refreshes.
    case refreshEligible
    /// A refresh began.
    case refreshStarted
    /// A manual `refresh` while one is in flight: one refresh at a time.
    case refreshIgnored
    /// A refresh landed.
    case refreshFinished
    /// A refresh failed; items are unchanged.
    case refreshFailed
    /// The server told the page to scroll to the top.
    case scrollToTop
    /// The content origin changed (throttled to 10 per second).
    case offsetChanged
    /// Compare mode: presets disagree on the same geometry.
    case presetDisagreement
    /// Compare mode: the presets whose load or refresh rule fired on a geometry.
    case presetsFired
    /// A message was refused.
    case protocolError
    /// A session held for resume was dropped to make room: for a new one (`--max-sessions`), or to stay within
    /// `--max-held-bytes`.
    case sessionEvicted
    /// A closed session's trace was removed to keep the log folder under `--max-log-bytes` (data: `reason`,
    /// `bytes`, `maxLogBytes`).
    case traceRemoved
    /// A two-way feed's top rule became true (data: `distanceToTop`).
    case reachedTop
    /// A two-way feed's top rule became false.
    case leftTop
    /// A load of the previous (older) page began.
    case loadPreviousStarted
    /// A previous page landed, prepended with `older: true`.
    case loadPreviousFinished
    /// A load of the previous page failed; items are unchanged.
    case loadPreviousFailed
    /// The retry policy scheduled an automatic retry of the failed previous page.
    case loadPreviousRetryScheduled
    /// A load of a previous page that failed before began (data as `loadMoreRetryStarted`).
    case loadPreviousRetryStarted
    /// A scheduled retry of the previous page was abandoned.
    case loadPreviousRetryCancelled
    /// The retry policy used up `retryMax` retries of the previous page.
    case loadPreviousGaveUp
    /// A load of the previous page was abandoned (a reset); its result is discarded.
    case loadPreviousCancelled
    /// A top trigger arrived while a load of the previous page could not start.
    case loadPreviousSuppressed
    /// The feed's first item is loaded: nothing lies above; logged once.
    case feedStartReached
    /// A manual `loadPrevious` with nothing above: nothing to load.
    case loadPreviousIgnored
    /// A pull (or Refresh) while older items exist above: the preset loads those instead (data: trigger, reason).
    case refreshYielded
    /// A new message arrived at the bottom (data: `id`, `follow`: whether the view followed it, `held`).
    case messageArrived
    /// The server told the page to scroll to the bottom (`chat` opening, following a new message).
    case scrollToBottom
    /// The page rendered a prepend and its anchor item stayed within 1 px (data: `id`, `px`, `rev`).
    case anchorKept
    /// A prepend moved the page's anchor item by more than 1 px (data: `id`, `px`, `rev`).
    case anchorDrift
    /// A bounded window trimmed items far from the viewport (data: `edge`, `count`, `first`, `last`, `held`).
    case windowTrimmed
    /// A `jump` began loading the window around an item (data: `id`, `anchor`, `index`, `latencyMs`).
    case jumpStarted
    /// A jump's window landed and the page was told to scroll the item to its anchor (data: `id`, `anchor`).
    case jumpFinished
    /// The page reported its first geometry after a jump: what the edge rules would have done (data:
    /// `id`, `suppressed`).
    case jumpSettled
    /// A jump in flight was abandoned (another jump, a reset) (data: `id`, `reason`).
    case jumpCancelled
}

/// Everything the server knows about one session.
public struct SessionState: Equatable, Sendable {
    /// The session's id, e.g. `s3` (a fork's is given once its rebuild is done: ``Rebuilt/rename(_:)``).
    public internal(set) var id: String
    /// The secret a reconnecting page presents to get this session back.
    public let resumeToken: String
    /// The settings in force.
    public var config: ScrollConfig
    /// Where items come from.
    public var source: FeedSource {
        didSet { sourceIndex.invalidate() }
    }
    /// The most items the session holds, refreshed ones included (nil: no cap). At the cap the feed has no
    /// more and a refresh adds only what still fits, so the whole feed always fits one resume.
    public let itemCap: Int?
    /// Whether `hello` opened the session yet.
    public var lifecycle = SessionLifecycle.awaitingHello

    /// The items the session holds and the window of them the page holds.
    public var window = FeedWindow()
    /// Each feed item's index by id, for a list source's `jump`.
    var sourceIndex = ItemIndex()
    /// Whether the feed source has items past the window's `cursor` (within `maxItems` and the item cap).
    /// Not the wire's `hasMore`, which also counts items the window trimmed below: ``hasMore``.
    public var sourceHasMore = true
    /// The items `rev` last sent.
    public var rev = 0

    /// The decisions: the preset's rules, each edge's page load, the refresh, the retry policy. The session
    /// asks it (``ask(_:)``) and carries out what it decides (``carryOut(_:geometrySeq:into:)``).
    public var controller: FeedController
    /// Each edge's last page, what the log said of its rule, and the synthetic side of its load and retry:
    /// the bottom loads the next pages, the top the previous ones.
    public var edges = PerEdge(EdgeState())
    /// The `rev` of a prepend (or a trim at the top) whose effect on the page's anchor is still to be checked.
    public var anchorCheckRev: Int?
    /// A `jump` under way: its window loading, or the page positioning the item.
    public var jump = JumpPhase.idle
    /// The refresh in flight, as the synthetic feed serves it: present exactly while the controller's
    /// refresh is in flight.
    public var refreshRequest: SimulatedRequest?

    /// The last geometry received, and its phase and seq.
    public var lastGeometry: GeometryReport?
    /// Compare mode: every preset's rule memory, evaluated without side effects.
    public var shadows: [Preset: ShadowRules] = [:]
    /// Compare mode: the presets whose bottom rule was true when they last disagreed (nil: they agreed).
    public var bottomDisagreement: [Preset]?

    /// `offsetObserving`: the throttled origin log.
    public var originLog = OriginLog()

    /// Recent items messages, so a resuming page gets exactly what it missed.
    public var itemsHistory: [ItemsMessage] = []
    /// The last `state` sent; another is sent only when it differs.
    public var lastSentState: StateMessage?

    /// Draws latency jitter and failures.
    public var generator: SeededGenerator
    /// Identifies operations, so a late timer of a cancelled one is recognised.
    public var nextToken = 1
    /// The core clock at the event being reduced (ms): a scheduled retry's countdown in `state` counts from it.
    public var now: Int64 = 0
    /// The fork this session was rebuilt for (its trace header's `fork`): the takeover is logged `sessionForked`.
    public var forkedFrom: Trace.Fork?

    /// How many items messages a session keeps for resume before falling back to one `replace`.
    public static let itemsHistoryLimit = 64

    public init(id: String, resumeToken: String, config: ScrollConfig, source: FeedSource, itemCap: Int? = nil) {
        self.id = id
        self.resumeToken = resumeToken
        self.config = config
        self.source = source
        self.itemCap = itemCap
        self.generator = SeededGenerator(seed: config.seed)
        self.controller = FeedController(settings: config.feedSettings)
    }

    /// Whether a page load is in flight at the bottom (the wire's `loadingNextPage`).
    public var loadingNextPage: Bool { controller.isLoading(.bottom) }

    /// Whether the refresh indicator shows (the wire's `refreshing`).
    public var refreshing: Bool { controller.isRefreshing }

    /// Whether older items exist above the first one the page holds: trimmed ones, or feed items above the
    /// first one the session holds (when the item cap leaves room for them). The wire's `topEdge.hasPrevious`.
    public var hasPrevious: Bool {
        window.trimmed.top > 0 || (window.firstLoaded > 0 && (itemCap.map { window.items.count < $0 } ?? true))
    }

    /// Whether items exist below the last one the page holds: trimmed ones, or more of the feed. The wire's
    /// `hasMore` (in `state` and `items`).
    public var hasMore: Bool { window.trimmed.bottom > 0 || sourceHasMore }

    /// Whether items exist beyond what the page holds at `edge`: ``hasMore`` at the bottom, ``hasPrevious``
    /// at the top.
    public func hasItems(beyond edge: FeedEdge) -> Bool {
        edge == .bottom ? hasMore : hasPrevious
    }

    /// Whether the feed has a top edge that loads previous pages: a two-way feed, or a bounded window (its
    /// trimmed items load back at the top).
    public var hasTopEdge: Bool { config.twoWay || config.windowSize > 0 || window.trimmed.top > 0 }
}

/// A preset evaluated in compare mode.
public struct ShadowRules: Equatable, Sendable {
    public var memory = RuleMemory()
    /// Its refresh rule fired on the previous geometry (a level rule counts once per streak).
    public var firing = false
}

/// A timer the core asks the transport to run.
public enum TimerID: Hashable, Sendable, CustomStringConvertible {
    /// The page load with this token completes.
    case pageLoad(Int)
    /// The refresh with this token completes.
    case refresh(Int)
    /// `refreshOffsetObservable`'s fixed hold ends.
    case refreshHold
    /// `offsetObserving`: log the latest origin the throttle held back.
    case originFlush
    /// The scheduled retry with this token (`backoff`) is due.
    case loadRetry(Int)
    /// The load of the previous page with this token completes.
    case previousLoad(Int)
    /// The scheduled retry of the previous page with this token is due.
    case previousRetry(Int)
    /// The next new message arrives (`newMessageEveryMs`).
    case newMessage
    /// The window of the jump with this token has loaded.
    case jump(Int)

    public var description: String {
        switch self {
        case .pageLoad(let token): "pageLoad-\(token)"
        case .refresh(let token): "refresh-\(token)"
        case .refreshHold: "refreshHold"
        case .originFlush: "originFlush"
        case .loadRetry(let token): "loadRetry-\(token)"
        case .previousLoad(let token): "previousLoad-\(token)"
        case .previousRetry(let token): "previousRetry-\(token)"
        case .newMessage: "newMessage"
        case .jump(let token): "jump-\(token)"
        }
    }
}

/// Something that happened to a session.
public enum SessionEvent: Equatable, Sendable {
    /// The page said `hello` (not resuming).
    case helloReceived(Hello)
    /// A page reconnected with this session's token; it last rendered `lastRev`.
    case resumed(lastRev: Int?)
    /// The page that asked for a fork took over the session rebuilt from the parent trace.
    case forkTakenOver(Trace.Fork)
    /// One frame's geometry.
    case geometryReceived(GeometryReport)
    /// A `config` message.
    case configReceived([String: JSONValue])
    /// A manual `refresh`.
    case refreshRequested
    /// A manual `loadMore`.
    case loadMoreRequested
    /// A manual `loadPrevious`.
    case loadPreviousRequested
    /// A `reset`.
    case resetRequested
    /// A `jump` to an item.
    case jumpRequested(JumpRequest)
    /// A timer the core scheduled fired.
    case timerFired(TimerID)
}

/// Something the transport must do for the core.
public enum SessionEffect: Equatable, Sendable {
    /// Send a message to the session's page.
    case send(ServerMessage)
    /// Fire `timerFired(id)` after this many milliseconds.
    case schedule(TimerID, afterMilliseconds: Int)
    /// Forget a scheduled timer.
    case cancel(TimerID)
    /// Record an event (the transport stamps it and fans it out).
    case log(LogEntry)
}

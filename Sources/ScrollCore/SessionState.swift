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
    /// The most items the session holds, refreshed ones included (nil: no cap). At the cap `hasMore` is
    /// false and a refresh adds only what still fits, so the whole feed always fits one resume.
    public let itemCap: Int?
    /// Whether `hello` opened the session.
    public var isOpen = false

    /// The items, in order, each id unique.
    public var items: [FeedItem] = [] {
        didSet { itemIndex.invalidate() }
    }
    /// Each held item's index by id, for `jump` (SessionState+Jump).
    var itemIndex = ItemIndex()
    /// Each feed item's index by id, for a list source's `jump`.
    var sourceIndex = ItemIndex()
    /// How many feed items have been handed out.
    public var cursor = 0
    /// The number of the last page handed out (the first page is 1).
    public var page = 0
    /// Whether the feed has more items.
    public var hasMore = true
    /// The items `rev` last sent.
    public var rev = 0
    /// Refresh items made so far, so their ids never repeat.
    public var refreshedItemCount = 0

    /// The feed index of the first feed item held (0: the feed's start; more in a feed opened in the middle).
    public var firstLoaded = 0
    /// Previous pages handed out (the first previous page is 1).
    public var previousPage = 0
    /// New messages that arrived in all (`newMessageEveryMs`), so their ids never repeat.
    public var arrivedCount = 0
    /// Arrived messages not yet shown: the session does not hold the feed's end yet (`hasMore`).
    public var heldArrivals: [FeedItem] = []

    /// The preset's bottom rule on the last geometry.
    public var reachedBottom = false
    /// The preset's top rule on the last geometry (two-way feeds).
    public var reachedTop = false
    /// The previous page, loaded at the top: the same phases as `pageLoad`.
    public var previousLoad = PageLoadPhase.idle
    /// The `rev` of a prepend (or a trim at the top) whose effect on the page's anchor is still to be checked.
    public var anchorCheckRev: Int?
    /// A bounded window (`windowSize`): items at the start of `items` the page does not hold (trimmed, or
    /// refreshed above what it holds). They load back through the top edge.
    public var trimmedAbove = 0
    /// Items at the end of `items` the page does not hold; they load back through the bottom edge.
    public var trimmedBelow = 0
    /// A `jump` under way: its window loading, or the page positioning the item.
    public var jump = JumpPhase.idle
    /// The next page: nothing loading, a load in flight, or the feed exhausted and said so.
    public var pageLoad = PageLoadPhase.idle
    /// The refresh and its indicator.
    public var refresh = RefreshPhase.idle

    /// The last geometry received, and its phase and seq.
    public var lastGeometry: GeometryReport?
    /// The primary preset's rule memory.
    public var memory = RuleMemory()
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
    }

    /// The page load in flight, if any.
    public var loadInFlight: PageLoad? {
        if case .inFlight(let load) = pageLoad { load } else { nil }
    }

    /// Whether a page load is in flight.
    public var loadingNextPage: Bool { loadInFlight != nil }

    /// Whether the refresh indicator shows.
    public var refreshing: Bool { refresh.showsIndicator }

    /// The failed page and the retry policy's decision about it, if the last load failed.
    public var loadFailure: LoadFailure? {
        if case .failed(let failure) = pageLoad { failure } else { nil }
    }

    /// Whether older items exist above the first one the page holds: trimmed ones, or feed items above the
    /// first one the session holds (when the item cap leaves room for them).
    public var hasPrevious: Bool {
        trimmedAbove > 0 || (firstLoaded > 0 && (itemCap.map { items.count < $0 } ?? true))
    }

    /// Whether items exist below the last one the page holds: trimmed ones, or more of the feed.
    public var hasMoreBelow: Bool { trimmedBelow > 0 || hasMore }

    /// The items the page holds: all of `items` but those a bounded window trimmed.
    public var pageItems: ArraySlice<FeedItem> { items[trimmedAbove..<(items.count - trimmedBelow)] }

    /// Whether the feed has a top edge that loads previous pages: a two-way feed, or a bounded window (its
    /// trimmed items load back at the top).
    public var hasTopEdge: Bool { config.twoWay || config.windowSize > 0 || trimmedAbove > 0 }

    /// One edge's page load phase.
    public subscript(load edge: FeedEdge) -> PageLoadPhase {
        get { edge == .bottom ? pageLoad : previousLoad }
        set {
            if edge == .bottom { pageLoad = newValue } else { previousLoad = newValue }
        }
    }

    /// One edge's load in flight, if any.
    public func inFlight(_ edge: FeedEdge) -> PageLoad? {
        if case .inFlight(let load) = self[load: edge] { load } else { nil }
    }

    /// One edge's failed page, if its last load failed.
    public func failure(_ edge: FeedEdge) -> LoadFailure? {
        if case .failed(let failure) = self[load: edge] { failure } else { nil }
    }
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

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
    /// more and a refresh adds only what still fits.
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

    /// The feed's runtime: its controller (the decisions), the session's one timer queue, and the tickets of
    /// the work in flight. The session asks it (``ask(_:)``) and carries out each step it hands back
    /// (``carryOut(_:geometrySeq:into:)``); its timers are the transport's (`schedule`, `cancel`).
    package var runtime: FeedRuntime<TimerID>
    /// Each edge's last page and what the log said of its rule: the bottom loads the next pages, the top the
    /// previous ones.
    package var edges = PerEdge(EdgeState())
    /// The `rev` of a prepend (or a trim at the top) whose effect on the page's anchor is still to be checked.
    public var anchorCheckRev: Int?
    /// A `jump` under way: its window loading, or the page positioning the item.
    public var jump = JumpPhase.idle
    /// The tickets of the work in flight the synthetic feed drew to fail (a load's or the refresh's outcome
    /// is drawn when it starts, so replays reproduce it).
    public var drawnToFail: Set<Int> = []

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
    /// The next operation's token (its timer's name: `pageLoad-3`), counted by the runtime.
    public var nextToken: Int { runtime.nextTicket }
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
        self.runtime = FeedRuntime(FeedController(settings: config.feedSettings))
    }

    /// The decisions: the preset's rules, each edge's page load, the refresh, the retry policy (the runtime's).
    public var controller: FeedController {
        _read { yield runtime.controller }
        _modify { yield &runtime.controller }
    }

    /// The timers waiting, earliest first (ties in scheduling order): the one queue the transport, a replay
    /// and the lab follow.
    public var pendingTimers: [PendingTimer] {
        runtime.timers.entries.map { PendingTimer(timer: $0.id, due: $0.due) }
    }

    /// The earliest timer waiting, with its due time and its place among timers due then.
    package var nextTimer: TimerQueue<TimerID>.Entry? { runtime.timers.next }

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
    package var memory = RuleMemory()
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

    /// A timer's kind: its name in traces (`pageLoad-3`, `refreshHold`) and whether a token follows it. The
    /// one table both ``description`` and ``init(_:)`` read.
    public enum Kind: String, CaseIterable, Sendable {
        case pageLoad, refresh, refreshHold, originFlush, loadRetry, previousLoad, previousRetry, newMessage, jump

        /// Whether the name carries a token (`pageLoad-3`).
        public var hasToken: Bool {
            switch self {
            case .pageLoad, .refresh, .loadRetry, .previousLoad, .previousRetry, .jump: true
            case .refreshHold, .originFlush, .newMessage: false
            }
        }
    }

    /// The timer's kind and token.
    public var kind: Kind {
        switch self {
        case .pageLoad: .pageLoad
        case .refresh: .refresh
        case .refreshHold: .refreshHold
        case .originFlush: .originFlush
        case .loadRetry: .loadRetry
        case .previousLoad: .previousLoad
        case .previousRetry: .previousRetry
        case .newMessage: .newMessage
        case .jump: .jump
        }
    }

    /// The token of a timer whose kind has one.
    public var token: Int? {
        switch self {
        case .pageLoad(let token), .refresh(let token), .loadRetry(let token), .previousLoad(let token),
            .previousRetry(let token), .jump(let token):
            token
        case .refreshHold, .originFlush, .newMessage: nil
        }
    }

    /// The timer of `kind` with `token`; nil when the kind takes a token and none is given, or the reverse.
    public init?(_ kind: Kind, token: Int?) {
        guard kind.hasToken == (token != nil) else { return nil }
        let token = token ?? 0
        switch kind {
        case .pageLoad: self = .pageLoad(token)
        case .refresh: self = .refresh(token)
        case .refreshHold: self = .refreshHold
        case .originFlush: self = .originFlush
        case .loadRetry: self = .loadRetry(token)
        case .previousLoad: self = .previousLoad(token)
        case .previousRetry: self = .previousRetry(token)
        case .newMessage: self = .newMessage
        case .jump: self = .jump(token)
        }
    }

    /// Reads a timer's ``description`` back (a trace's `timer` line); nil for a name no timer has.
    public init?(_ name: String) {
        let parts = name.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let kind = Kind(rawValue: String(parts[0])) else { return nil }
        var token: Int?
        if parts.count == 2 {
            guard let number = Int(parts[1]) else { return nil }
            token = number
        }
        self.init(kind, token: token)
    }

    /// The timer's name in traces and logs: `pageLoad-3`, `refreshHold`.
    public var description: String {
        token.map { "\(kind.rawValue)-\($0)" } ?? kind.rawValue
    }
}

extension TimerID: FeedTimerKey {
    /// The session's name for one of the runtime's timers.
    package init(_ role: FeedTimerRole) {
        switch role {
        case .lands(.load(let edge), let ticket): self = edge.loadTimer(ticket)
        case .lands(.refresh, let ticket): self = .refresh(ticket)
        case .retry(let edge, let ticket): self = edge.retryTimer(ticket)
        case .hold: self = .refreshHold
        }
    }

    /// What the runtime makes of this timer: nil for the session's own (the origin log, messages, jumps).
    package var role: FeedTimerRole? {
        switch self {
        case .pageLoad(let ticket): .lands(.load(.bottom), ticket: ticket)
        case .previousLoad(let ticket): .lands(.load(.top), ticket: ticket)
        case .refresh(let ticket): .lands(.refresh, ticket: ticket)
        case .loadRetry(let ticket): .retry(.bottom, ticket: ticket)
        case .previousRetry(let ticket): .retry(.top, ticket: ticket)
        case .refreshHold: .hold
        case .originFlush, .newMessage, .jump: nil
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

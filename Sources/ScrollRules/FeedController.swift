/// One feed's decisions: geometry, completions and the clock in; what to do, and why, out. It is the only
/// code that decides, in an app and in the playground's server alike (its session holds one and asks it).
///
/// Feed it every scroll geometry (`geometryChanged`) and tell it how each load and refresh it asked for
/// ended; it answers with what to do (`FeedAction`): start a page load at the bottom or the top, start a
/// refresh, cancel a load, wake it for a retry. It decides the edge rules, the one load per edge in flight,
/// the re-arming of a rule once items land, the pull and its release, the refresh, its fixed hold and its
/// cancel of a load, and the retry policy with its schedule. ``decide(_:now:using:)`` says the same as a
/// list of ``FeedDecision``s, each with its reason, for an app that logs them.
///
/// It holds no items and reads no clock: every call takes `now`, milliseconds on any monotonic clock, so a
/// test (or a replay) controls time. A retry's jitter is drawn from the generator ``decide(_:now:using:)``
/// is given (the system's, in the calls that return actions).
public struct FeedController: Equatable, Sendable {
    /// The settings in force (change them with `update(_:now:)`).
    public private(set) var settings: FeedSettings
    /// What the preset's rules remember from one geometry to the next.
    package internal(set) var memory = RuleMemory()
    /// What the preset's rules concluded on the last geometry.
    package private(set) var verdict = RuleVerdict()
    /// The bottom rule on the last geometry (or, after new settings, on it evaluated afresh).
    public private(set) var reachedBottom = false
    /// The top rule on the last geometry.
    public private(set) var reachedTop = false
    /// Whether the feed has more at the bottom, as the app last said (`loadFinished`, `feedChanged`).
    public internal(set) var hasMore: Bool
    /// Whether older items exist above the first one shown (a chat, a feed opened in the middle).
    public internal(set) var hasPrevious: Bool
    /// Each edge's page load: idle, in flight, failed (and what the retry policy does next), or exhausted.
    package internal(set) var loads = PerEdge(PageLoadPhase.idle)
    /// The refresh and its indicator.
    package internal(set) var refresh = RefreshPhase.idle
    /// Edges whose rule the app holds back: a rule that fires there loads nothing (`.ruleHeld`). Hold both
    /// while the view scrolls to an item, so the geometry on the way loads nothing; a person, a retry and a
    /// refresh that yields to older items still load.
    public var heldRules: Set<FeedEdge> = []
    /// What the app can run: a rule never starts a load or a refresh the app does not provide (a pull without
    /// `.refresh` shows and starts nothing; without `.loadPrevious` the top edge never loads, and a pull is
    /// not handed to it). Change it any time; what is in flight goes on.
    public var capabilities: FeedCapabilities = .all

    private var lastGeometry: FeedGeometry?
    private var lastPhase = FeedScrollPhase.idle

    /// A controller for one feed. `hasMore`, `hasPrevious`: what the feed has beyond its first items.
    /// `capabilities`: what the app runs (all, unless it lacks a refresh or previous pages).
    public init(
        settings: FeedSettings, hasMore: Bool = true, hasPrevious: Bool = false, capabilities: FeedCapabilities = .all
    ) {
        self.settings = settings
        self.hasMore = hasMore
        self.hasPrevious = hasPrevious
        self.capabilities = capabilities
    }

    // MARK: What the app reads

    /// Whether the refresh indicator shows.
    public var isRefreshing: Bool { refresh.showsIndicator }

    /// Whether a page load is in flight at `edge`.
    public func isLoading(_ edge: FeedEdge) -> Bool { loads[edge].inFlight != nil }

    /// The retry policy's state of `edge`'s failed page, nil when its last load did not fail.
    public func retry(_ edge: FeedEdge) -> RetryStatus? { loads[edge].failure?.next.status }

    /// The pull as the preset sees it (nothing for presets without pull-to-refresh).
    public var pull: PullState {
        settings.behavior.refresh != .none && capabilities.contains(.refresh) ? memory.pull : PullState()
    }

    /// How to draw the refresh indicator and the loading row.
    public var indicator: IndicatorState {
        var indicator = IndicatorState(
            settings.behavior.indicator, pull: pull, refreshing: isRefreshing, loadingNextPage: isLoading(.bottom),
            offset: lastGeometry?.along(settings.axis).offset ?? 0, pullThreshold: settings.pullThreshold)
        indicator.bottomFailure = loads.bottom.failure.map(IndicatorState.Failure.init)
        indicator.topFailure = loads.top.failure.map(IndicatorState.Failure.init)
        return indicator
    }

    // MARK: The one entry point

    /// Applies one event at `now` and returns what the controller decided, in order, each with its reason:
    /// the decisions' ``FeedDecision/action``s are what the app must do. A retry's jitter is drawn from
    /// `generator` (half the delay, `Int(generator.next() % UInt64(half + 1))`), so a seeded generator
    /// replays the same schedule.
    public mutating func decide<Generator: RandomNumberGenerator>(
        _ event: FeedEvent, now: Int64, using generator: inout Generator
    ) -> [FeedDecision] {
        // The rules are not generic: a caller in another module would run them unspecialized, with generic
        // metadata and arrays on every event. Only a retry's jitter reaches the generator, through `Turn`.
        var turn = Turn(now: now, random: generator)
        run(event, &turn)
        // The generator moved on only if a jitter was drawn (rare): then it is handed back.
        if turn.drew { generator = turn.random as! Generator }
        return turn.decisions
    }

    private mutating func run(_ event: FeedEvent, _ turn: inout Turn) {
        switch event {
        case .geometryChanged(let geometry, let phase): observe(geometry, phase: phase, &turn)
        case .loadRequested(let edge): load(edge, .manual, &turn)
        case .refreshRequested: startRefresh(.manual, &turn)
        case .loadFinished(let edge, let more, let shown): land(edge, hasMore: more, shown: shown)
        case .loadFailed(let edge): fail(edge, &turn)
        case .loadCancelled(let edge): if loads[edge].inFlight != nil { loads[edge] = .idle }
        case .refreshFinished(let added, let shown): finishRefresh(addedItems: added, shown: shown, &turn)
        case .refreshFailed: finishRefresh(addedItems: 0, shown: false, &turn)
        case .retryDue(let edge): retryDue(edge, &turn)
        case .holdEnded: endHold(&turn)
        case .tick: runWhatIsDue(&turn)
        case .itemsArrived: itemsArrived(&turn)
        case .feedChanged(let more, let previous): changeEnds(hasMore: more, hasPrevious: previous)
        case .settingsChanged(let new): apply(new, &turn)
        case .reset(let more, let previous): reset(hasMore: more, hasPrevious: previous, &turn)
        }
    }

    /// ``decide(_:now:using:)`` with the system's random generator.
    public mutating func decide(_ event: FeedEvent, now: Int64) -> [FeedDecision] {
        var generator = SystemRandomNumberGenerator()
        return decide(event, now: now, using: &generator)
    }

    // MARK: The app's calls

    /// One geometry of the scroll view, with its phase: runs the preset's rules and says what they start.
    public mutating func geometryChanged(_ geometry: FeedGeometry, phase: FeedScrollPhase, now: Int64) -> [FeedAction] {
        actions(.geometryChanged(geometry, phase: phase), now: now)
    }

    /// The page load at `edge` landed its items; `hasMore` says whether the feed has more at that edge.
    public mutating func loadFinished(_ edge: FeedEdge, hasMore more: Bool, now: Int64) -> [FeedAction] {
        actions(.loadFinished(edge, hasMore: more, shown: true), now: now)
    }

    /// The page load at `edge` failed: the retry policy decides what happens next.
    public mutating func loadFailed(_ edge: FeedEdge, now: Int64) -> [FeedAction] {
        actions(.loadFailed(edge), now: now)
    }

    /// The app dropped the page load in flight at `edge` itself (its result will not be reported).
    public mutating func loadCancelled(_ edge: FeedEdge, now: Int64) -> [FeedAction] {
        actions(.loadCancelled(edge), now: now)
    }

    /// The refresh landed `addedItems` new items on top (0 when it brought nothing new).
    public mutating func refreshFinished(addedItems: Int, now: Int64) -> [FeedAction] {
        actions(.refreshFinished(addedItems: addedItems, shown: true), now: now)
    }

    /// The refresh failed.
    public mutating func refreshFailed(now: Int64) -> [FeedAction] {
        actions(.refreshFailed, now: now)
    }

    /// New items arrived at the bottom (a chat's new messages): the bottom rule is evaluated afresh, and
    /// a reader at the bottom follows them.
    public mutating func itemsArrived(now: Int64) -> [FeedAction] {
        actions(.itemsArrived, now: now)
    }

    /// The app's feed changed its ends by other means (new items exist below, older ones above).
    public mutating func feedChanged(hasMore more: Bool, hasPrevious previous: Bool) {
        changeEnds(hasMore: more, hasPrevious: previous)
    }

    /// The clock reached `now`: runs what was due by then (the end of a fixed hold, a scheduled retry).
    /// Call it when a `.wake(after:)` or `.retry(_:after:)` delay has passed.
    public mutating func tick(now: Int64) -> [FeedAction] {
        actions(.tick, now: now)
    }

    /// A person asked for the next page (Load more, Retry at the bottom) or, at the top, the previous one.
    public mutating func loadRequested(_ edge: FeedEdge, now: Int64) -> [FeedAction] {
        actions(.loadRequested(edge), now: now)
    }

    /// A person asked for a refresh (a Refresh button, `refreshable`'s action).
    public mutating func refreshRequested(now: Int64) -> [FeedAction] {
        actions(.refreshRequested, now: now)
    }

    /// New settings. A new preset or axis starts its rules from the current position without firing on
    /// it; a new retry policy decides afresh about a failed page.
    public mutating func update(_ new: FeedSettings, now: Int64) -> [FeedAction] {
        actions(.settingsChanged(new), now: now)
    }

    /// Back to the first page: nothing in flight, nothing failed, the rules start from scratch. (Cancel
    /// the loads and the refresh the app still runs.)
    public mutating func reset(hasMore: Bool = true, hasPrevious: Bool = false) {
        _ = decide(.reset(hasMore: hasMore, hasPrevious: hasPrevious), now: 0)
    }

    private mutating func actions(_ event: FeedEvent, now: Int64) -> [FeedAction] {
        decide(event, now: now).compactMap(\.action)
    }

    // MARK: Geometry, arrivals, ends, settings, reset

    private mutating func observe(
        _ geometry: FeedGeometry, phase: FeedScrollPhase, _ turn: inout Turn
    ) {
        lastGeometry = geometry
        lastPhase = phase
        verdict = settings.preset.evaluate(
            geometry, phase: phase, settings: settings, refreshing: isRefreshing, memory: &memory)
        reachedBottom = verdict.reachedBottom
        reachedTop = verdict.reachedTop
        if verdict.refreshFires, capabilities.contains(.refresh) { startRefresh(.pull, &turn) }
        if verdict.loadFires { ruleFired(.bottom, &turn) }
        if verdict.loadPreviousFires { ruleFired(.top, &turn) }
        if verdict.returnedToOrigin { turn.decide(.returnedToOrigin) }
    }

    private mutating func itemsArrived(_ turn: inout Turn) {
        rearm(.bottom)
        if lastGeometry != nil, reachedBottom { turn.decide(.followsArrivals) }
    }

    private mutating func changeEnds(hasMore more: Bool, hasPrevious previous: Bool) {
        hasMore = more
        hasPrevious = previous
        reopenExhaustedEdges()
    }

    /// An edge that said it was exhausted and has more again loads (and says so) as before.
    private mutating func reopenExhaustedEdges() {
        for edge in FeedEdge.allCases where loads[edge] == .exhausted && hasItems(beyond: edge) {
            loads[edge] = .idle
        }
    }

    private mutating func apply(_ new: FeedSettings, _ turn: inout Turn) {
        let before = settings
        settings = new
        var bottomFires = false
        if new.preset != before.preset || new.axis != before.axis {
            // The new rules start from the current position; a bottom rule that holds there fires (through the
            // usual gates), as on arriving there, rather than leave the feed still until the view moves.
            memory = RuleMemory()
            if let geometry = lastGeometry {
                let verdict = new.preset.evaluate(
                    geometry, phase: lastPhase, settings: new, refreshing: isRefreshing, memory: &memory)
                reachedBottom = verdict.reachedBottom
                memory.pull = PullState()
                bottomFires = verdict.loadFires
            }
        }
        reopenExhaustedEdges()
        for edge in FeedEdge.allCases {
            guard var failure = loads[edge].failure else { continue }
            if !hasItems(beyond: edge) {
                cancelRetry(of: failure, at: edge, .feedExhausted, &turn)
                loads[edge] = .idle
            } else if new.retryPolicy != before.retryPolicy {
                // The new policy decides about the failure on show, with a fresh budget of retries.
                cancelRetry(of: failure, at: edge, .retryPolicyChanged, &turn)
                failure.retries = 0
                decideRetry(&failure, at: edge, &turn)
                loads[edge] = .failed(failure)
            }
        }
        // After the failures are settled, so the new policy's gates decide about it.
        if bottomFires { ruleFired(.bottom, &turn) }
    }

    private mutating func reset(
        hasMore more: Bool, hasPrevious previous: Bool, _ turn: inout Turn
    ) {
        for edge in FeedEdge.allCases {
            if loads[edge].inFlight != nil { turn.decide(.loadCancelled(edge, reason: .reset)) }
            if let failure = loads[edge].failure { cancelRetry(of: failure, at: edge, .reset, &turn) }
        }
        if refresh.isInFlight { turn.decide(.refreshCancelled) }
        if refresh.holdEnds != nil { turn.decide(.holdCancelled) }
        // The view stays where it is: its last geometry is kept for re-arming and for new settings.
        let kept = (lastGeometry, lastPhase, heldRules)
        self = FeedController(settings: settings, hasMore: more, hasPrevious: previous, capabilities: capabilities)
        (lastGeometry, lastPhase, heldRules) = kept
    }

    /// Once new items show, presets that re-arm evaluate their edge rule afresh on the next geometry.
    mutating func rearm(_ edge: FeedEdge) {
        guard let length = lastGeometry?.along(settings.axis).contentLength else { return }
        switch edge {
        case .bottom where settings.behavior.rearmsBottomWhenItemsLand:
            memory.contentLengthAtLanding = length
        case .top where settings.loadsPrevious:
            memory.contentLengthAtTopLanding = length
        case .bottom, .top:
            break
        }
    }

    /// Whether the feed has items beyond what the view shows at `edge`.
    func hasItems(beyond edge: FeedEdge) -> Bool { edge == .bottom ? hasMore : hasPrevious }

    /// Whether the app can load `edge`'s page.
    func canLoad(_ edge: FeedEdge) -> Bool { capabilities.contains(.load(edge)) }
}

/// One call's work: its clock, what was decided so far, and the generator a retry's jitter is drawn from.
struct Turn {
    let now: Int64
    /// The caller's generator (not a generic parameter: see ``FeedController/decide(_:now:using:)``).
    private(set) var random: any RandomNumberGenerator
    /// Whether `random` moved on (a jitter was drawn).
    private(set) var drew = false
    var decisions: [FeedDecision] = []

    init(now: Int64, random: any RandomNumberGenerator) {
        self.now = now
        self.random = random
    }

    mutating func decide(_ decision: FeedDecision) { decisions.append(decision) }

    /// A retry's jittered half: 0…`half`, as the playground's session has always drawn it.
    mutating func jitter(_ half: Int) -> Int {
        drew = true
        return Int(random.next() % UInt64(half + 1))
    }
}

/// One feed's decisions, as the playground makes them: geometry and completions in, actions out.
///
/// Feed it every scroll geometry (`geometryChanged`) and tell it how each load and refresh it asked for
/// ended; it answers with what to do (`FeedAction`): start a page load at the bottom or the top, start a
/// refresh, cancel a load, wake it for a retry. It holds no items and reads no clock: every call takes
/// `now`, milliseconds on any monotonic clock, so a test (or a replay) controls time.
public struct FeedController: Sendable {
    /// The settings in force (change them with `update(_:now:)`).
    public private(set) var settings: FeedSettings
    /// What the preset's rules remember from one geometry to the next.
    public private(set) var memory = RuleMemory()
    /// The bottom rule on the last geometry.
    public private(set) var reachedBottom = false
    /// The top rule on the last geometry.
    public private(set) var reachedTop = false
    /// Whether the feed has more at the bottom (the last `loadMoreFinished` said so).
    public private(set) var hasMore: Bool
    /// Whether older items exist above the first one shown (a chat, a feed opened in the middle).
    public private(set) var hasPrevious: Bool

    private var edges: [FeedEdge: EdgePhase] = [.bottom: .idle, .top: .idle]
    private var refresh = RefreshStatus.idle
    private var holdDue: Int64?
    private var lastGeometry: FeedGeometry?
    private var lastPhase = FeedScrollPhase.idle
    private let jitter: @Sendable (Int) -> Int

    /// A controller for one feed. `hasMore`, `hasPrevious`: what the feed has beyond its first items.
    /// `jitter` draws a retry's jittered half (given the half, it returns 0…half); the default draws at
    /// random, a test passes a fixed one.
    public init(
        settings: FeedSettings, hasMore: Bool = true, hasPrevious: Bool = false,
        jitter: @escaping @Sendable (Int) -> Int = FeedController.randomJitter
    ) {
        self.settings = settings
        self.hasMore = hasMore
        self.hasPrevious = hasPrevious
        self.jitter = jitter
    }

    /// A retry's jitter drawn from the system's random source.
    public static let randomJitter: @Sendable (Int) -> Int = { half in Int.random(in: 0...max(0, half)) }

    // MARK: What the app reads

    /// Whether the refresh indicator shows.
    public var isRefreshing: Bool { refresh.showsIndicator }

    /// Whether a page load is in flight at `edge`.
    public func isLoading(_ edge: FeedEdge) -> Bool { inFlightRetries(edge) != nil }

    /// The retry policy's state of `edge`'s failed page, nil when its last load did not fail.
    public func retry(_ edge: FeedEdge) -> RetryStatus? {
        guard case .failed(let failure) = edges[edge] else { return nil }
        return failure.status
    }

    /// The pull as the preset sees it (nothing for presets without pull-to-refresh).
    public var pull: PullState { settings.preset.detectsPull ? memory.pull : PullState() }

    /// How to draw the refresh indicator and the loading row.
    public var indicator: IndicatorState {
        settings.preset.indicator(
            pull: pull, refreshing: isRefreshing, loadingNextPage: isLoading(.bottom),
            offset: lastGeometry?.along(settings.axis).offset ?? 0, pullThreshold: settings.pullThreshold)
    }

    // MARK: Geometry

    /// One geometry of the scroll view, with its phase: runs the preset's rules and says what they start.
    public mutating func geometryChanged(_ geometry: FeedGeometry, phase: FeedScrollPhase, now: Int64) -> [FeedAction] {
        lastGeometry = geometry
        lastPhase = phase
        let verdict = settings.preset.evaluate(
            geometry, phase: phase, settings: settings, refreshing: isRefreshing, memory: &memory)
        reachedBottom = verdict.reachedBottom
        reachedTop = verdict.reachedTop
        var actions: [FeedAction] = []
        if verdict.refreshFires { startRefresh(.rule, now: now, into: &actions) }
        if verdict.loadFires { load(.bottom, .rule, now: now, into: &actions) }
        if verdict.loadPreviousFires { load(.top, .rule, now: now, into: &actions) }
        if verdict.returnedToOrigin { actions.append(.scrollToTop) }
        return actions
    }

    // MARK: Completions

    /// The page load at `edge` landed its items; `hasMore` says whether the feed has more at that edge.
    public mutating func loadFinished(_ edge: FeedEdge, hasMore more: Bool, now: Int64) -> [FeedAction] {
        guard inFlightRetries(edge) != nil else { return [] }
        edges[edge] = .idle
        if edge == .bottom {
            hasMore = more
            rearm(.bottom)
        } else {
            hasPrevious = more
            rearm(.top)
        }
        return []
    }

    /// The page load at `edge` failed: the retry policy decides what happens next.
    public mutating func loadFailed(_ edge: FeedEdge, now: Int64) -> [FeedAction] {
        guard let retries = inFlightRetries(edge) else { return [] }
        var actions: [FeedAction] = []
        var failure = Failure(retries: retries, status: .manual, due: nil, number: 0)
        decideRetry(&failure, at: edge, now: now, into: &actions)
        edges[edge] = .failed(failure)
        return actions
    }

    /// The refresh landed `addedItems` new items on top (0 when it brought nothing new).
    public mutating func refreshFinished(addedItems: Int, now: Int64) -> [FeedAction] {
        guard case .inFlight(let hold) = refresh else { return [] }
        if addedItems > 0 { rearm(.bottom) }
        return endRefresh(hold: hold, contentChanged: addedItems > 0, now: now)
    }

    /// The refresh failed.
    public mutating func refreshFailed(now: Int64) -> [FeedAction] {
        guard case .inFlight(let hold) = refresh else { return [] }
        return endRefresh(hold: hold, contentChanged: false, now: now)
    }

    /// New items arrived at the bottom (a chat's new messages): the bottom rule is evaluated afresh, and
    /// a reader at the bottom follows them.
    public mutating func itemsArrived(now: Int64) -> [FeedAction] {
        rearm(.bottom)
        return lastGeometry != nil && reachedBottom ? [.scrollToBottom] : []
    }

    /// The app's feed changed its ends by other means (new items exist below, older ones above).
    public mutating func feedChanged(hasMore more: Bool, hasPrevious previous: Bool) {
        hasMore = more
        hasPrevious = previous
    }

    // MARK: Time and people

    /// The clock reached `now`: runs what was due by then (a scheduled retry, the end of a fixed hold).
    /// Call it when a `.wake(after:)` or `.retry(_:after:)` delay has passed.
    public mutating func tick(now: Int64) -> [FeedAction] {
        var actions: [FeedAction] = []
        if let due = holdDue, due <= now {
            holdDue = nil
            switch refresh {
            case .inFlight(hold: .running):
                // The fixed hold ends the indicator while the refresh goes on (the design's pitfall).
                refresh = .inFlight(hold: .ended)
                memory.pull = PullState()
            case .holding:
                endIndicator()
            case .idle, .inFlight:
                break
            }
            loadWhatTheRefreshHeldBack(now: now, into: &actions)
        }
        for edge in FeedEdge.allCases {
            guard case .failed(let failure) = edges[edge], failure.status == .scheduled, let due = failure.due,
                due <= now
            else { continue }
            load(edge, .retry, now: now, into: &actions)
        }
        return actions
    }

    /// A person asked for the next page (Load more, Retry at the bottom) or, at the top, the previous one.
    public mutating func loadRequested(_ edge: FeedEdge, now: Int64) -> [FeedAction] {
        var actions: [FeedAction] = []
        load(edge, .person, now: now, into: &actions)
        return actions
    }

    /// A person asked for a refresh (a Refresh button, `refreshable`'s action).
    public mutating func refreshRequested(now: Int64) -> [FeedAction] {
        var actions: [FeedAction] = []
        startRefresh(.person, now: now, into: &actions)
        return actions
    }

    /// New settings. A new preset or axis starts its rules from the current position without firing on
    /// it; a new retry policy decides afresh about a failed page.
    public mutating func update(_ new: FeedSettings, now: Int64) -> [FeedAction] {
        let before = settings
        settings = new
        var actions: [FeedAction] = []
        if new.preset != before.preset || new.axis != before.axis {
            memory = RuleMemory()
            if let geometry = lastGeometry {
                let verdict = new.preset.evaluate(
                    geometry, phase: lastPhase, settings: new, refreshing: isRefreshing, memory: &memory)
                reachedBottom = verdict.reachedBottom
                memory.pull = PullState()
            }
        }
        if new.retryPolicy != before.retryPolicy {
            for edge in FeedEdge.allCases {
                guard case .failed(var failure) = edges[edge] else { continue }
                failure.retries = 0
                decideRetry(&failure, at: edge, now: now, into: &actions)
                edges[edge] = .failed(failure)
            }
        }
        return actions
    }

    /// Back to the first page: nothing in flight, nothing failed, the rules start from scratch.
    public mutating func reset(hasMore: Bool = true, hasPrevious: Bool = false) {
        self = FeedController(settings: settings, hasMore: hasMore, hasPrevious: hasPrevious, jitter: jitter)
    }

    // MARK: The shared skeleton

    private mutating func load(_ edge: FeedEdge, _ ask: LoadAsk, now: Int64, into actions: inout [FeedAction]) {
        var failure: Failure? = nil
        if case .failed(let failed) = edges[edge] { failure = failed }
        let admission = settings.preset.behavior.admitLoad(
            ask, inFlight: inFlightRetries(edge) != nil, hasMore: edge == .bottom ? hasMore : hasPrevious,
            refreshing: isRefreshing, retry: failure?.status)
        switch admission {
        case .inFlight, .retryScheduled, .gaveUp:
            return
        case .exhausted:
            if failure != nil { edges[edge] = .idle }
            return
        case .refreshing(let reschedulesRetry):
            if reschedulesRetry, var failure {
                scheduleRetry(&failure, number: failure.number, at: edge, now: now, into: &actions)
                edges[edge] = .failed(failure)
            }
            return
        case .start:
            var retries = failure?.retries ?? 0
            if ask == .retry, let failure { retries = failure.number }
            // A person asked: the automatic retries start over.
            if ask == .person { retries = 0 }
            edges[edge] = .inFlight(retries: retries)
            actions.append(edge == .bottom ? .loadMore : .loadPrevious)
        }
    }

    private mutating func startRefresh(_ ask: LoadAsk, now: Int64, into actions: inout [FeedAction]) {
        let admission = settings.preset.behavior.admitRefresh(
            hasPrevious: hasPrevious, refreshInFlight: refresh.isInFlight)
        switch admission {
        case .yieldsToPrevious:
            memory.pull = PullState()
            load(.top, ask, now: now, into: &actions)
        case .inFlight:
            return
        case .start(let cancelsLoad, let holdsIndicator):
            refresh = .inFlight(hold: holdsIndicator ? .running : .none)
            actions.append(.refresh)
            if holdsIndicator {
                holdDue = now + Int64(settings.refreshHoldMs)
                actions.append(.wake(after: settings.refreshHoldMs))
            }
            if cancelsLoad, inFlightRetries(.bottom) != nil {
                edges[.bottom] = .idle
                actions.append(.cancelLoadMore)
            }
        }
    }

    private mutating func endRefresh(hold: Hold, contentChanged: Bool, now: Int64) -> [FeedAction] {
        if hold == .running {
            refresh = .holding
        } else {
            endIndicator()
        }
        var actions: [FeedAction] = []
        if !contentChanged { loadWhatTheRefreshHeldBack(now: now, into: &actions) }
        return actions
    }

    private mutating func loadWhatTheRefreshHeldBack(now: Int64, into actions: inout [FeedAction]) {
        guard
            settings.preset.behavior.loadsWhatRefreshHeldBack(
                refreshing: isRefreshing, bottomIdle: edges[.bottom] == .idle, atBottom: memory.reachedBottom,
                hasMore: hasMore)
        else { return }
        load(.bottom, .rule, now: now, into: &actions)
    }

    private mutating func endIndicator() {
        refresh = .idle
        holdDue = nil
        memory.pull = PullState()
    }

    private mutating func decideRetry(
        _ failure: inout Failure, at edge: FeedEdge, now: Int64, into actions: inout [FeedAction]
    ) {
        failure.due = nil
        switch settings.retryDecision(afterRetries: failure.retries) {
        case .manual: failure.status = .manual
        case .noRetry: failure.status = .noRetry
        case .giveUp:
            failure.status = .gaveUp
            actions.append(.gaveUp(edge))
        case .retry(let number):
            scheduleRetry(&failure, number: number, at: edge, now: now, into: &actions)
        }
    }

    private mutating func scheduleRetry(
        _ failure: inout Failure, number: Int, at edge: FeedEdge, now: Int64, into actions: inout [FeedAction]
    ) {
        let delay = settings.retryDelay(number, jitter: jitter)
        failure.status = .scheduled
        failure.number = number
        failure.due = now + Int64(delay)
        actions.append(.retry(edge, after: delay))
    }

    /// Once new items show, presets that re-arm evaluate their edge rule afresh on the next geometry.
    private mutating func rearm(_ edge: FeedEdge) {
        guard let length = lastGeometry?.along(settings.axis).contentLength else { return }
        switch edge {
        case .bottom where settings.preset.behavior.rearmsBottomWhenItemsLand:
            memory.contentLengthAtLanding = length
        case .top where settings.loadsPrevious:
            memory.contentLengthAtTopLanding = length
        case .bottom, .top:
            break
        }
    }

    private func inFlightRetries(_ edge: FeedEdge) -> Int? {
        if case .inFlight(let retries) = edges[edge] { retries } else { nil }
    }

    private enum EdgePhase: Equatable, Sendable {
        case idle
        case inFlight(retries: Int)
        case failed(Failure)
    }

    private struct Failure: Equatable, Sendable {
        /// Automatic retries used since a person last asked.
        var retries: Int
        var status: RetryStatus
        /// When the scheduled retry is due.
        var due: Int64?
        /// Which retry is scheduled.
        var number: Int
    }

    private enum Hold: Equatable, Sendable { case none, running, ended }

    private enum RefreshStatus: Equatable, Sendable {
        case idle
        case inFlight(hold: Hold)
        case holding

        var isInFlight: Bool { if case .inFlight = self { true } else { false } }

        var showsIndicator: Bool {
            switch self {
            case .idle, .inFlight(hold: .ended): false
            case .inFlight, .holding: true
            }
        }
    }
}

/// What a `FeedController` asks the app to do.
public enum FeedAction: Equatable, Hashable, Sendable {
    /// Load the next page; report how it ended with `loadFinished(.bottom, …)` or `loadFailed(.bottom, …)`.
    case loadMore
    /// Load the previous page (older items, on top); report with `loadFinished(.top, …)` or `loadFailed(.top, …)`.
    case loadPrevious
    /// Refresh; report with `refreshFinished(addedItems:now:)` or `refreshFailed(now:)`.
    case refresh
    /// A refresh replaced the page load in flight: cancel it and drop its result (do not report it).
    case cancelLoadMore
    /// The failed page at this edge is retried after this many milliseconds: call `tick(now:)` then.
    case retry(FeedEdge, after: Int)
    /// The retry policy gave up on the failed page at this edge: only a person loads it again.
    case gaveUp(FeedEdge)
    /// Call `tick(now:)` after this many milliseconds (a fixed hold of the refresh indicator ends).
    case wake(after: Int)
    /// Scroll to the top (`refreshOffsetObservable` does once the content returns to its origin).
    case scrollToTop
    /// Scroll to the bottom: new items arrived while the reader was there.
    case scrollToBottom
}

extension FeedAction: CustomStringConvertible {
    /// The action as the docs and the playground's log name it: `loadMore`, `retry(bottom, after: 1000 ms)`.
    public var description: String {
        switch self {
        case .loadMore: "loadMore"
        case .loadPrevious: "loadPrevious"
        case .refresh: "refresh"
        case .cancelLoadMore: "cancelLoadMore"
        case .retry(let edge, let delay): "retry(\(edge.rawValue), after: \(delay) ms)"
        case .gaveUp(let edge): "gaveUp(\(edge.rawValue))"
        case .wake(let delay): "wake(after: \(delay) ms)"
        case .scrollToTop: "scrollToTop"
        case .scrollToBottom: "scrollToBottom"
        }
    }
}

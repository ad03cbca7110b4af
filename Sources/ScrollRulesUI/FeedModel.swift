import Observation
import ScrollRules

/// One feed's rules and the work they start, owned by the app: make it in `@State`, pass it to
/// `scrollRules(_:loadMore:loadPrevious:refresh:onAction:)`, draw `indicator`. Every decision is its
/// `FeedController`'s; the model runs the loads and the refresh with your closures, reports how they end,
/// sleeps on its clock for retries and holds, and cancels what the rules drop.
///
/// Settings, `hasPrevious` and the closures can change at any time; a closure you leave out is a
/// capability the rules never use (no pull without `refresh`, no top edge without `loadPrevious`). Its
/// tasks hold it weakly and are cancelled when it goes away (`deinit`), not when its view disappears: a
/// view that disappears under a navigation push keeps its `@State`, and the page it was loading lands.
@Observable @MainActor
public final class FeedModel {
    /// How to draw the refresh indicator, the loading row and a failed page (observed: a view that reads it
    /// updates when it changes).
    public private(set) var indicator = IndicatorState.hidden

    /// The decisions.
    @ObservationIgnored public private(set) var controller: FeedController
    /// The clock the rules read and the retries sleep on.
    @ObservationIgnored public let clock: any FeedClock
    /// Loads the next page; returns whether the feed has more. Nil: the rules never load at the bottom.
    @ObservationIgnored public var loadMore: (@MainActor () async throws -> Bool)? {
        didSet { updateCapabilities() }
    }
    /// Loads the previous page (older items on top); returns whether there are more. Nil: the top edge never loads.
    @ObservationIgnored public var loadPrevious: (@MainActor () async throws -> Bool)? {
        didSet { updateCapabilities() }
    }
    /// Refreshes; returns how many new items it put on top. Nil: no pull shows or starts anything.
    @ObservationIgnored public var refreshAction: (@MainActor () async throws -> Int)? {
        didSet { updateCapabilities() }
    }
    /// Hears what only the view can do: `scrollToTop`, `scrollToBottom`, `gaveUp`.
    @ObservationIgnored public var onAction: (@MainActor (FeedAction) -> Void)?

    @ObservationIgnored private var random: any RandomNumberGenerator
    @ObservationIgnored private var geometry: FeedGeometry?
    @ObservationIgnored private var phase = FeedScrollPhase.idle
    @ObservationIgnored private var legacyContent: (origin: ScrollPoint, size: ScrollSize)?
    @ObservationIgnored private var legacyContainer: ScrollSize?
    /// Every task the model started, by id: what `deinit` cancels.
    @ObservationIgnored private var tasks: [Int: Task<Void, Never>] = [:]
    @ObservationIgnored private var loadIDs: [FeedEdge: Int] = [:]
    @ObservationIgnored private var refreshID: Int?
    @ObservationIgnored private var lastID = 0
    @ObservationIgnored private var refreshWaiters: [CheckedContinuation<Void, Never>] = []

    /// A model for one feed with `settings`. `clock` and `random` (a retry's jitter) are injectable for tests.
    public init(
        settings: FeedSettings, hasPrevious: Bool = false,
        loadMore: (@MainActor () async throws -> Bool)? = nil,
        loadPrevious: (@MainActor () async throws -> Bool)? = nil,
        refresh: (@MainActor () async throws -> Int)? = nil,
        clock: any FeedClock = ContinuousFeedClock(),
        random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        controller = FeedController(settings: settings, hasPrevious: hasPrevious, capabilities: [])
        self.clock = clock
        self.random = random
        self.loadMore = loadMore
        self.loadPrevious = loadPrevious
        self.refreshAction = refresh
        updateCapabilities()
    }

    deinit {
        for task in tasks.values { task.cancel() }
        for waiter in refreshWaiters { waiter.resume() }
    }

    // MARK: Settings and the feed's ends

    /// The rules' settings; new ones apply from the current position.
    public var settings: FeedSettings {
        get { controller.settings }
        set { if newValue != controller.settings { send(.settingsChanged(newValue)) } }
    }

    /// Whether older items exist above the first one shown.
    public var hasPrevious: Bool {
        get { controller.hasPrevious }
        set { send(.feedChanged(hasMore: controller.hasMore, hasPrevious: newValue)) }
    }

    /// Whether the feed has more at the bottom.
    public var hasMore: Bool {
        get { controller.hasMore }
        set { send(.feedChanged(hasMore: newValue, hasPrevious: controller.hasPrevious)) }
    }

    // MARK: What the scroll view reports

    /// The scroll view's geometry changed.
    public func geometryChanged(_ geometry: FeedGeometry) {
        self.geometry = geometry
        send(.geometryChanged(geometry, phase: phase))
    }

    /// The scroll view's phase changed: the rules see it with the last geometry (a release is a phase change).
    public func phaseChanged(_ phase: FeedScrollPhase) {
        guard phase != self.phase else { return }
        self.phase = phase
        guard let geometry else { return }
        send(.geometryChanged(geometry, phase: phase))
    }

    /// iOS 17's geometry source: the content's frame in the scroll view's coordinate space (its origin is
    /// the visible top-left, so a content scrolled down 300 pt has `origin.y == -300`). The offset and sizes
    /// become a geometry with no insets once the container's size is known too.
    public func contentFrameChanged(origin: ScrollPoint, size: ScrollSize) {
        legacyContent = (origin, size)
        measured()
    }

    /// iOS 17's geometry source: the scroll view's own size.
    public func containerSizeChanged(_ size: ScrollSize) {
        legacyContainer = size
        measured()
    }

    private func measured() {
        guard let (origin, size) = legacyContent, let container = legacyContainer else { return }
        let geometry = FeedGeometry(
            contentOffset: ScrollPoint(x: -origin.x, y: -origin.y), contentSize: size, containerSize: container)
        if geometry != self.geometry { geometryChanged(geometry) }
    }

    // MARK: The app's hooks

    /// A person asked for `edge`'s page again (a Retry row) or for the next one (Load more).
    public func retry(_ edge: FeedEdge = .bottom) { send(.loadRequested(edge)) }

    /// Starts a refresh, or joins the one running, and returns when its indicator ends: the action of
    /// `.refreshable { await model.refresh() }`, so the system's control and `indicator` agree and one
    /// refresh runs however often it is asked. Returns at once when none can start (no `refresh` closure,
    /// or the preset loads older items first).
    public func refresh() async {
        if !controller.isRefreshing { send(.refreshRequested) }
        guard controller.isRefreshing else { return }
        await withCheckedContinuation { refreshWaiters.append($0) }
    }

    /// New items arrived at the bottom (a chat's messages): a reader at the bottom gets `scrollToBottom`.
    public func itemsArrived() { send(.itemsArrived) }

    /// Back to the first page: every load, refresh and timer is cancelled, the rules start afresh.
    public func reset(hasMore: Bool = true, hasPrevious: Bool = false) {
        send(.reset(hasMore: hasMore, hasPrevious: hasPrevious))
        for task in tasks.values { task.cancel() }
        tasks = [:]
        loadIDs = [:]
        refreshID = nil
        settle()
    }

    /// Applies one event now and carries out what the rules decided; returns the decisions (to log).
    @discardableResult
    public func send(_ event: FeedEvent) -> [FeedDecision] {
        let decisions = controller.decide(event, now: clock.now(), using: &random)
        for decision in decisions { carryOut(decision) }
        settle()
        return decisions
    }

    // MARK: Carrying out

    private func carryOut(_ decision: FeedDecision) {
        switch decision {
        case .loadStarted(let edge, _): start(edge)
        case .loadCancelled(let edge, _): cancelLoad(edge)
        case .refreshStarted: startRefresh()
        case .refreshCancelled:
            if let id = refreshID { tasks.removeValue(forKey: id)?.cancel() }
            refreshID = nil
        case .retryScheduled(_, _, let delay, _): wake(after: delay)
        case .holdStarted(let ms): wake(after: ms)
        default: break
        }
        switch decision.action {
        case .gaveUp, .scrollToTop, .scrollToBottom: onAction?(decision.action!)
        default: break
        }
    }

    private func nextID() -> Int {
        lastID += 1
        return lastID
    }

    private func start(_ edge: FeedEdge) {
        guard let load = edge == .bottom ? loadMore : loadPrevious else {
            // Not reached while the capabilities are current; never leave the edge in flight.
            _ = controller.decide(.loadCancelled(edge), now: clock.now(), using: &random)
            return
        }
        let id = nextID()
        loadIDs[edge] = id
        tasks[id] = Task { [weak self] in
            let outcome: Bool?
            do { outcome = try await load() } catch { outcome = nil }
            // A load the rules dropped (a refresh, a reset) or a model that went away hears nothing.
            guard let self, self.loadIDs[edge] == id else { return }
            self.loadIDs[edge] = nil
            self.tasks[id] = nil
            self.send(outcome.map { .loadFinished(edge, hasMore: $0, shown: true) } ?? .loadFailed(edge))
        }
    }

    private func cancelLoad(_ edge: FeedEdge) {
        guard let id = loadIDs.removeValue(forKey: edge) else { return }
        tasks.removeValue(forKey: id)?.cancel()
    }

    private func startRefresh() {
        guard let refresh = refreshAction else {
            _ = controller.decide(.refreshFailed, now: clock.now(), using: &random)
            return
        }
        let id = nextID()
        refreshID = id
        tasks[id] = Task { [weak self] in
            let added: Int?
            do { added = try await refresh() } catch { added = nil }
            guard let self, self.refreshID == id else { return }
            self.refreshID = nil
            self.tasks[id] = nil
            self.send(added.map { .refreshFinished(addedItems: $0, shown: true) } ?? .refreshFailed)
        }
    }

    /// Ticks the rules once `delay` ms have passed on the clock (a retry, the end of a hold).
    private func wake(after delay: Int) {
        let id = nextID()
        let deadline = clock.now() + Int64(delay)
        let clock = clock
        tasks[id] = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            guard let self else { return }
            self.tasks[id] = nil
            self.send(.tick)
        }
    }

    private func updateCapabilities() {
        var capabilities: FeedCapabilities = []
        if loadMore != nil { capabilities.insert(.loadMore) }
        if loadPrevious != nil { capabilities.insert(.loadPrevious) }
        if refreshAction != nil { capabilities.insert(.refresh) }
        controller.capabilities = capabilities
        settle()
    }

    /// Publishes the indicator when it changed, and ends the waits of `refresh()` once none shows.
    private func settle() {
        let new = controller.indicator
        if new != indicator { indicator = new }
        if !controller.isRefreshing, !refreshWaiters.isEmpty {
            let waiters = refreshWaiters
            refreshWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }
}

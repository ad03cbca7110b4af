import Observation
import ScrollRules

#if canImport(os)
    import os
#endif

/// One feed's rules and the work they start, owned by the app: make it in `@State`, pass it to
/// `scrollRules(_:loadMore:loadPrevious:refresh:onAction:)`, draw `top` and `bottom` (or `indicator`).
/// It runs the feed through the same runtime as the playground's server, replay and lab: every decision is
/// its `FeedController`'s, every timer in the runtime's one queue; the model supplies only the leaf effects
/// (your closures in `Task`s, one alarm on its clock, what only the view can do).
///
/// Closures come from the modifier each render, held through the modifier's state (``FeedActions``: a closure
/// that captures the view does not keep the model alive), or from `init` for a model used without SwiftUI (a
/// modifier's closure wins where it gives one). A closure nowhere given is a capability the rules never use
/// (no pull without `refresh`, no top edge without `loadPrevious`). Its tasks hold it weakly and are cancelled
/// when it goes away (`deinit`), not when its view disappears: a view that disappears under a navigation push
/// keeps its `@State`, and the page it was loading lands.
@Observable @MainActor
public final class FeedModel {
    /// The refresh indicator and a failed previous page (observed on its own: a page load below does not
    /// redraw a view that reads only this).
    public private(set) var top = IndicatorState.hidden.top
    /// The loading row and a failed next page (observed on its own: a pull's frames do not redraw a view that
    /// reads only this).
    public private(set) var bottom = IndicatorState.hidden.bottom
    /// What keeps the rules from running, each said once (no geometry arrives, the content has no size).
    public private(set) var problems: [FeedProblem] = []

    /// The runtime: the controller, the one timer queue, the tickets of the work in flight.
    @ObservationIgnored package private(set) var runtime: FeedRuntime<FeedTimerRole>
    /// The clock the rules read and the retries sleep on.
    @ObservationIgnored public let clock: any FeedClock
    /// Loads the next page; returns whether the feed has more. For a model used without the modifier.
    @ObservationIgnored public var loadMore: (@MainActor () async throws -> Bool)? {
        didSet { updateCapabilities() }
    }
    /// Loads the previous page (older items on top); returns whether there are more. As `loadMore`.
    @ObservationIgnored public var loadPrevious: (@MainActor () async throws -> Bool)? {
        didSet { updateCapabilities() }
    }
    /// Refreshes; returns how many new items it put on top. As `loadMore`.
    @ObservationIgnored public var refreshAction: (@MainActor () async throws -> Int)? {
        didSet { updateCapabilities() }
    }
    /// Hears what only the view can do: `scrollToTop`, `scrollToBottom`, `gaveUp`. As `loadMore`.
    @ObservationIgnored public var onAction: (@MainActor (FeedAction) -> Void)?
    /// Hears every decision, with its reason, as it is carried out (to log it as the playground does).
    @ObservationIgnored public var onDecision: (@MainActor (FeedDecision) -> Void)?

    /// How long after `appeared()` a model without a geometry reports ``FeedProblem/noGeometry(afterMs:)``.
    public static let geometryGraceMs = 3000

    @ObservationIgnored private weak var attached: FeedActions?
    /// iOS 17's probe reads the `UIScrollView` itself: the content-frame measurement and the drag are ignored.
    @ObservationIgnored var readsScrollView = false
    @ObservationIgnored private var random: any RandomNumberGenerator
    @ObservationIgnored private var geometry: FeedGeometry?
    @ObservationIgnored private var phase = FeedScrollPhase.idle
    @ObservationIgnored private var legacyContent: (origin: ScrollPoint, size: ScrollSize)?
    @ObservationIgnored private var legacyContainer: ScrollSize?
    /// The task running each ticket's work (a load, the refresh).
    @ObservationIgnored private var running: [Int: Task<Void, Never>] = [:]
    /// The one sleep on the clock: until the runtime's earliest timer.
    @ObservationIgnored private var alarm: (due: Int64, task: Task<Void, Never>)?
    @ObservationIgnored private var watchdog: Task<Void, Never>?
    @ObservationIgnored private var refreshWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    @ObservationIgnored private var lastWaiter = 0

    /// A model for one feed with `settings`. The closures are for a model used without the modifier (the
    /// modifier gives its own each render); `clock` and `random` (a retry's jitter) are injectable for tests.
    public init(
        settings: FeedSettings, hasPrevious: Bool = false,
        loadMore: (@MainActor () async throws -> Bool)? = nil,
        loadPrevious: (@MainActor () async throws -> Bool)? = nil,
        refresh: (@MainActor () async throws -> Int)? = nil,
        clock: any FeedClock = ContinuousFeedClock(),
        random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        runtime = FeedRuntime(FeedController(settings: settings, hasPrevious: hasPrevious, capabilities: []))
        self.clock = clock
        self.random = random
        self.loadMore = loadMore
        self.loadPrevious = loadPrevious
        self.refreshAction = refresh
        updateCapabilities()
    }

    deinit {
        for task in running.values { task.cancel() }
        alarm?.task.cancel()
        watchdog?.cancel()
        for waiter in refreshWaiters.values { waiter.resume() }
    }

    // MARK: What the app reads

    /// How to draw the refresh indicator, the loading row and a failed page: ``top`` and ``bottom`` together
    /// (a view that reads it redraws when either changes).
    public var indicator: IndicatorState { IndicatorState(top: top, bottom: bottom) }

    /// The decisions.
    public var controller: FeedController { runtime.controller }

    /// Edges whose rule the app holds back (while it scrolls to an item, so the geometry on the way loads nothing).
    public var heldRules: Set<FeedEdge> {
        get { runtime.controller.heldRules }
        set { runtime.controller.heldRules = newValue }
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

    // MARK: The closures

    /// Runs `actions`' closures from now on, where they give one (the model's own elsewhere). The model
    /// holds `actions` weakly: whoever gives them keeps them (the modifier keeps them in its state), so a
    /// closure capturing a view never keeps the model alive.
    public func attach(_ actions: FeedActions) {
        attached = actions
        updateCapabilities()
    }

    private var loadMoreToRun: (@MainActor () async throws -> Bool)? { attached?.loadMore ?? loadMore }
    private var loadPreviousToRun: (@MainActor () async throws -> Bool)? { attached?.loadPrevious ?? loadPrevious }
    private var refreshToRun: (@MainActor () async throws -> Int)? { attached?.refresh ?? refreshAction }
    private var onActionToRun: (@MainActor (FeedAction) -> Void)? { attached?.onAction ?? onAction }

    // MARK: What the scroll view reports

    /// The view appeared: a model that receives no geometry (or only a content size of zero) within
    /// ``geometryGraceMs`` says so once in ``problems``.
    public func appeared() {
        guard watchdog == nil else { return }
        let clock = clock
        let deadline = clock.now() + Int64(Self.geometryGraceMs)
        watchdog = Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            self?.checkGeometry()
        }
    }

    private func checkGeometry() {
        guard let geometry else {
            report(.noGeometry(afterMs: Self.geometryGraceMs))
            return
        }
        if geometry.contentSize.width == 0, geometry.contentSize.height == 0 { report(.zeroContentSize) }
    }

    private func report(_ problem: FeedProblem) {
        guard !problems.contains(problem) else { return }
        problems.append(problem)
        #if DEBUG && canImport(os)
            os_log(.fault, "%{public}@", problem.description)
        #endif
    }

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

    /// A geometry and its phase at once (a scroll view read directly: iOS 17's `UIScrollView` probe).
    public func scrolled(_ geometry: FeedGeometry, phase: FeedScrollPhase) {
        guard geometry != self.geometry || phase != self.phase else { return }
        self.geometry = geometry
        self.phase = phase
        send(.geometryChanged(geometry, phase: phase))
    }

    /// iOS 17's geometry source: the content's frame in the scroll view's coordinate space (its origin is
    /// the visible top-left, so a content scrolled down 300 pt has `origin.y == -300`). The offset and sizes
    /// become a geometry with no insets once the container's size is known too.
    public func contentFrameChanged(origin: ScrollPoint, size: ScrollSize) {
        guard !readsScrollView else { return }
        legacyContent = (origin, size)
        measured()
    }

    /// iOS 17's geometry source: the scroll view's own size.
    public func containerSizeChanged(_ size: ScrollSize) {
        guard !readsScrollView else { return }
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
    /// or the preset loads older items first), and as soon as the calling task is cancelled (the refresh
    /// itself goes on, as `.refreshable`'s does).
    public func refresh() async {
        if !controller.isRefreshing { send(.refreshRequested) }
        guard controller.isRefreshing, !Task.isCancelled else { return }
        lastWaiter += 1
        let id = lastWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    refreshWaiters[id] = continuation
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.refreshWaiters.removeValue(forKey: id)?.resume() }
        }
    }

    /// New items arrived at the bottom (a chat's messages): a reader at the bottom gets `scrollToBottom`.
    public func itemsArrived() { send(.itemsArrived) }

    /// Back to the first page: every load, refresh and timer is cancelled, the rules start afresh.
    public func reset(hasMore: Bool = true, hasPrevious: Bool = false) {
        send(.reset(hasMore: hasMore, hasPrevious: hasPrevious))
        for task in running.values { task.cancel() }
        running = [:]
        settle()
    }

    /// Applies one event now and carries out what the rules decided; returns the decisions (to log).
    @discardableResult
    public func send(_ event: FeedEvent) -> [FeedDecision] {
        updateCapabilities()
        let now = clock.now()
        let decisions = runtime.decide(event, now: now, using: &random)
        // Work the event ended without a decision (the app dropped a load itself) stops running.
        if running.count > 0 {
            let current = [runtime.loads.bottom, runtime.loads.top, runtime.refresh]
            for ticket in running.keys where !current.contains(ticket) { running.removeValue(forKey: ticket)?.cancel() }
        }
        for decision in decisions {
            run(runtime.step(decision, now: now))
            onDecision?(decision)
        }
        rearm()
        settle()
        return decisions
    }

    // MARK: The leaf effects

    /// The model's leaf effect of one step of the runtime.
    private func run(_ step: FeedStep<FeedTimerRole>) {
        switch step {
        case .startLoad(let edge, _, let ticket):
            start(edge, ticket: ticket)
        case .cancelLoad(_, let ticket, _), .cancelRefresh(let ticket, _):
            running.removeValue(forKey: ticket)?.cancel()
        case .startRefresh(_, let ticket):
            startRefresh(ticket: ticket)
        case .armed, .disarmed:
            // The alarm follows the queue's earliest timer once the decisions are carried out (`rearm`).
            break
        case .view(let action):
            onActionToRun?(action.action)
        case .none:
            break
        }
    }

    private func start(_ edge: FeedEdge, ticket: Int) {
        guard let load = edge == .bottom ? loadMoreToRun : loadPreviousToRun else {
            // Not reached while the capabilities are current; never leave the edge in flight.
            send(.loadCancelled(edge))
            return
        }
        running[ticket] = Task { [weak self] in
            let outcome: Bool?
            do { outcome = try await load() } catch { outcome = nil }
            // A load the rules dropped (a refresh, a reset) or a model that went away hears nothing.
            guard let self, self.runtime.ticket(of: .load(edge)) == ticket else { return }
            self.running[ticket] = nil
            self.send(outcome.map { .loadFinished(edge, hasMore: $0, shown: true) } ?? .loadFailed(edge))
        }
    }

    private func startRefresh(ticket: Int) {
        guard let refresh = refreshToRun else {
            send(.refreshFailed)
            return
        }
        running[ticket] = Task { [weak self] in
            let added: Int?
            do { added = try await refresh() } catch { added = nil }
            guard let self, self.runtime.ticket(of: .refresh) == ticket else { return }
            self.running[ticket] = nil
            self.send(added.map { .refreshFinished(addedItems: $0, shown: true) } ?? .refreshFailed)
        }
    }

    /// One sleep, until the runtime's earliest timer: a timer dropped (a cancelled retry) cancels it.
    private func rearm() {
        let next = runtime.timers.next?.due
        guard alarm?.due != next else { return }
        alarm?.task.cancel()
        alarm = nil
        guard let next else { return }
        let clock = clock
        alarm = (
            next,
            Task { [weak self] in
                do { try await clock.sleep(until: next) } catch { return }
                self?.ring()
            }
        )
    }

    /// The alarm rang: every timer due by now fires, earliest first.
    private func ring() {
        alarm = nil
        while let entry = runtime.timers.next, entry.due <= clock.now() {
            switch runtime.fire(entry.id) {
            case .event(let event)?:
                send(event)
            case .lands?, .own?, nil:
                // The model queues no landing (its work reports its own end) and no timer of its own.
                break
            }
        }
        rearm()
    }

    private func updateCapabilities() {
        var capabilities: FeedCapabilities = []
        if loadMoreToRun != nil { capabilities.insert(.loadMore) }
        if loadPreviousToRun != nil { capabilities.insert(.loadPrevious) }
        if refreshToRun != nil { capabilities.insert(.refresh) }
        if capabilities != runtime.controller.capabilities { runtime.controller.capabilities = capabilities }
    }

    /// Publishes each part of the indicator when it changed, and ends the waits of `refresh()` once none shows.
    private func settle() {
        let new = controller.indicator
        if new.top != top { top = new.top }
        if new.bottom != bottom { bottom = new.bottom }
        if !controller.isRefreshing, !refreshWaiters.isEmpty {
            let waiters = refreshWaiters.values
            refreshWaiters = [:]
            for waiter in waiters { waiter.resume() }
        }
    }
}

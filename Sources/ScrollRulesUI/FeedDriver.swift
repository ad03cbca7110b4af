import ScrollRules

/// Runs a `FeedController`'s actions with the app's async closures: it starts the loads and refreshes
/// the rules ask for, reports how they end, cancels a load a refresh replaces, and sleeps for retries.
/// Every decision stays in the controller; this is the plumbing, on the main actor. Plain Swift (no
/// SwiftUI), so it runs anywhere; `View.scrollRules` feeds it from a `ScrollView`.
@MainActor
public final class FeedDriver {
    /// The decisions.
    public private(set) var controller: FeedController
    private let loadMore: @MainActor () async throws -> Bool
    private let loadPrevious: (@MainActor () async throws -> Bool)?
    private let refresh: (@MainActor () async throws -> Int)?
    private let onChange: @MainActor (IndicatorState, FeedAction?) -> Void
    private let clock: @MainActor () -> Int64
    private var geometry: FeedGeometry?
    private var phase = FeedScrollPhase.idle
    private var loads: [FeedEdge: (task: Task<Void, Never>, id: Int)] = [:]
    private var nextLoad = 0

    /// A driver for one feed. `loadMore` and `loadPrevious` load a page and return whether the feed has
    /// more at that edge; `refresh` returns how many new items it put on top; a throw is a failure.
    /// `onChange` hears the indicator after every change, with the action that asks the app for more
    /// (`scrollToTop`, `scrollToBottom`, `gaveUp`), if any. `clock` is milliseconds on a monotonic clock.
    public init(
        settings: FeedSettings, hasPrevious: Bool = false,
        loadMore: @escaping @MainActor () async throws -> Bool,
        loadPrevious: (@MainActor () async throws -> Bool)? = nil,
        refresh: (@MainActor () async throws -> Int)? = nil,
        onChange: @escaping @MainActor (IndicatorState, FeedAction?) -> Void = { _, _ in },
        clock: @escaping @MainActor () -> Int64 = FeedDriver.continuousClock()
    ) {
        controller = FeedController(settings: settings, hasPrevious: hasPrevious)
        self.loadMore = loadMore
        self.loadPrevious = loadPrevious
        self.refresh = refresh
        self.onChange = onChange
        self.clock = clock
    }

    /// Milliseconds since the driver was made, on `ContinuousClock` (no Foundation).
    public nonisolated static func continuousClock() -> @MainActor () -> Int64 {
        let origin = ContinuousClock.now
        return {
            let elapsed = (ContinuousClock.now - origin).components
            return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        }
    }

    /// The scroll view's geometry changed.
    public func geometryChanged(_ geometry: FeedGeometry) {
        self.geometry = geometry
        perform(controller.geometryChanged(geometry, phase: phase, now: clock()))
    }

    /// The scroll view's phase changed: the rules see it with the last geometry (a release is a phase change).
    public func phaseChanged(_ phase: FeedScrollPhase) {
        self.phase = phase
        guard let geometry else { return }
        perform(controller.geometryChanged(geometry, phase: phase, now: clock()))
    }

    /// A person asked for a refresh (`refreshable`, a button).
    public func refreshRequested() { perform(controller.refreshRequested(now: clock())) }

    /// A person asked for the next page (a Retry row).
    public func loadRequested(_ edge: FeedEdge = .bottom) { perform(controller.loadRequested(edge, now: clock())) }

    private func perform(_ actions: [FeedAction]) {
        var told: FeedAction? = nil
        for action in actions {
            switch action {
            case .loadMore: start(.bottom)
            case .loadPrevious: start(.top)
            case .refresh: startRefresh()
            case .cancelLoadMore:
                loads[.bottom]?.task.cancel()
                loads[.bottom] = nil
            case .retry(_, let after), .wake(let after):
                Task {
                    try? await Task.sleep(for: .milliseconds(after))
                    self.perform(self.controller.tick(now: self.clock()))
                }
            case .gaveUp, .scrollToTop, .scrollToBottom:
                told = action
            }
        }
        onChange(controller.indicator, told)
    }

    private func start(_ edge: FeedEdge) {
        let load = edge == .bottom ? loadMore : loadPrevious
        guard let load else { return }
        nextLoad += 1
        let id = nextLoad
        let task = Task {
            let outcome: Bool?
            do { outcome = try await load() } catch { outcome = nil }
            // A load a refresh cancelled is not the controller's any more.
            guard self.loads[edge]?.id == id else { return }
            self.loads[edge] = nil
            let now = self.clock()
            self.perform(
                outcome.map { self.controller.loadFinished(edge, hasMore: $0, now: now) }
                    ?? self.controller.loadFailed(edge, now: now))
        }
        loads[edge] = (task, id)
    }

    private func startRefresh() {
        guard let refresh else { return }
        Task {
            let added: Int?
            do { added = try await refresh() } catch { added = nil }
            let now = self.clock()
            self.perform(
                added.map { self.controller.refreshFinished(addedItems: $0, now: now) }
                    ?? self.controller.refreshFailed(now: now))
        }
    }
}

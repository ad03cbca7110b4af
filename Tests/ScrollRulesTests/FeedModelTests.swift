import ScrollRules
import ScrollRulesUI
import Testing

/// The model an app owns, driven on Linux under Swift concurrency with a clock the test advances: what it
/// runs, when it stops, and what it never leaves on.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct FeedModelTests {
    final class Log {
        var loads = 0
        var refreshes = 0
        var previous = 0
    }

    struct Offline: Error {}
    struct NoJitter: RandomNumberGenerator { mutating func next() -> UInt64 { 0 } }

    static func geometry(offset: Double, content: Double = 3000) -> FeedGeometry {
        FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: offset), contentSize: ScrollSize(width: 390, height: content),
            containerSize: ScrollSize(width: 390, height: 844))
    }
    static let atTheBottom = geometry(offset: 2156)

    /// Lets the model's tasks run until `condition` holds (bounded: the tasks need a few turns, not time).
    func settle(_ condition: () -> Bool = { false }) async {
        for _ in 0..<200 {
            if condition() { return }
            await Task.yield()
        }
    }

    @Test func aModelThatWentAwayLoadsNothingMore() async {
        let log = Log()
        let clock = ManualFeedClock()
        var model: FeedModel? = FeedModel(
            settings: FeedSettings(preset: .playground),
            loadMore: {
                log.loads += 1
                throw Offline()
            }, clock: clock, random: NoJitter())
        weak let watched = model
        model?.geometryChanged(Self.atTheBottom)
        await settle { model?.indicator.bottomFailure != nil && clock.sleeping == 1 }
        #expect(log.loads == 1)
        #expect(clock.sleeping == 1)  // the retry's backoff
        model = nil
        #expect(watched == nil)
        // Whatever time passes, nothing loads: the retry was cancelled with the model.
        for t in stride(from: Int64(1000), through: 120_000, by: 1000) {
            clock.advance(to: t)
            await settle()
        }
        #expect(log.loads == 1)
        #expect(clock.sleeping == 0)
    }

    @Test func newClosuresRunInsteadOfTheOldOnes() async {
        let log = Log()
        var replaced = 0
        let model = FeedModel(
            settings: FeedSettings(preset: .playground),
            loadMore: {
                log.loads += 1
                return true
            }, clock: ManualFeedClock())
        model.loadMore = {
            replaced += 1
            return true
        }
        model.geometryChanged(Self.atTheBottom)
        await settle { !model.controller.isLoading(.bottom) }
        #expect(log.loads == 0)
        #expect(replaced == 1)
    }

    @Test func missingClosuresLeaveNothingOnAndDivertNoPull() async {
        let log = Log()
        // The default preset pulls to refresh, and the feed has older items, but the app gave neither closure.
        let model = FeedModel(
            settings: FeedSettings(preset: .playground), hasPrevious: true,
            loadMore: {
                log.loads += 1
                return true
            }, clock: ManualFeedClock())
        // At the top, then a pull far past the threshold and its release.
        model.geometryChanged(Self.geometry(offset: 0))
        model.phaseChanged(.interacting)
        model.geometryChanged(Self.geometry(offset: -120))
        #expect(model.indicator == .hidden)
        model.phaseChanged(.idle)
        model.geometryChanged(Self.geometry(offset: 0))
        #expect(model.indicator == .hidden)
        #expect(!model.controller.isRefreshing)
        #expect(!model.controller.isLoading(.top))
        // And the bottom still loads.
        model.geometryChanged(Self.atTheBottom)
        await settle { log.loads == 1 && !model.controller.isLoading(.bottom) }
        #expect(log.loads == 1)
        #expect(model.indicator == .hidden)
    }

    @Test func refreshableJoinsTheRunningRefreshAndOneRuns() async {
        let log = Log()
        var finish: CheckedContinuation<Void, Never>?
        let model = FeedModel(
            settings: FeedSettings(preset: .playground), loadMore: { true },
            refresh: {
                log.refreshes += 1
                await withCheckedContinuation { finish = $0 }
                return 3
            }, clock: ManualFeedClock())
        model.geometryChanged(Self.geometry(offset: 0))
        var ended = 0
        let first = Task { @MainActor in
            await model.refresh()
            ended += 1
        }
        let second = Task { @MainActor in
            await model.refresh()
            ended += 1
        }
        await settle { finish != nil }
        #expect(log.refreshes == 1)
        #expect(model.controller.isRefreshing)
        #expect(model.indicator.topVisible)
        #expect(ended == 0)
        finish?.resume()
        await first.value
        await second.value
        #expect(ended == 2)
        #expect(log.refreshes == 1)
        #expect(!model.controller.isRefreshing)
        #expect(!model.indicator.topVisible)
    }

    @Test func aFailedPageCountsDownAndIsRetried() async {
        let log = Log()
        let clock = ManualFeedClock()
        let model = FeedModel(
            settings: FeedSettings(preset: .playground),
            loadMore: {
                log.loads += 1
                if log.loads == 1 { throw Offline() }
                return true
            }, clock: clock, random: NoJitter())
        clock.advance(to: 100)
        model.geometryChanged(Self.atTheBottom)
        await settle { model.indicator.bottomFailure != nil }
        // `backoff` at 1,000 ms base, half of it jittered: 500 ms with no jitter.
        let failure = model.indicator.bottomFailure
        #expect(failure == IndicatorState.Failure(failures: 1, next: .scheduled, retryAt: 600))
        #expect(failure?.retryCountdown(now: clock.now()) == 500)
        #expect(log.loads == 1)
        clock.advance(to: 600)
        await settle { log.loads == 2 && !model.controller.isLoading(.bottom) }
        #expect(log.loads == 2)
        #expect(model.indicator.bottomFailure == nil)
        #expect(model.indicator == .hidden)
    }
}

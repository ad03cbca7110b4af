import Observation
import ScrollRules
import ScrollRulesTestSupport
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

    /// Lets the model's tasks run until `condition` holds (bounded: the tasks need a few turns of the main
    /// actor, not time; other suites share it, so the bound is generous), or a few turns without one.
    func settle(_ condition: (() -> Bool)? = nil) async {
        for _ in 0..<(condition == nil ? 200 : 50_000) {
            if condition?() == true { return }
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

    // MARK: SwiftUI's storage, on Linux

    /// SwiftUI's `State` storage as OpenSwiftUI's `State.swift` lays it out: the view value holds the
    /// current value (`_value`) and its location (`_location`, a `StoredLocation` class the graph's
    /// `StatePropertyBox` owns); both keep the model alive for as long as the view value lives.
    final class StoredLocation<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    struct StandInState<Value> {
        var _value: Value
        var _location: StoredLocation<Value>?
        init(installedAt location: StoredLocation<Value>) {
            _value = location.value
            _location = location
        }
        var wrappedValue: Value { _location?.value ?? _value }
    }

    /// The documented pattern: a view whose closures capture it (and so its `@State` holding the model).
    struct FeedScreen {
        var _model: StandInState<FeedModel>
        let log: Log
        var model: FeedModel { _model.wrappedValue }
        @MainActor func loadPage() async throws -> Bool {
            log.loads += 1
            return true
        }
    }

    /// What `ScrollRulesModifier.body` does with a render's closures: into the modifier's own `@State`
    /// (`FeedActions`), which the model holds weakly.
    static func render(_ screen: FeedScreen, modifierState: StoredLocation<FeedActions>) {
        modifierState.value.loadMore = { try await screen.loadPage() }
        screen.model.attach(modifierState.value)
    }

    @Test func aViewWhoseClosuresCaptureItFreesItsModelOnceItsStorageGoes() async {
        let log = Log()
        weak var watched: FeedModel?
        do {
            // The graph's boxes: the view's `@State var model` and the modifier's `@State var actions`.
            let modelBox = StoredLocation(
                FeedModel(settings: FeedSettings(preset: .playground), clock: ManualFeedClock()))
            let actionsBox = StoredLocation(FeedActions())
            watched = modelBox.value
            let screen = FeedScreen(_model: StandInState(installedAt: modelBox), log: log)
            for _ in 0..<3 { Self.render(screen, modifierState: actionsBox) }
            screen.model.geometryChanged(Self.atTheBottom)
            await settle { log.loads == 1 && !screen.model.controller.isLoading(.bottom) }
            #expect(log.loads == 1)
            #expect(watched != nil)
        }
        // The view went: SwiftUI dropped its storage and the modifier's.
        #expect(watched == nil)
    }

    @Test func closuresGivenToInitSurviveARenderThatGivesOthers() async {
        let log = Log()
        let model = FeedModel(
            settings: FeedSettings(preset: .playground), loadMore: { true },
            refresh: {
                log.refreshes += 1
                return 0
            }, clock: ManualFeedClock())
        #expect(model.controller.capabilities == [.loadMore, .refresh])
        // A render gives only `loadMore` (the init's `refresh` is not wiped).
        let actions = FeedActions(loadMore: { true })
        model.attach(actions)
        model.geometryChanged(Self.geometry(offset: 0))
        #expect(model.controller.capabilities == [.loadMore, .refresh])
        await model.refresh()
        #expect(log.refreshes == 1)
    }

    @Test func aModelThatNeverGetsAGeometrySaysSoOnceNamingTheFix() async {
        let clock = ManualFeedClock()
        let model = FeedModel(settings: FeedSettings(preset: .playground), loadMore: { true }, clock: clock)
        model.appeared()
        await settle { clock.sleeping == 1 }
        clock.advance(to: Int64(FeedModel.geometryGraceMs) - 1)
        await settle()
        #expect(model.problems.isEmpty)
        clock.advance(to: Int64(FeedModel.geometryGraceMs))
        await settle { !model.problems.isEmpty }
        #expect(model.problems == [.noGeometry(afterMs: FeedModel.geometryGraceMs)])
        #expect(model.problems.first?.description.contains("scrollRulesContent()") == true)
        model.appeared()
        clock.advance(to: 10_000)
        await settle()
        #expect(model.problems.count == 1)
    }

    @Test func aContentOfNoSizeIsAProblemToo() async {
        let clock = ManualFeedClock()
        let model = FeedModel(settings: FeedSettings(preset: .playground), loadMore: { true }, clock: clock)
        model.appeared()
        model.geometryChanged(Self.geometry(offset: 0, content: 0).withContentWidth(0))
        await settle { clock.sleeping == 1 }
        clock.advance(to: Int64(FeedModel.geometryGraceMs))
        await settle { !model.problems.isEmpty }
        #expect(model.problems == [.zeroContentSize])
    }

    @Test func refreshReturnsWhenItsCallerIsCancelledAndTheRefreshGoesOn() async {
        var finish: CheckedContinuation<Void, Never>?
        let model = FeedModel(
            settings: FeedSettings(preset: .playground), loadMore: { true },
            refresh: {
                await withCheckedContinuation { finish = $0 }
                return 1
            }, clock: ManualFeedClock())
        model.geometryChanged(Self.geometry(offset: 0))
        let caller = Task { @MainActor in await model.refresh() }
        await settle { finish != nil }
        caller.cancel()
        await caller.value
        #expect(model.controller.isRefreshing)
        finish?.resume()
        await settle { !model.controller.isRefreshing }
        #expect(!model.controller.isRefreshing)
    }

    @Test func aCancelledRetryCancelsItsWake() async {
        let log = Log()
        let clock = ManualFeedClock()
        let model = FeedModel(
            settings: FeedSettings(preset: .playground),
            loadMore: {
                log.loads += 1
                if log.loads == 1 { throw Offline() }
                return true
            }, clock: clock, random: NoJitter())
        model.geometryChanged(Self.atTheBottom)
        await settle { model.indicator.bottomFailure?.next == .scheduled && clock.sleeping == 1 }
        #expect(clock.sleeping == 1)
        // A person retries first: the scheduled retry is cancelled, and so is its sleep.
        model.retry()
        await settle { clock.sleeping == 0 && !model.controller.isLoading(.bottom) }
        #expect(clock.sleeping == 0)
        #expect(log.loads == 2)
    }

    @Test func aPullFrameDoesNotInvalidateAViewThatReadsOnlyTheBottom() async {
        let model = FeedModel(
            settings: FeedSettings(preset: .playground), loadMore: { true }, refresh: { 0 }, clock: ManualFeedClock())
        model.geometryChanged(Self.geometry(offset: 0))
        model.phaseChanged(.interacting)
        final class Count: @unchecked Sendable { var bottom = 0, top = 0 }
        let count = Count()
        withObservationTracking {
            _ = model.bottom
        } onChange: {
            count.bottom += 1
        }
        withObservationTracking {
            _ = model.top
        } onChange: {
            count.top += 1
        }
        model.geometryChanged(Self.geometry(offset: -30))
        #expect(count.top == 1)
        #expect(count.bottom == 0)
    }
}

extension FeedGeometry {
    fileprivate func withContentWidth(_ width: Double) -> FeedGeometry {
        var copy = self
        copy.contentSize.width = width
        return copy
    }
}

import ScrollRules
import ScrollRulesTestSupport
import Testing

/// The controller's decisions on scripted geometry, completions and a manual clock: what an app is asked to
/// do, and (`decide`) why, in the playground's words.
struct FeedControllerTests {
    static func geometry(offset: Double, content: Double = 3000, container: Double = 844) -> FeedGeometry {
        FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: offset), contentSize: ScrollSize(width: 390, height: content),
            containerSize: ScrollSize(width: 390, height: container))
    }

    /// At the bottom of the default content (the threshold is 50 pt), and just outside it.
    static let atBottom = geometry(offset: 2156)
    static let aboveBottom = geometry(offset: 2000)

    static func controller(_ preset: Preset, _ configure: (inout FeedSettings) -> Void = { _ in }) -> FeedController {
        var settings = FeedSettings(preset: preset)
        configure(&settings)
        return FeedController(settings: settings)
    }

    @Test func theBottomRuleLoadsOncePerArrivalAndReArmsWhenItemsLand() {
        var feed = Self.controller(.playground)
        #expect(feed.geometryChanged(Self.geometry(offset: 2110), phase: .interacting, now: 0) == [.loadMore])
        // Still at the bottom, the load in flight: nothing more.
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 16) == [])
        #expect(feed.isLoading(.bottom))
        #expect(feed.indicator.bottomVisible)
        #expect(feed.loadFinished(.bottom, hasMore: true, now: 600) == [])
        // The new page is short: the page still ends within the threshold, so the re-armed rule loads again.
        #expect(feed.geometryChanged(Self.geometry(offset: 2156, content: 3020), phase: .idle, now: 616) == [.loadMore])
        #expect(feed.loadFinished(.bottom, hasMore: false, now: 1200) == [])
        #expect(feed.geometryChanged(Self.geometry(offset: 2176, content: 3040), phase: .idle, now: 1216) == [])
    }

    @Test func aLevelTriggeredDesignAsksOnEveryFrameButOneLoadFlies() {
        var feed = Self.controller(.refreshableLegacy)
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 0) == [.loadMore])
        #expect(feed.geometryChanged(Self.geometry(offset: 2150), phase: .idle, now: 16) == [])
        #expect(feed.loadFinished(.bottom, hasMore: true, now: 600) == [])
        // No re-arm in this design, but its rule is level-triggered: still at the end, it loads again.
        #expect(feed.geometryChanged(Self.geometry(offset: 2150), phase: .idle, now: 616) == [.loadMore])
    }

    @Test func refreshWaitsForTheRelease() {
        var feed = Self.controller(.playground)
        #expect(feed.geometryChanged(Self.geometry(offset: -40), phase: .interacting, now: 0) == [])
        #expect(feed.geometryChanged(Self.geometry(offset: -90), phase: .interacting, now: 16) == [])
        #expect(feed.pull.eligible)
        #expect(feed.verdict.becameEligible)
        #expect(
            feed.decide(.geometryChanged(Self.geometry(offset: -90), phase: .decelerating), now: 32) == [
                .refreshStarted(trigger: .pull)
            ])
        #expect(feed.isRefreshing)
        #expect(feed.indicator.topVisible)
        // Pulls during the refresh are ignored; a person pressing Refresh is told why nothing happens.
        #expect(feed.decide(.refreshRequested, now: 40) == [.refreshIgnored(trigger: .manual)])
        #expect(feed.refreshFailed(now: 1200) == [])
        #expect(!feed.isRefreshing)
        #expect(feed.refresh == .idle)
    }

    @Test func aDesignWithoutReleaseRefreshesAtTheThresholdAndHoldsItsIndicator() {
        var feed = Self.controller(.refreshOffsetObservable)
        #expect(
            feed.decide(.geometryChanged(Self.geometry(offset: -101), phase: .interacting), now: 0) == [
                .refreshStarted(trigger: .pull), .holdStarted(ms: 2000),
            ])
        #expect(feed.refresh == .inFlight(hold: .running(until: 2000)))
        #expect(feed.tick(now: 1999) == [])
        // The fixed hold ends the indicator while the refresh is still in flight: the design's pitfall.
        #expect(feed.tick(now: 2000) == [])
        #expect(!feed.isRefreshing)
        #expect(feed.refresh == .inFlight(hold: .ended))
        #expect(feed.geometryChanged(Self.geometry(offset: 0), phase: .idle, now: 2016) == [.scrollToTop])
        #expect(feed.refreshFinished(addedItems: 3, now: 2500) == [])
        #expect(feed.refresh == .idle)
    }

    @Test func backoffRetriesDoubleUpToTheCapThenGiveUpAndSayWhyTheRuleWaits() {
        var feed = Self.controller(.playground) {
            $0.retryMax = 3
            $0.retryBaseMs = 1000
            $0.retryMaxMs = 3000
        }
        var zero = Draws()
        func decide(_ event: FeedEvent, _ now: Int64) -> [FeedDecision] { feed.decide(event, now: now, using: &zero) }
        #expect(decide(.geometryChanged(Self.atBottom, phase: .idle), 0) == [.loadStarted(.bottom, trigger: .bottom)])
        // A generator that draws 0: each retry waits the shortest its ceiling allows, half of it.
        #expect(decide(.loadFailed(.bottom), 100) == [.retryScheduled(.bottom, retry: 1, delayMs: 500, failures: 1)])
        #expect(feed.retry(.bottom) == .scheduled)
        // The bottom rule waits for the retry instead of firing (the request loop), and says so once per retry.
        #expect(decide(.geometryChanged(Self.aboveBottom, phase: .idle), 200) == [])
        #expect(
            decide(.geometryChanged(Self.atBottom, phase: .idle), 300) == [
                .loadSuppressed(.bottom, trigger: .bottom, reason: .retryScheduled)
            ])
        #expect(decide(.geometryChanged(Self.aboveBottom, phase: .idle), 310) == [])
        #expect(decide(.geometryChanged(Self.atBottom, phase: .idle), 320) == [])
        #expect(decide(.tick, 599) == [])
        // The page's second load in the last second, and the first automatic retry.
        #expect(
            decide(.tick, 600) == [
                .retryStarted(.bottom, trigger: .retry, attempt: 2, perSecond: 2, retry: 1),
                .loadStarted(.bottom, trigger: .retry),
            ])
        #expect(decide(.loadFailed(.bottom), 700) == [.retryScheduled(.bottom, retry: 2, delayMs: 1000, failures: 2)])
        #expect(
            decide(.tick, 1700) == [
                .retryStarted(.bottom, trigger: .retry, attempt: 3, perSecond: 1, retry: 2),
                .loadStarted(.bottom, trigger: .retry),
            ])
        #expect(decide(.loadFailed(.bottom), 1800) == [.retryScheduled(.bottom, retry: 3, delayMs: 1500, failures: 3)])
        #expect(decide(.tick, 3300).map(\.action) == [nil, .loadMore])
        #expect(decide(.loadFailed(.bottom), 3400) == [.gaveUp(.bottom, failures: 4, retries: 3)])
        #expect(feed.retry(.bottom) == .gaveUp)
        #expect(decide(.tick, 60_000) == [])
        // After giving up the rule is held back (said once), and only a person loads the page again.
        #expect(decide(.geometryChanged(Self.aboveBottom, phase: .idle), 60_100) == [])
        #expect(
            decide(.geometryChanged(Self.atBottom, phase: .idle), 60_200) == [
                .loadSuppressed(.bottom, trigger: .bottom, reason: .gaveUp)
            ])
        // The automatic retries start over.
        #expect(
            decide(.loadRequested(.bottom), 61_000) == [
                .retryStarted(.bottom, trigger: .manual, attempt: 5, perSecond: 1, retry: nil),
                .loadStarted(.bottom, trigger: .manual),
            ])
        #expect(decide(.loadFailed(.bottom), 61_100) == [.retryScheduled(.bottom, retry: 1, delayMs: 500, failures: 5)])
    }

    /// The jitter is drawn from the generator `decide` is given, one draw per retry, as the playground's
    /// session draws it: a seeded generator replays the schedule.
    @Test func theRetryJitterIsDrawnFromTheGivenGenerator() {
        var feed = Self.controller(.playground)
        var draws = Draws([7, 1001, 99])
        _ = feed.decide(.loadRequested(.bottom), now: 0, using: &draws)
        // Retry 1: a ceiling of 1,000 ms, half fixed and 7 % 501 of the other half.
        #expect(
            feed.decide(.loadFailed(.bottom), now: 100, using: &draws) == [
                .retryScheduled(.bottom, retry: 1, delayMs: 507, failures: 1)
            ])
        #expect(feed.loads.bottom.failure?.next == .scheduled(ScheduledRetry(number: 1, due: 607)))
        #expect(draws.values == [1001, 99])
        _ = feed.decide(.tick, now: 607, using: &draws)
        // Retry 2: a ceiling of 2,000 ms, 1001 % 1001 = 0 of its second half.
        #expect(
            feed.decide(.loadFailed(.bottom), now: 700, using: &draws) == [
                .retryScheduled(.bottom, retry: 2, delayMs: 1000, failures: 2)
            ])
        #expect(draws.values == [99])
    }

    @Test func aPersonDuringAScheduledRetryRetriesAtOnce() {
        var feed = Self.controller(.playground)
        _ = feed.geometryChanged(Self.atBottom, phase: .idle, now: 0)
        #expect(feed.loadFailed(.bottom, now: 100).count == 1)
        #expect(
            feed.decide(.loadRequested(.bottom), now: 200) == [
                .retryCancelled(.bottom, retry: 1, reason: .manualLoad),
                .retryStarted(.bottom, trigger: .manual, attempt: 2, perSecond: 2, retry: nil),
                .loadStarted(.bottom, trigger: .manual),
            ])
        // Asked again while it flies: said once per load.
        #expect(
            feed.decide(.loadRequested(.bottom), now: 210) == [
                .loadSuppressed(.bottom, trigger: .manual, reason: .loadInFlight)
            ])
        #expect(feed.decide(.loadRequested(.bottom), now: 220) == [])
        // The abandoned retry's wake-up finds nothing due.
        #expect(feed.tick(now: 1100) == [])
    }

    @Test func aRefreshCancelsTheLoadInFlightAndHoldsLoadsBack() {
        var feed = Self.controller(.playground)
        #expect(feed.geometryChanged(Self.atBottom, phase: .idle, now: 0) == [.loadMore])
        #expect(
            feed.decide(.refreshRequested, now: 100) == [
                .refreshStarted(trigger: .manual), .loadCancelled(.bottom, reason: .refreshStarted),
            ])
        #expect(!feed.isLoading(.bottom))
        // The cancelled load's result is not the controller's any more.
        #expect(feed.loadFinished(.bottom, hasMore: true, now: 600) == [])
        // While refreshing the bottom rule loads nothing, and says so every time.
        _ = feed.geometryChanged(Self.aboveBottom, phase: .idle, now: 700)
        #expect(
            feed.decide(.geometryChanged(Self.atBottom, phase: .idle), now: 800) == [
                .loadSuppressed(.bottom, trigger: .bottom, reason: .refreshing)
            ])
        _ = feed.geometryChanged(Self.aboveBottom, phase: .idle, now: 900)
        #expect(
            feed.decide(.geometryChanged(Self.atBottom, phase: .idle), now: 1000) == [
                .loadSuppressed(.bottom, trigger: .bottom, reason: .refreshing)
            ])
        // The indicator goes without new content: the load it held back starts.
        #expect(
            feed.decide(.refreshFinished(addedItems: 0, shown: true), now: 1200) == [
                .loadStarted(.bottom, trigger: .bottom)
            ])
    }

    @Test func anExhaustedEdgeSaysSoOnceAndAPersonIsToldWhy() {
        var feed = Self.controller(.playground)
        _ = feed.geometryChanged(Self.atBottom, phase: .idle, now: 0)
        #expect(feed.loadFinished(.bottom, hasMore: false, now: 600) == [])
        // The page landed and re-armed the rule, which finds nothing more.
        #expect(
            feed.decide(.geometryChanged(Self.geometry(offset: 2156, content: 3020), phase: .idle), now: 616) == [
                .exhausted(.bottom)
            ])
        #expect(feed.loads.bottom == .exhausted)
        _ = feed.geometryChanged(Self.aboveBottom, phase: .idle, now: 700)
        #expect(feed.decide(.geometryChanged(Self.atBottom, phase: .idle), now: 800) == [])
        #expect(feed.decide(.loadRequested(.bottom), now: 900) == [.loadIgnored(.bottom, trigger: .manual)])
        // The feed has more again: the edge loads, and would say it is exhausted again.
        feed.feedChanged(hasMore: true, hasPrevious: false)
        #expect(feed.loads.bottom == .idle)
        #expect(feed.loadRequested(.bottom, now: 1000) == [.loadMore])
    }

    @Test func aTwoWayFeedLoadsPreviousPagesAtItsTopAndYieldsItsRefresh() {
        var settings = FeedSettings(preset: .chat)
        settings.topThreshold = 100
        var feed = FeedController(settings: settings, hasMore: false, hasPrevious: true)
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 0) == [])
        #expect(feed.geometryChanged(Self.geometry(offset: 60), phase: .interacting, now: 16) == [.loadPrevious])
        #expect(feed.geometryChanged(Self.geometry(offset: 40), phase: .interacting, now: 32) == [])
        #expect(feed.loadFinished(.top, hasMore: true, now: 600) == [])
        // Older items landed on top and the anchor held: the top is still near, so the re-armed rule loads on.
        #expect(
            feed.geometryChanged(Self.geometry(offset: 40, content: 3600), phase: .idle, now: 616) == [.loadPrevious])
        #expect(feed.loadFinished(.top, hasMore: false, now: 1200) == [])
        #expect(feed.geometryChanged(Self.geometry(offset: 0, content: 4200), phase: .idle, now: 1216) == [])
        #expect(!feed.hasPrevious)
        // New messages at the bottom are followed only by a reader who is there.
        #expect(feed.itemsArrived(now: 1300) == [])
        _ = feed.geometryChanged(Self.geometry(offset: 3356, content: 4200), phase: .idle, now: 1400)
        #expect(feed.decide(.itemsArrived, now: 1500) == [.followsArrivals])
    }

    @Test func whileOlderItemsExistARefreshLoadsThemInstead() {
        var feed = FeedController(settings: FeedSettings(preset: .playground), hasPrevious: true)
        #expect(
            feed.decide(.refreshRequested, now: 0) == [
                .refreshYielded(trigger: .manual), .loadStarted(.top, trigger: .manual),
            ])
        #expect(!feed.isRefreshing)
        #expect(feed.isLoading(.top))
    }

    @Test func heldRulesLoadNothingButAPersonStillLoads() {
        var feed = Self.controller(.playground)
        feed.heldRules = [.bottom, .top]
        #expect(feed.decide(.geometryChanged(Self.atBottom, phase: .idle), now: 0) == [.ruleHeld(.bottom)])
        #expect(feed.loadRequested(.bottom, now: 10) == [.loadMore])
    }

    @Test func newSettingsDecideAgainAboutAFailedPage() {
        var feed = Self.controller(.playground)
        var zero = Draws()
        _ = feed.decide(.loadRequested(.bottom), now: 0, using: &zero)
        _ = feed.decide(.loadFailed(.bottom), now: 100, using: &zero)
        var manual = feed.settings
        manual.retryPolicy = .manual
        #expect(
            feed.decide(.settingsChanged(manual), now: 200, using: &zero) == [
                .retryCancelled(.bottom, retry: 1, reason: .retryPolicyChanged)
            ])
        #expect(feed.retry(.bottom) == .manual)
        var backoff = manual
        backoff.retryPolicy = .backoff
        #expect(
            feed.decide(.settingsChanged(backoff), now: 300, using: &zero) == [
                .retryScheduled(.bottom, retry: 1, delayMs: 500, failures: 1)
            ])
        // The feed ending under the failed page drops its retry.
        feed.feedChanged(hasMore: false, hasPrevious: false)
        #expect(
            feed.decide(.settingsChanged(backoff), now: 400, using: &zero) == [
                .retryCancelled(.bottom, retry: 1, reason: .feedExhausted)
            ])
        #expect(feed.loads.bottom == .idle)
    }

    @Test func aResetDropsWhatIsInFlightAndSaysWhat() {
        var settings = FeedSettings(preset: .refreshOffsetObservable)
        settings.retryPolicy = .backoff
        var feed = FeedController(settings: settings, hasPrevious: true)
        #expect(feed.loadRequested(.bottom, now: 0) == [.loadMore])
        #expect(feed.loadRequested(.top, now: 0) == [.loadPrevious])
        #expect(feed.loadFailed(.top, now: 100).count == 1)
        #expect(feed.refreshRequested(now: 200) == [.refresh, .wake(after: 2000)])
        #expect(
            feed.decide(.reset(hasMore: true, hasPrevious: false), now: 300) == [
                .loadCancelled(.bottom, reason: .reset), .retryCancelled(.top, retry: 1, reason: .reset),
                .refreshCancelled, .holdCancelled,
            ])
        #expect(feed.loads == PerEdge(.idle))
        #expect(feed.refresh == .idle)
        #expect(feed.memory == RuleMemory())
        #expect(!feed.hasPrevious)
    }

    @Test func aNewPresetStartsFromTheCurrentPositionWithoutFiring() {
        var feed = Self.controller(.customScrollView)
        #expect(feed.geometryChanged(Self.geometry(offset: 1000), phase: .idle, now: 0) == [])
        #expect(feed.update(FeedSettings(preset: .playground), now: 16) == [])
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 32) == [.loadMore])
    }

    @Test func anUnmeasuredContentSizeDecidesNothing() {
        var feed = Self.controller(.customScrollView)
        #expect(feed.geometryChanged(Self.geometry(offset: 0, content: 0), phase: .idle, now: 0) == [])
        #expect(!feed.reachedBottom)
    }

    /// An app that logs the decisions reads the playground's event names and fields.
    @Test func decisionsReadAsThePlaygroundLogsThem() {
        let decisions: [FeedDecision] = [
            .loadStarted(.bottom, trigger: .bottom),
            .retryStarted(.top, trigger: .retry, attempt: 3, perSecond: 2, retry: 2),
            .loadSuppressed(.bottom, trigger: .bottom, reason: .loadInFlight),
            .exhausted(.top),
            .retryScheduled(.bottom, retry: 1, delayMs: 750, failures: 1),
            .loadCancelled(.bottom, reason: .refreshStarted),
            .refreshYielded(trigger: .pull),
        ]
        #expect(
            decisions.map(\.description) == [
                "loadMoreStarted(trigger: bottom)",
                "loadPreviousRetryStarted(trigger: retry, attempt: 3, perSecond: 2, retry: 2)",
                "loadMoreSuppressed(trigger: bottom, reason: loadInFlight)",
                "feedStartReached",
                "loadMoreRetryScheduled(retry: 1, delayMs: 750, failures: 1)",
                "loadMoreCancelled(reason: refreshStarted)",
                "refreshYielded(trigger: pull, reason: hasPrevious, wins: loadPrevious)",
            ])
        #expect(
            decisions.map(\.action) == [.loadMore, nil, nil, nil, .retry(.bottom, after: 750), .cancelLoadMore, nil])
    }
}

import ScrollRules
import Testing

/// The controller's decisions on scripted geometry, completions and a manual clock.
struct FeedControllerTests {
    static func geometry(offset: Double, content: Double = 3000, container: Double = 844) -> FeedGeometry {
        FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: offset), contentSize: ScrollSize(width: 390, height: content),
            containerSize: ScrollSize(width: 390, height: container))
    }

    static func controller(_ preset: Preset, _ configure: (inout FeedSettings) -> Void = { _ in }) -> FeedController {
        var settings = FeedSettings(preset: preset)
        configure(&settings)
        return FeedController(settings: settings, jitter: { half in half })
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
        #expect(feed.geometryChanged(Self.geometry(offset: -90), phase: .decelerating, now: 32) == [.refresh])
        #expect(feed.isRefreshing)
        #expect(feed.indicator.topVisible)
        // Pulls during the refresh are ignored; a person pressing Refresh too.
        #expect(feed.refreshRequested(now: 40) == [])
        #expect(feed.refreshFailed(now: 1200) == [])
        #expect(!feed.isRefreshing)
    }

    @Test func aDesignWithoutReleaseRefreshesAtTheThreshold() {
        var feed = Self.controller(.refreshOffsetObservable)
        #expect(
            feed.geometryChanged(Self.geometry(offset: -101), phase: .interacting, now: 0) == [
                .refresh, .wake(after: 2000),
            ])
        // The fixed hold ends the indicator while the refresh is still in flight: the design's pitfall.
        #expect(feed.tick(now: 2000) == [])
        #expect(!feed.isRefreshing)
        #expect(feed.geometryChanged(Self.geometry(offset: 0), phase: .idle, now: 2016) == [.scrollToTop])
    }

    @Test func backoffRetriesDoubleUpToTheCapThenGiveUp() {
        var feed = Self.controller(.playground) {
            $0.retryMax = 3
            $0.retryBaseMs = 1000
            $0.retryMaxMs = 3000
        }
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 0) == [.loadMore])
        #expect(feed.loadFailed(.bottom, now: 100) == [.retry(.bottom, after: 1000)])
        // The bottom rule waits for the retry instead of firing (the request loop).
        #expect(feed.geometryChanged(Self.geometry(offset: 2100), phase: .idle, now: 200) == [])
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 300) == [])
        #expect(feed.tick(now: 1099) == [])
        #expect(feed.tick(now: 1100) == [.loadMore])
        #expect(feed.loadFailed(.bottom, now: 1200) == [.retry(.bottom, after: 2000)])
        #expect(feed.tick(now: 3200) == [.loadMore])
        #expect(feed.loadFailed(.bottom, now: 3300) == [.retry(.bottom, after: 3000)])
        #expect(feed.tick(now: 6300) == [.loadMore])
        #expect(feed.loadFailed(.bottom, now: 6400) == [.gaveUp(.bottom)])
        #expect(feed.retry(.bottom) == .gaveUp)
        #expect(feed.tick(now: 60_000) == [])
        // Only a person loads it again, and the retries start over.
        #expect(feed.loadRequested(.bottom, now: 61_000) == [.loadMore])
        #expect(feed.loadFailed(.bottom, now: 61_100) == [.retry(.bottom, after: 1000)])
    }

    @Test func aPersonDuringAScheduledRetryRetriesAtOnce() {
        var feed = Self.controller(.playground)
        _ = feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 0)
        #expect(feed.loadFailed(.bottom, now: 100) == [.retry(.bottom, after: 1000)])
        #expect(feed.loadRequested(.bottom, now: 200) == [.loadMore])
        // The abandoned retry's wake-up finds nothing due.
        #expect(feed.tick(now: 1100) == [])
    }

    @Test func aRefreshCancelsTheLoadInFlightAndHoldsLoadsBack() {
        var feed = Self.controller(.playground)
        #expect(feed.geometryChanged(Self.geometry(offset: 2156), phase: .idle, now: 0) == [.loadMore])
        #expect(feed.refreshRequested(now: 100) == [.refresh, .cancelLoadMore])
        // The cancelled load's result is not the controller's any more.
        #expect(feed.loadFinished(.bottom, hasMore: true, now: 600) == [])
        // The indicator goes without new content: the load it held back starts.
        #expect(feed.refreshFinished(addedItems: 0, now: 1200) == [.loadMore])
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
        #expect(feed.itemsArrived(now: 1500) == [.scrollToBottom])
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
}

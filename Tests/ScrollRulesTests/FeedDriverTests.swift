import ScrollRules
import ScrollRulesUI
import Testing

/// The driver under the SwiftUI modifier, with real tasks: it runs the loads the rules ask for with the
/// app's closures and reports their ends back.
// The main actor can be busy for a minute or two in a full `swift test` run on two cores: the bound is wide.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct FeedDriverTests {
    final class Log {
        var loads = 0
        var indicators: [IndicatorState] = []
        var actions: [FeedAction] = []
    }

    static let atTheBottom = FeedGeometry(
        contentOffset: ScrollPoint(x: 0, y: 2156), contentSize: ScrollSize(width: 390, height: 3000),
        containerSize: ScrollSize(width: 390, height: 844))

    @Test func aLoadTheRulesAskForRunsAndItsEndIsReported() async {
        let log = Log()
        let (changes, changed) = AsyncStream<Void>.makeStream()
        let driver = FeedDriver(
            settings: FeedSettings(preset: .playground),
            loadMore: {
                log.loads += 1
                return true
            },
            onChange: { indicator, action in
                log.indicators.append(indicator)
                if let action { log.actions.append(action) }
                changed.yield()
            }, clock: { 0 })
        var iterator = changes.makeAsyncIterator()
        driver.geometryChanged(Self.atTheBottom)
        // The load is asked for at once; its task runs once this test lets the main actor go.
        #expect(driver.controller.isLoading(.bottom))
        #expect(log.indicators.last?.bottomVisible == true)
        await iterator.next()
        // The load's task ran the closure and reported it: the loading row goes.
        await iterator.next()
        #expect(log.loads == 1)
        #expect(!driver.controller.isLoading(.bottom))
        #expect(log.indicators.last?.bottomVisible == false)
        // Still at the bottom, the same content: no second load.
        driver.geometryChanged(Self.atTheBottom)
        await iterator.next()
        #expect(log.loads == 1)
    }

    @Test func aFailedLoadIsRetriedAfterTheBackoff() async {
        let log = Log()
        let (changes, changed) = AsyncStream<Void>.makeStream()
        struct Offline: Error {}
        var settings = FeedSettings(preset: .playground)
        settings.retryBaseMs = 1
        settings.retryMaxMs = 1
        let driver = FeedDriver(
            settings: settings,
            loadMore: {
                log.loads += 1
                if log.loads == 1 { throw Offline() }
                return false
            },
            onChange: { _, _ in changed.yield() })
        var iterator = changes.makeAsyncIterator()
        driver.geometryChanged(Self.atTheBottom)
        // Started, failed (retry scheduled), retried, landed.
        for _ in 0..<4 { await iterator.next() }
        #expect(log.loads == 2)
        #expect(!driver.controller.hasMore)
        #expect(driver.controller.retry(.bottom) == nil)
    }
}

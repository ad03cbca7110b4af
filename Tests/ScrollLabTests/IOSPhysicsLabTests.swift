import ScrollCore
import ScrollLab
import Testing

/// The lab under `physics` `ios`: the page is moved by the iOS model and reports what SwiftUI would.
struct IOSPhysicsLabTests {
    static func page(items: Int = 30, height: Double = 100, contentSize: ContentSizeModel = .exact) -> SimulatedPage {
        var layout = PageLayout()
        layout.containerHeight = 844
        layout.contentSize = contentSize
        var page = SimulatedPage(layout: layout)
        let feed = (1...items).map { FeedItem(id: "i\($0)", title: "\($0)", height: height) }
        page.apply(ItemsMessage(op: .replace, rev: 1, items: feed, total: items, hasMore: true))
        return page
    }

    @Test func aFingerPastTheTopShowsTheRubberBandAndTheReleaseSpringsBack() {
        var page = Self.page()
        for _ in 0..<20 { page.drag(by: -10) }
        #expect(abs(page.pull - 97.3) <= 0.5)
        #expect(abs(page.geometry.contentOffset.y + 97.3) <= 0.5)
        #expect(page.motion.phase == .interacting)
        page.lift(velocity: 0)
        #expect(page.motion.phase == .decelerating)
        var frames = 0
        while page.motion.motion != .idle, frames < 120 {
            page.advanceMotion(ms: 1000 / 60)
            frames += 1
        }
        #expect(page.pull == 0 && page.scroll == 0)
        #expect(frames <= 60, "settled in \(frames) frames")
    }

    @Test func aFlingIntoTheEndReportsAnOffsetBeyondTheEndThenSettlesThere() {
        var page = Self.page()
        page.scroll = page.maxScroll - 300
        page.lift(velocity: 3000)
        var beyond = 0.0
        for _ in 0..<120 {
            page.advanceMotion(ms: 1000 / 60)
            let geometry = page.geometry
            beyond = max(
                beyond, geometry.contentOffset.y - (geometry.contentSize.height - geometry.containerSize.height))
        }
        #expect(beyond > 20, "overshoot \(beyond)")
        #expect(page.overshoot == 0 && page.scroll == page.maxScroll)
        #expect(page.atEnd)
    }

    @Test func aPullNeedsAboutTwiceTheFingerTravelUnderTheRubberBand() {
        // pullRefresh's users pull 80–160 px of finger travel: under the browser that is the pull shown; under
        // ios the rubber band shows 40–72 px, so only the longest pass the 68 px threshold.
        var simulation = Simulation()
        simulation.gesture = .pullRefresh
        simulation.seconds = 60
        simulation.config.physics = .browser
        let browser = simulation.run()
        simulation.config.physics = .ios
        let ios = simulation.run()
        #expect(browser.pulls > 3 * ios.pulls, "browser \(browser.pulls), ios \(ios.pulls)")
        #expect(ios.pulls > 0)
    }

    @Test func aLazyStackReEstimatesItsContentSizeAsRowsRealize() {
        // 40 rows alternating 60 and 140 px (mean 100): the first rows realized are 60, 140, … so the estimate
        // moves as the user scrolls; exact reports 4,000 px throughout.
        var layout = PageLayout()
        layout.contentSize = .lazyEstimate
        layout.containerHeight = 400
        var page = SimulatedPage(layout: layout)
        let rows = (1...40).map { FeedItem(id: "r\($0)", title: "", height: $0 % 2 == 1 ? 60 : 140) }
        page.apply(ItemsMessage(op: .replace, rev: 1, items: rows, total: 40, hasMore: true))
        #expect(page.contentHeight == 4000)
        var reported: Set<Double> = [page.geometry.contentSize.height]
        for _ in 0..<100 {
            page.scroll(by: 37)
            reported.insert(page.geometry.contentSize.height)
        }
        #expect(reported.count > 3)
        #expect(page.realized == 40)
        #expect(page.geometry.contentSize.height == 4000)
    }

    @Test func aTraceWithoutPhysicsWasRecordedOnTheBrowser() throws {
        let old =
            #"{"kind":"header","format":1,"server":"s","session":"a","preset":"playground","config":{},"seed":1,"maxMessageBytes":65536}"#
        #expect(try Trace.parse(old + "\n").header.config.physics == .browser)
        let new =
            #"{"kind":"header","format":1,"server":"s","session":"a","preset":"playground","config":{"physics":"ios"},"seed":1,"maxMessageBytes":65536}"#
        #expect(try Trace.parse(new + "\n").header.config.physics == .ios)
    }
}

import ScrollCore
import ScrollLab
import Testing

/// A user who scrolls the same distance every frame, or jumps to the end, so the outcome can be worked out by hand.
private struct SteadyScroll: GestureDriver {
    var pixelsPerFrame: Double

    mutating func next(page: SimulatedPage, refreshing: Bool) -> FrameIntent {
        FrameIntent(scrollBy: pixelsPerFrame, phase: .interacting)
    }
}

/// The simulator against small cases worked out by hand.
struct SimulationTests {
    /// 30 items of 100 px in pages of 10; a 500 px viewport; 50 Hz frames (20 ms), so every time is exact.
    static func simulation(preset: Preset, seconds: Double = 2) -> Simulation {
        let items = (1...30).map { FeedItem(id: "i\($0)", title: "Item \($0)", height: 100) }
        var simulation = Simulation()
        simulation.source = .list(items)
        simulation.config.rules.preset = preset
        simulation.config.initialCount = 10
        simulation.config.pageSize = 10
        simulation.config.loadLatencyMs = 300
        simulation.layout.containerHeight = 500
        simulation.hz = 50
        simulation.seconds = seconds
        return simulation
    }

    @Test func steadyScrollUnderPlaygroundStallsTwiceFor280Milliseconds() {
        // Frame k is at 20k ms and 50k px. The end of the first 1,000 px (500 px of scroll) is within the
        // 50 px threshold at k = 9 (450 px): page 2 starts at 180 ms and lands at 480 ms. The user reaches
        // the end at k = 10 (200 ms) and waits 280 ms. Page 3 starts at 1,450 px (k = 29, 580 ms), lands at
        // 880 ms; the user is at the end (1,500 px) from k = 30 (600 ms): another 280 ms. Then the feed ends.
        var user = SteadyScroll(pixelsPerFrame: 50)
        let report = Self.simulation(preset: .playground).run(driver: &user)
        var expected = SimulationReport()
        expected.stallTotalMs = 560
        expected.stallP95Ms = 280
        expected.stallMaxMs = 280
        expected.requestsStarted = 2
        expected.pagesLoaded = 2
        expected.peakDOMItems = 30
        expected.items = 30
        expected.geometries = report.geometries
        #expect(report == expected)
    }

    @Test func customScrollViewShortOfTheEndNeverLoads() {
        // The browser stops 0.4 px short of the end: the design's `content <= offset + container` never holds,
        // so the user waits from reaching the end (k = 10, 200 ms) to the end of the run (2,000 ms).
        var simulation = Self.simulation(preset: .customScrollView)
        simulation.layout.endShortfall = 0.4
        var user = SteadyScroll(pixelsPerFrame: 50)
        let report = simulation.run(driver: &user)
        #expect(report.requestsStarted == 0)
        #expect(report.stallTotalMs == 1800)
        #expect(report.stallP95Ms == 1800)
        #expect(report.peakDOMItems == 10)
    }

    @Test func legacyDesignAtTheEndIsSuppressedOncePerLoad() {
        // refreshableLegacy fires on every geometry within the threshold; the session logs one suppression a load.
        var user = SteadyScroll(pixelsPerFrame: 50)
        let report = Self.simulation(preset: .refreshableLegacy).run(driver: &user)
        #expect(report.requestsStarted == 2)
        #expect(report.requestsSuppressed == 2)
        #expect(report.stallTotalMs == 560)
    }

    @Test func aPageThatLandsWhileTheUserStaysAtTheTopIsNeverSeen() {
        // Short content (3 items, 300 px, in a 500 px viewport): playground loads until the viewport is full
        // or the feed ends, without the user moving: pages 2 (10 items, 1,300 px) fills it; page 2's first
        // item starts at 300 px, inside the viewport, so it is seen.
        var simulation = Self.simulation(preset: .playground)
        simulation.config.initialCount = 3
        var user = SteadyScroll(pixelsPerFrame: 0)
        let report = simulation.run(driver: &user)
        #expect(report.requestsStarted == 1)
        #expect(report.pagesLoaded == 1)
        #expect(report.pagesNeverSeen == 0)
        // Before the first geometry the page is 300 px in a 500 px viewport: at the end, waiting, from
        // frame 1 (20 ms) until page 2 lands (20 + 300 = 320 ms).
        #expect(report.stallTotalMs == 300)
    }

    @Test func theSameSeedGivesTheSameSession() {
        var simulation = Simulation()
        simulation.config.jitterMs = 100
        simulation.config.failureRate = 0.1
        simulation.seconds = 10
        #expect(simulation.run() == simulation.run())
        var other = simulation
        other.config.seed = 2
        #expect(simulation.run() != other.run())
    }
}

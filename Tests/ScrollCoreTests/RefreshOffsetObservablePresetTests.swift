import Testing

@testable import ScrollCore

/// `refreshOffsetObservable`: fires without release past `-pullThreshold` (100 by default), a fixed
/// `refreshing` hold, and `scrollToTop` at exactly (0, 0).
struct RefreshOffsetObservablePresetTests {
    /// Its indicator: visible while y < 0, height |y|, scale min(|y| / 50, 1).
    static func indicator(y: Double, bottomVisible: Bool = false) -> IndicatorState {
        IndicatorState(
            topVisible: y < 0, topHeight: y < 0 ? -y : 0, topScale: min(abs(y) / 50, 1), topOpacity: y < 0 ? 1 : 0,
            bottomVisible: bottomVisible)
    }

    @Test func firesAt101WithoutRelease() {
        var h = Harness(["preset": "refreshOffsetObservable"])
        let opened = h.lastState
        #expect(
            h.scroll(y: -101, phase: .interacting) == [
                .log(LogEntry(.pullStarted, geometrySeq: 1, ["distance": 101])),
                .log(LogEntry(.refreshEligible, geometrySeq: 1, ["distance": 101, "threshold": 100])),
                .log(
                    LogEntry(.refreshStarted, geometrySeq: 1, ["trigger": "pull", "latencyMs": 1200, "distance": 101])),
                .schedule(.refresh(1), afterMilliseconds: 1200),
                .schedule(.refreshHold, afterMilliseconds: 2000),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.pull = PullState(distance: 101, progress: 1, eligible: true)
                            $0.refreshing = true
                            $0.indicator = Self.indicator(y: -101)
                        })),
            ])
    }

    @Test(arguments: [-99.0, -100.0])
    func doesNotFireAtOrAboveMinusThreshold(y: Double) {
        var h = Harness(["preset": "refreshOffsetObservable"])
        let opened = h.lastState
        #expect(
            h.scroll(y: y, phase: .interacting) == [
                .log(LogEntry(.pullStarted, geometrySeq: 1, ["distance": .number(-y)])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.pull = PullState(distance: -y, progress: -y / 100, eligible: false)
                            $0.indicator = Self.indicator(y: y)
                        })),
            ])
        #expect(!h.session.controller.refresh.isInFlight)
    }

    @Test func explicitPullThresholdReplacesTheDefault() {
        var h = Harness(["preset": "refreshOffsetObservable", "pullThreshold": 68])
        #expect(h.scroll(y: -68, phase: .interacting).names == [.pullStarted])
        #expect(h.scroll(y: -69, phase: .interacting).names == [.refreshEligible, .refreshStarted])
    }

    @Test func refreshingClearsAfterExactlyRefreshHoldMsThoughTheRefreshTakesLonger() {
        var h = Harness(["preset": "refreshOffsetObservable", "refreshLatencyMs": 5000])
        h.scroll(y: -101, phase: .interacting)
        let refreshing = h.lastState
        #expect(h.advance(by: 1999) == [])
        #expect(
            h.advance(by: 1) == [
                .send(
                    .state(
                        refreshing.with {
                            $0.refreshing = false
                            $0.pull = PullState()
                        }))
            ])
        #expect(h.session.controller.refresh.isInFlight, "the refresh itself is still running")
        let held = h.lastState
        let fresh = (1...5).map { FeedSource.refreshedItem($0, seed: 1) }
        #expect(h.advance(by: 2999) == [])
        #expect(
            h.advance(by: 1) == [
                .send(.items(ItemsMessage(op: .prepend, rev: 2, items: fresh, total: 35, hasMore: true))),
                .log(LogEntry(.refreshFinished, ["added": 5, "total": 35])),
                .send(.state(held.with { $0.itemCount = 35 })),
            ])
    }

    @Test func refreshFasterThanTheHoldStillShowsRefreshingUntilTheHoldEnds() {
        var h = Harness(["preset": "refreshOffsetObservable"])
        h.scroll(y: -101, phase: .interacting)
        #expect(h.advance(by: 1200).names == [.refreshFinished])
        #expect(h.lastState.refreshing)
        // Still pulled past the threshold while `refreshing` shows: no second refresh.
        h.advance(by: 300)
        #expect(h.scroll(y: -101, phase: .interacting).names == [])
        #expect(!h.session.controller.refresh.isInFlight)
        #expect(h.advance(by: 499) == [])
        #expect(h.advance(by: 1).count == 1)
        #expect(h.lastState.refreshing == false)
        // Still pulled past the threshold after the hold: the design fires again, without a release.
        #expect(h.scroll(y: -101, phase: .interacting).names.contains(.refreshStarted))
        #expect(h.timers.map(\.id) == [.refresh(2), .refreshHold])
    }

    @Test func scrollToTopWhenTheOffsetReturnsToExactlyZero() {
        var h = Harness(["preset": "refreshOffsetObservable"])
        // Starting at (0, 0) is not a return.
        #expect(h.scroll(y: 0).names == [])
        h.scroll(y: -50, phase: .interacting)
        let pulled = h.lastState
        #expect(
            h.scroll(y: 0, phase: .idle) == [
                .send(.command(name: "scrollToTop")),
                .log(LogEntry(.scrollToTop, geometrySeq: 3)),
                .send(
                    .state(
                        pulled.with {
                            $0.ack = 3
                            $0.pull = PullState()
                            $0.indicator = Self.indicator(y: 0)
                        })),
            ])
        // Close to but not exactly (0, 0): nothing.
        #expect(h.scroll(y: 0.5).names == [])
        // Scrolled down, the indicator is hidden.
        #expect(h.lastState.indicator == Self.indicator(y: 0.5))
        #expect(h.lastState.indicator.topHeight == 0 && !h.lastState.indicator.topVisible)
        #expect(h.scroll(y: 0, x: 3).names == [])
        #expect(h.scroll(y: 0, x: 0).names == [.scrollToTop])
    }
}

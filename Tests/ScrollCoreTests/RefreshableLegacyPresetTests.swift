import Testing

@testable import ScrollCore

/// `refreshableLegacy`: level-triggered bottom (the design's quirk), release-gated pull on `-contentOffset.y`.
struct RefreshableLegacyPresetTests {
    @Test func loadsAgainRightAfterAPageLandsWhileStillAtTheBottom() {
        var h = Harness(["preset": "refreshableLegacy"])
        #expect(h.scroll(y: 1150).names == [.reachedBottom, .loadMoreStarted])
        // Level-triggered: every geometry at the bottom fires; while loading that is a suppressed trigger, logged once.
        let loading = h.lastState
        #expect(
            h.scroll(y: 1150) == [
                .log(
                    LogEntry(
                        .loadMoreSuppressed, geometrySeq: 2, ["trigger": "bottom", "reason": "loadInFlight", "page": 2])
                ),
                .send(.state(loading.with { $0.ack = 2 })),
            ])
        #expect(h.scroll(y: 1150) == [.send(.state(loading.with { $0.ack = 3 }))])
        #expect(h.advance(by: 600).names == [.loadMoreFinished])
        // The very next geometry, still at the bottom (the page has not even re-measured), loads page 3.
        let landed = h.lastState
        #expect(
            h.scroll(y: 1150) == [
                .log(
                    LogEntry(
                        .loadMoreStarted, geometrySeq: 4,
                        ["page": 3, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 50])),
                .schedule(.pageLoad(2), afterMilliseconds: 600),
                .send(
                    .state(
                        landed.with {
                            $0.ack = 4
                            $0.loadingNextPage = true
                            $0.indicator.bottomVisible = true
                        })),
            ])
    }

    /// `offset = -contentOffset.y` (insets are not counted); on release, eligible = offset > pullThreshold.
    @Test func releasePastThresholdStartsRefreshIgnoringInsets() {
        var h = Harness(["preset": "refreshableLegacy"])
        let insets = ScrollInsets(top: 20)
        let opened = h.lastState
        #expect(
            h.scroll(y: -80, insets: insets, phase: .interacting) == [
                .log(LogEntry(.pullStarted, geometrySeq: 1, ["distance": 80])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.pull = PullState(distance: 80, progress: 1, eligible: false)
                            $0.indicator = pullIndicator(progress: 1)
                        })),
            ])
        let pulled = h.lastState
        #expect(
            h.scroll(y: -80, insets: insets, phase: .idle) == [
                .log(LogEntry(.refreshEligible, geometrySeq: 2, ["distance": 80, "threshold": 68])),
                .log(
                    LogEntry(.refreshStarted, geometrySeq: 2, ["trigger": "pull", "latencyMs": 1200, "distance": 80])),
                .schedule(.refresh(1), afterMilliseconds: 1200),
                .send(
                    .state(
                        pulled.with {
                            $0.ack = 2
                            $0.pull.eligible = true
                            $0.refreshing = true
                        })),
            ])
        // While refreshing the pull is frozen.
        let refreshing = h.lastState
        #expect(h.scroll(y: -10, phase: .interacting) == [.send(.state(refreshing.with { $0.ack = 3 }))])
    }

    @Test func releaseAtThresholdDoesNotRefresh() {
        var h = Harness(["preset": "refreshableLegacy"])
        h.scroll(y: -68, phase: .interacting)
        let pulled = h.lastState
        #expect(h.scroll(y: -68, phase: .idle) == [.send(.state(pulled.with { $0.ack = 2 }))])
        #expect(!h.session.controller.refresh.isInFlight)
    }
}

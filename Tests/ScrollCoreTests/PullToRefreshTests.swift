import Testing

@testable import ScrollCore

/// Pull-to-refresh: progress and indicator, and `playground`'s release gate with hysteresis.
struct PullToRefreshTests {
    /// `progress = clamp(pull / pullThreshold, 0, 1)`; indicator height `threshold × progress`,
    /// scale `0.6 + 0.4 × progress`, opacity `progress`.
    @Test(arguments: [Preset.refreshableLegacy, .refreshable, .playground])
    func progressAtZeroHalfAndFullThreshold(preset: Preset) {
        var h = Harness(["preset": .string(preset.rawValue)])
        for (y, distance, progress) in [(0.0, 0.0, 0.0), (-34, 34, 0.5), (-68, 68, 1), (-136, 136, 1)] {
            h.scroll(y: y, phase: .interacting)
            #expect(h.lastState.pull.distance == distance, "y = \(y)")
            #expect(h.lastState.pull.progress == progress, "y = \(y)")
            #expect(h.lastState.indicator == pullIndicator(progress: progress), "y = \(y)")
        }
    }

    @Test func playgroundArmsAtFullThreshold() {
        var h = Harness()
        let opened = h.lastState
        #expect(
            h.scroll(y: -34, phase: .interacting) == [
                .log(LogEntry(.pullStarted, geometrySeq: 1, ["distance": 34])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.pull = PullState(distance: 34, progress: 0.5, eligible: false)
                            $0.indicator = pullIndicator(progress: 0.5)
                        })),
            ])
        #expect(
            h.scroll(y: -68, phase: .interacting) == [
                .log(LogEntry(.refreshEligible, geometrySeq: 2, ["distance": 68, "threshold": 68])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 2
                            $0.pull = PullState(distance: 68, progress: 1, eligible: true)
                            $0.indicator = pullIndicator(progress: 1)
                        })),
            ])
    }

    /// `playground`'s 0.5 px slack: 67.5 px arms, 67.4 px does not.
    @Test(arguments: [(67.5, true), (67.4, false)])
    func playgroundArmingAllowsHalfAPixel(pull: Double, armed: Bool) {
        var h = Harness()
        h.scroll(y: -pull, phase: .interacting)
        #expect(h.lastState.pull.eligible == armed)
    }

    /// Insets count: with a 30 px top inset, y = -90 is a 60 px pull, y = -98 a full one.
    @Test func playgroundPullCountsTheTopInset() {
        var h = Harness()
        let insets = ScrollInsets(top: 30)
        h.scroll(y: -90, insets: insets, phase: .interacting)
        #expect(h.lastState.pull == PullState(distance: 60, progress: 60.0 / 68, eligible: false))
        h.scroll(y: -98, insets: insets, phase: .interacting)
        #expect(h.lastState.pull == PullState(distance: 68, progress: 1, eligible: true))
    }

    @Test func releasePastThresholdRefreshes() {
        var h = Harness()
        #expect(h.scroll(y: -80, phase: .interacting).names == [.pullStarted, .refreshEligible])
        let armed = h.lastState
        #expect(
            h.scroll(y: -80, phase: .idle) == [
                .log(
                    LogEntry(.refreshStarted, geometrySeq: 2, ["trigger": "pull", "latencyMs": 1200, "distance": 80])),
                .schedule(.refresh(1), afterMilliseconds: 1200),
                .send(
                    .state(
                        armed.with {
                            $0.ack = 2
                            $0.refreshing = true
                        })),
            ])
        // The indicator stays until the refresh completes, wherever the content goes meanwhile.
        let refreshing = h.lastState
        #expect(h.scroll(y: 0, phase: .idle) == [.send(.state(refreshing.with { $0.ack = 3 }))])
        #expect(h.advance(by: 1199) == [])
        let fresh = (1...5).map { FeedSource.refreshedItem($0, seed: 1) }
        #expect(
            h.advance(by: 1) == [
                .send(.items(ItemsMessage(op: .prepend, rev: 2, items: fresh, total: 35, hasMore: true))),
                .log(LogEntry(.refreshFinished, ["added": 5, "total": 35])),
                .send(
                    .state(
                        refreshing.with {
                            $0.ack = 3
                            $0.refreshing = false
                            $0.pull = PullState()
                            $0.indicator = pullIndicator(progress: 0)
                            $0.itemCount = 35
                        })),
            ])
    }

    /// The page springs back on release, so the release frame may already be at rest: the arming decides.
    @Test func releaseFrameAtRestStillRefreshesWhenArmed() {
        var h = Harness()
        h.scroll(y: -80, phase: .interacting)
        #expect(h.scroll(y: 0, phase: .idle).names == [.refreshStarted])
        #expect(h.lastState.refreshing)
    }

    @Test func releaseBelowThresholdDoesNotRefresh() {
        var h = Harness()
        h.scroll(y: -60, phase: .interacting)
        let pulled = h.lastState
        #expect(pulled.pull == PullState(distance: 60, progress: 60.0 / 68, eligible: false))
        #expect(h.scroll(y: -60, phase: .idle) == [.send(.state(pulled.with { $0.ack = 2 }))])
        #expect(!h.session.controller.refresh.isInFlight)
        #expect(h.timers.isEmpty)
    }

    /// Disarmed if the pull falls below 80% (54.4 px) before release.
    @Test func fallingUnderEightyPercentDisarms() {
        var h = Harness()
        h.scroll(y: -70, phase: .interacting)
        #expect(h.lastState.pull.eligible)
        h.scroll(y: -55, phase: .interacting)
        #expect(h.lastState.pull.eligible, "55 px is above 80% of 68: still armed")
        let armed = h.lastState
        #expect(
            h.scroll(y: -54, phase: .interacting) == [
                .send(
                    .state(
                        armed.with {
                            $0.ack = 3
                            $0.pull = PullState(distance: 54, progress: 54.0 / 68, eligible: false)
                            $0.indicator = pullIndicator(progress: 54.0 / 68)
                        }))
            ])
        #expect(h.scroll(y: -54, phase: .idle).names == [])
        #expect(!h.session.controller.refresh.isInFlight)
    }

    @Test func stayingAboveEightyPercentKeepsItArmed() {
        var h = Harness()
        h.scroll(y: -70, phase: .interacting)
        h.scroll(y: -55, phase: .interacting)
        #expect(h.scroll(y: -55, phase: .idle).names == [.refreshStarted])
    }

    @Test func pullsDuringARefreshAreIgnored() {
        var h = Harness()
        h.send(.refreshRequested)
        let refreshing = h.lastState
        #expect(h.scroll(y: -100, phase: .interacting) == [.send(.state(refreshing.with { $0.ack = 1 }))])
        #expect(h.scroll(y: -100, phase: .idle) == [.send(.state(refreshing.with { $0.ack = 2 }))])
        #expect(h.timers.map(\.id) == [.refresh(1)])
        // Once it is over, a new pull works again.
        h.advance(by: 1200)
        #expect(h.scroll(y: -100, phase: .interacting).names == [.pullStarted, .refreshEligible])
    }

    @Test func refreshCancelsALoadInFlightAndDropsItsLateResult() {
        var h = Harness()
        // Short content: at the bottom and at the top at once.
        #expect(h.scroll(y: 0, content: 500).names == [.reachedBottom, .loadMoreStarted])
        #expect(h.scroll(y: -80, content: 500, phase: .interacting).names == [.pullStarted, .refreshEligible])
        let armed = h.lastState
        #expect(
            h.scroll(y: -80, content: 500, phase: .idle) == [
                .log(
                    LogEntry(.refreshStarted, geometrySeq: 3, ["trigger": "pull", "latencyMs": 1200, "distance": 80])),
                .schedule(.refresh(2), afterMilliseconds: 1200),
                .cancel(.pageLoad(1)),
                .log(LogEntry(.loadMoreCancelled, ["page": 2, "reason": "refreshStarted"])),
                .send(
                    .state(
                        armed.with {
                            $0.ack = 3
                            $0.refreshing = true
                            $0.loadingNextPage = false
                            $0.indicator.bottomVisible = false
                        })),
            ])
        // The cancelled load's timer, should it still fire, is discarded.
        let refreshing = h.lastState
        let items = h.session.window.items
        #expect(h.send(.timerFired(.pageLoad(1))) == [])
        #expect(h.session.window.items == items)
        #expect(h.lastState == refreshing)
        #expect(h.advance(by: 1200).itemsMessages.map(\.op) == [.prepend])
        #expect(h.session.window.items.count == 35)
        #expect(!h.loggedNames.contains(.loadMoreFinished))
    }
}

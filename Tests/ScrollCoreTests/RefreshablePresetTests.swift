import Testing

@testable import ScrollCore

/// `refreshable`: edge-triggered bottom, release-gated pull with insets.
struct RefreshablePresetTests {
    @Test func edgeFiresOnceWhileTheUserStaysAtTheBottom() {
        var h = Harness(["preset": "refreshable"])
        #expect(h.scroll(y: 1150).names == [.reachedBottom, .loadMoreStarted])
        var before = h.lastState
        #expect(h.scroll(y: 1160) == [.send(.state(before.with { $0.ack = 2 }))])
        #expect(h.advance(by: 600).names == [.loadMoreFinished])
        // The page grew; the user followed it and is at the new bottom: no new edge, no load.
        before = h.lastState
        #expect(h.scroll(y: 2150, content: 3000) == [.send(.state(before.with { $0.ack = 3 }))])
        #expect(h.scroll(y: 2200, content: 3000) == [.send(.state(before.with { $0.ack = 4 }))])
        #expect(h.loggedNames.filter { $0 == .loadMoreStarted }.count == 1)
        // Leaving and coming back is a new edge.
        #expect(
            h.scroll(y: 1000, content: 3000) == [
                .log(LogEntry(.leftBottom, geometrySeq: 5, ["distanceToBottom": 1200])),
                .send(
                    .state(
                        before.with {
                            $0.ack = 5
                            $0.reachedBottom = false
                        })),
            ])
        #expect(h.scroll(y: 2150, content: 3000).names == [.reachedBottom, .loadMoreStarted])
    }

    @Test func nothingLoadsWhileALoadIsInFlight() {
        var h = Harness(["preset": "refreshable"])
        h.scroll(y: 1150)
        h.scroll(y: 1000)
        let away = h.lastState
        // A new edge while page 2 is on its way: logged as suppressed, nothing scheduled.
        #expect(
            h.scroll(y: 1150) == [
                .log(LogEntry(.reachedBottom, geometrySeq: 3, ["distanceToBottom": 50])),
                .log(
                    LogEntry(
                        .loadMoreSuppressed, geometrySeq: 3, ["trigger": "bottom", "reason": "loadInFlight", "page": 2])
                ),
                .send(
                    .state(
                        away.with {
                            $0.ack = 3
                            $0.reachedBottom = true
                        })),
            ])
        h.scroll(y: 1000)
        // The suppression is logged once per load.
        #expect(h.scroll(y: 1150).names == [.reachedBottom])
        #expect(h.send(.loadMoreRequested) == [])
        #expect(h.timers.map(\.id) == [.pageLoad(1)])
        #expect(h.advance(by: 600).itemsMessages.map(\.items.count) == [20])
    }

    @Test func exhaustedFeedLogsFeedExhaustedOnceAndLoadsNothing() {
        var h = Harness(["preset": "refreshable", "maxItems": 30])
        let opened = h.lastState
        #expect(opened.hasMore == false)
        #expect(
            h.scroll(y: 1150) == [
                .log(LogEntry(.reachedBottom, geometrySeq: 1, ["distanceToBottom": 50])),
                .log(LogEntry(.feedExhausted, geometrySeq: 1, ["total": 30])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.reachedBottom = true
                        })),
            ])
        h.scroll(y: 900)
        #expect(h.scroll(y: 1150).names == [.reachedBottom])
        // A person's Load more is answered with why nothing happens; the bottom rule stays quiet.
        #expect(
            h.send(.loadMoreRequested) == [
                .log(LogEntry(.loadMoreIgnored, ["trigger": "manual", "reason": "feedExhausted", "total": 30]))
            ])
        #expect(h.timers.isEmpty)
        #expect(h.session.window.items.count == 30)
    }

    /// `pull = -contentOffset.y - contentInsets.top`: with a 20 px inset, y = -100 is a pull of 80.
    @Test func releasePastThresholdStartsRefresh() {
        var h = Harness(["preset": "refreshable"])
        let insets = ScrollInsets(top: 20)
        let opened = h.lastState
        #expect(
            h.scroll(y: -100, insets: insets, phase: .interacting) == [
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
            h.scroll(y: -100, insets: insets, phase: .idle) == [
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
        // When the refresh completes everything resets.
        let fresh = (1...5).map { FeedSource.refreshedItem($0, seed: 1) }
        #expect(
            h.advance(by: 1200) == [
                .send(.items(ItemsMessage(op: .prepend, rev: 2, items: fresh, total: 35, hasMore: true))),
                .log(LogEntry(.refreshFinished, ["added": 5, "total": 35])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 2
                            $0.itemCount = 35
                        })),
            ])
    }

    /// The rule is `pull > pullThreshold`: exactly 68 px (y = -88 with the inset) does not refresh.
    @Test func releaseAtOrBelowThresholdDoesNotRefresh() {
        var h = Harness(["preset": "refreshable"])
        let insets = ScrollInsets(top: 20)
        h.scroll(y: -88, insets: insets, phase: .interacting)
        let pulled = h.lastState
        #expect(pulled.pull == PullState(distance: 68, progress: 1, eligible: false))
        #expect(h.scroll(y: -88, insets: insets, phase: .idle) == [.send(.state(pulled.with { $0.ack = 2 }))])
        #expect(!h.session.controller.refresh.isInFlight)
        // Without the inset the same offset would have been a pull of 88.
        h.scroll(y: -88.5, insets: insets, phase: .interacting)
        #expect(h.scroll(y: -88.5, insets: insets, phase: .idle).names == [.refreshEligible, .refreshStarted])
    }

    @Test func pullWhileRefreshingDoesNotStartASecondRefresh() {
        var h = Harness(["preset": "refreshable"])
        h.scroll(y: -100, phase: .interacting)
        h.scroll(y: -100, phase: .idle)
        h.scroll(y: 0, phase: .idle)
        h.scroll(y: -100, phase: .interacting)
        #expect(h.scroll(y: -100, phase: .idle).names == [])
        #expect(h.timers.map(\.id) == [.refresh(1)])
    }
}

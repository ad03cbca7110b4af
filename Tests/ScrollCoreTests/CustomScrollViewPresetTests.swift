import Testing

@testable import ScrollCore

/// `customScrollView`: a level `reachedBottom` whose false→true edge loads; no pull-to-refresh.
struct CustomScrollViewPresetTests {
    @Test func loadsOnTheEdgeOnlyAndAgainAfterLeaving() {
        var h = Harness(["preset": "customScrollView"])
        #expect(h.scroll(y: 1200).names == [.reachedBottom, .loadMoreStarted])
        let loading = h.lastState
        #expect(h.scroll(y: 1250) == [.send(.state(loading.with { $0.ack = 2 }))])
        #expect(h.advance(by: 600).names == [.loadMoreFinished])
        #expect(h.scroll(y: 1000, content: 3000).names == [.leftBottom])
        #expect(
            h.scroll(y: 2200, content: 3000).logs == [
                LogEntry(.reachedBottom, geometrySeq: 4, ["distanceToBottom": 0]),
                LogEntry(
                    .loadMoreStarted, geometrySeq: 4,
                    ["page": 3, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 0]),
            ])
    }

    @Test func hasNoPullToRefresh() {
        var h = Harness(["preset": "customScrollView"])
        let opened = h.lastState
        #expect(h.scroll(y: -200, phase: .interacting) == [.send(.state(opened.with { $0.ack = 1 }))])
        #expect(h.scroll(y: -200, phase: .idle) == [.send(.state(opened.with { $0.ack = 2 }))])
        #expect(!h.session.controller.refresh.isInFlight)
    }
}

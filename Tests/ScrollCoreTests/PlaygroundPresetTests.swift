import Testing

@testable import ScrollCore

/// `playground`'s bottom rule: edge-triggered, re-armed when a page lands, insets and both axes.
/// Here every item is 50 px tall, so the content is `items × 50` px in an 800 px viewport.
struct PlaygroundPresetTests {
    @Test func shortContentLoadsPageAfterPageUntilTheFeedEndsThenStops() {
        var h = Harness(["initialCount": 5, "pageSize": 5, "maxItems": 15])
        let opened = h.lastState
        #expect(
            h.scroll(y: 0, content: 250) == [
                .log(LogEntry(.reachedBottom, geometrySeq: 1, ["distanceToBottom": -550])),
                .log(
                    LogEntry(
                        .loadMoreStarted, geometrySeq: 1,
                        ["page": 2, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": -550])),
                .schedule(.pageLoad(1), afterMilliseconds: 600),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.reachedBottom = true
                            $0.loadingNextPage = true
                            $0.indicator.bottomVisible = true
                        })),
            ])
        #expect(h.advance(by: 600).names == [.loadMoreFinished])
        // A frame from before the page rendered the new items changes nothing.
        var landed = h.lastState
        #expect(h.scroll(y: 0, content: 250) == [.send(.state(landed.with { $0.ack = 2 }))])
        // The first geometry with the new content size, still short: re-armed, page 3 loads.
        #expect(
            h.scroll(y: 0, content: 500) == [
                .log(
                    LogEntry(
                        .loadMoreStarted, geometrySeq: 3,
                        ["page": 3, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": -300])),
                .schedule(.pageLoad(2), afterMilliseconds: 600),
                .send(
                    .state(
                        landed.with {
                            $0.ack = 3
                            $0.loadingNextPage = true
                            $0.indicator.bottomVisible = true
                        })),
            ])
        #expect(
            h.advance(by: 600).itemsMessages == [
                ItemsMessage(op: .append, rev: 3, items: syntheticItems(10..<15), total: 15, hasMore: false)
            ])
        // The feed has ended: the re-armed trigger logs feedExhausted once and loads nothing.
        landed = h.lastState
        #expect(
            h.scroll(y: 0, content: 750) == [
                .log(LogEntry(.feedExhausted, geometrySeq: 4, ["total": 15])),
                .send(.state(landed.with { $0.ack = 4 })),
            ])
        for seq in 5...10 {
            #expect(h.scroll(y: 0, content: 750) == [.send(.state(landed.with { $0.ack = seq }))])
        }
        #expect(h.timers.isEmpty)
        #expect(h.loggedNames.filter { $0 == .loadMoreStarted }.count == 2)
    }

    @Test func shortContentLoadsUntilItFillsTheViewportThenStops() {
        var h = Harness(["initialCount": 5, "pageSize": 5, "maxItems": 0])
        for items in [5, 10, 15] {
            #expect(h.scroll(y: 0, content: Double(items * 50)).names.last == .loadMoreStarted, "\(items) items")
            h.advance(by: 600)
        }
        // 20 items = 1000 px: 200 px from the bottom, beyond the threshold.
        let filled = h.lastState
        #expect(
            h.scroll(y: 0, content: 1000) == [
                .log(LogEntry(.leftBottom, geometrySeq: 4, ["distanceToBottom": 200])),
                .send(
                    .state(
                        filled.with {
                            $0.ack = 4
                            $0.reachedBottom = false
                        })),
            ])
        #expect(h.scroll(y: 0, content: 1000).names == [])
        #expect(h.session.window.items.count == 20)
        #expect(h.timers.isEmpty)
    }

    /// A page that lands while the user is still near the bottom of long content loads the next one too.
    @Test func pageThatLandsWithinTheThresholdLoadsTheNext() {
        var h = Harness()
        h.scroll(y: 1150)
        h.advance(by: 600)
        // The new items were measured but the user has scrolled with them and is still 30 px from the end.
        #expect(
            h.scroll(y: 2170, content: 3000).logs == [
                LogEntry(
                    .loadMoreStarted, geometrySeq: 2,
                    ["page": 3, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 30])
            ])
    }

    @Test func noLoadWhileRefreshingAndTheBottomReArmsAfterwards() {
        var h = Harness()
        h.send(.refreshRequested)
        let refreshing = h.lastState
        #expect(
            h.scroll(y: 1150) == [
                .log(LogEntry(.reachedBottom, geometrySeq: 1, ["distanceToBottom": 50])),
                .log(LogEntry(.loadMoreSuppressed, geometrySeq: 1, ["trigger": "bottom", "reason": "refreshing"])),
                .send(
                    .state(
                        refreshing.with {
                            $0.ack = 1
                            $0.reachedBottom = true
                        })),
            ])
        #expect(
            h.send(.loadMoreRequested).logs == [
                LogEntry(.loadMoreSuppressed, ["trigger": "manual", "reason": "refreshing"])
            ])
        #expect(h.advance(by: 1200).names == [.refreshFinished])
        // The prepended items changed the content size; the user is still at the end of it.
        #expect(h.scroll(y: 1400, content: 2250).names == [.loadMoreStarted])
    }

    /// A refresh that fails changes nothing on the page, so no geometry re-arms the bottom: the load it held
    /// back starts as it ends, or a user resting at the bottom would wait forever (found by `check`).
    @Test func aLoadHeldBackByAFailedRefreshStartsWhenItEnds() {
        var h = Harness(["failureRate": 1, "retryPolicy": "manual"])
        h.send(.refreshRequested)
        #expect(h.scroll(y: 1150).names == [.reachedBottom, .loadMoreSuppressed])
        #expect(
            h.advance(by: 1200).logs == [
                LogEntry(.refreshFailed, ["reason": "simulated failure"]),
                LogEntry(.loadMoreStarted, ["page": 2, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 50]),
            ])
        #expect(h.session.loadingNextPage && h.session.edges.bottom.nextPage == 2)
    }

    /// With `axis: horizontal` the same rules read x, width, leading and trailing.
    @Test func horizontalAxisWorksTheSameOnX() {
        var h = Harness(["axis": "horizontal"])
        func geometry(x: Double, y: Double = 0, leading: Double = 0) -> FeedGeometry {
            FeedGeometry(
                contentOffset: ScrollPoint(x: x, y: y), contentSize: ScrollSize(width: 2000, height: 1000),
                containerSize: ScrollSize(width: 800, height: 1000), contentInsets: ScrollInsets(leading: leading))
        }
        // At the vertical end but far from the horizontal one: nothing.
        #expect(h.geometry(geometry(x: 0, y: 0)).names == [])
        #expect(h.geometry(geometry(x: 1149)).names == [])
        #expect(
            h.geometry(geometry(x: 1150)).logs == [
                LogEntry(.reachedBottom, geometrySeq: 3, ["distanceToBottom": 50]),
                LogEntry(
                    .loadMoreStarted, geometrySeq: 3,
                    ["page": 2, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 50]),
            ])
        h.advance(by: 600)
        // The pull is on x too, leading inset counted: x = -90 with a 20 px inset is a 70 px pull.
        #expect(
            h.geometry(geometry(x: -90, leading: 20), phase: .interacting).logs == [
                LogEntry(.leftBottom, geometrySeq: 4, ["distanceToBottom": 1290]),
                LogEntry(.pullStarted, geometrySeq: 4, ["distance": 70]),
                LogEntry(.refreshEligible, geometrySeq: 4, ["distance": 70, "threshold": 68]),
            ])
        #expect(h.geometry(geometry(x: -90, leading: 20), phase: .idle).names == [.refreshStarted])
    }
}

import Testing

@testable import ScrollCore

/// `reset`: back to the initial items, with whatever is in flight cancelled.
struct SessionResetTests {
    @Test func resetRestoresTheInitialItems() {
        var h = Harness()
        h.scroll(y: 1150)
        h.advance(by: 600)
        h.send(.refreshRequested)
        h.advance(by: 1200)
        #expect(h.session.window.items.count == 55)
        let before = h.lastState
        // Logged as a reset; the new list, then the page is sent to the top (a page puts a replaced list
        // at the top as it lands, so no geometry of the old position meets the 30 new items).
        #expect(
            h.send(.resetRequested) == [
                .log(LogEntry(.sessionReset, ["replaced": 55])),
                .send(
                    .items(ItemsMessage(op: .replace, rev: 4, items: syntheticItems(0..<30), total: 30, hasMore: true))),
                .send(.command(name: "scrollToTop")),
                .log(LogEntry(.scrollToTop, ["trigger": "reset"])),
                .send(
                    .state(
                        before.with {
                            $0.itemCount = 30
                            $0.reachedBottom = false
                        })),
            ])
        #expect(h.session.window.cursor == 30)
        #expect(h.session.edges.bottom.page == 1)
        // The bottom rule starts afresh: the same position at the bottom loads page 2 again.
        #expect(
            h.scroll(y: 1150).logs.last
                == LogEntry(
                    .loadMoreStarted, geometrySeq: 2,
                    ["page": 2, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 50]))
        // Refresh ids never repeat, even across a reset.
        h.send(.refreshRequested)
        #expect(h.advance(by: 1200).itemsMessages.first?.items.first?.id == "new-6")
    }

    @Test func resetCancelsTheLoadAndTheRefreshInFlight() {
        var h = Harness(["preset": "refreshable"])
        h.scroll(y: 1150)
        h.send(.refreshRequested)
        #expect(h.timers.map(\.id) == [.pageLoad(1), .refresh(2)])
        let before = h.lastState
        #expect(
            h.send(.resetRequested) == [
                .log(LogEntry(.sessionReset, ["replaced": 30])),
                .cancel(.pageLoad(1)),
                .log(LogEntry(.loadMoreCancelled, ["page": 2, "reason": "reset"])),
                .cancel(.refresh(2)),
                .send(
                    .items(ItemsMessage(op: .replace, rev: 2, items: syntheticItems(0..<30), total: 30, hasMore: true))),
                .send(.command(name: "scrollToTop")),
                .log(LogEntry(.scrollToTop, ["trigger": "reset"])),
                .send(
                    .state(
                        before.with {
                            $0.reachedBottom = false
                            $0.refreshing = false
                            $0.loadingNextPage = false
                            $0.indicator = pullIndicator(progress: 0)
                        })),
            ])
        // Their timers, should they fire anyway, do nothing.
        #expect(h.send(.timerFired(.pageLoad(1))) == [])
        #expect(h.send(.timerFired(.refresh(2))) == [])
        #expect(h.session.window.items == syntheticItems(0..<30))
        // Not even to a new load in flight: it completes on its own timer only.
        h.send(.loadMoreRequested)
        #expect(h.timers.map(\.id) == [.pageLoad(3)])
        #expect(h.send(.timerFired(.pageLoad(1))) == [])
        #expect(h.session.loadingNextPage)
        #expect(h.advance(by: 600).names == [.loadMoreFinished])
    }

    @Test func resetEndsRefreshOffsetObservablesHold() {
        var h = Harness(["preset": "refreshOffsetObservable"])
        h.scroll(y: -101, phase: .interacting)
        let effects = h.send(.resetRequested)
        #expect(
            Array(effects.prefix(3)) == [
                .log(LogEntry(.sessionReset, ["replaced": 30])), .cancel(.refresh(1)), .cancel(.refreshHold),
            ])
        #expect(h.lastState.refreshing == false)
        #expect(h.timers.isEmpty)
    }

    @Test func resetReopensAnExhaustedFeed() {
        var h = Harness(["initialCount": 5, "maxItems": 10, "pageSize": 5])
        h.send(.loadMoreRequested)
        h.advance(by: 600)
        h.send(.loadMoreRequested)
        #expect(h.loggedNames.last == .feedExhausted)
        h.send(.resetRequested)
        #expect(h.lastState.hasMore)
        h.send(.loadMoreRequested)
        h.advance(by: 600)
        h.send(.loadMoreRequested)
        #expect(h.loggedNames.filter { $0 == .feedExhausted }.count == 2)
    }

    @Test func resetAtTheTopStillLogsAndSendsTheCommand() {
        var h = Harness()
        h.scroll(y: 0)
        #expect(h.send(.resetRequested).compactMap(\.loggedName) == [EventName.sessionReset, .scrollToTop])
    }
}

extension SessionEffect {
    /// The event name of a `log` effect.
    var loggedName: EventName? {
        if case .log(let entry) = self { return entry.name }
        return nil
    }
}

import Testing

@testable import ScrollCore

/// Two-way feeds (issue 12 §2): a feed opened at an item loads older pages at the top with the bottom's
/// machinery, on the manual clock.
struct TwoWayFeedTests {
    /// The default content (2000) and container (800) of the harness, scrolled to the top.
    static let top = 0.0

    @Test func openingAtAnItemShowsItFirstWithOlderItemsAbove() {
        let h = Harness(["startAt": 101])
        #expect(
            h.opening.itemsMessages == [
                ItemsMessage(op: .replace, rev: 1, items: syntheticItems(100..<130), total: 30, hasMore: true)
            ])
        #expect(h.session.window.firstLoaded == 100)
        #expect(h.lastState.topEdge == TopEdgeState(reachedTop: false, hasPrevious: true, loadingPreviousPage: false))
        // A feed that opens at its first item has no top edge in `state`.
        #expect(Harness().lastState.topEdge == nil)
    }

    @Test func theTopEdgeLoadsThePreviousPageOnceAndPrependsItAsOlder() {
        var h = Harness(["startAt": 101])
        #expect(
            h.scroll(y: Self.top).logs == [
                LogEntry(.reachedTop, geometrySeq: 1, ["distanceToTop": 0]),
                LogEntry(
                    .loadPreviousStarted, geometrySeq: 1,
                    ["page": 1, "trigger": "top", "latencyMs": 600, "distanceToTop": 0]),
            ])
        #expect(h.timers.map(\.id) == [.previousLoad(1)])
        // Edge-triggered: resting at the top asks once; a person asking meanwhile is told why not.
        #expect(h.scroll(y: 10).logs.isEmpty)
        #expect(
            h.send(.loadPreviousRequested).logs == [
                LogEntry(.loadPreviousSuppressed, ["trigger": "manual", "reason": "loadInFlight", "page": 1])
            ])
        #expect(h.lastState.topEdge?.loadingPreviousPage == true)
        let landed = h.advance(by: 600)
        #expect(
            landed.itemsMessages == [
                ItemsMessage(
                    op: .prepend, rev: 2, items: syntheticItems(80..<100), total: 50, hasMore: true, older: true)
            ])
        #expect(
            landed.logs == [
                LogEntry(.loadPreviousFinished, ["page": 1, "added": 20, "total": 50, "hasPrevious": true])
            ])
        #expect(h.session.window.items.map(\.id) == syntheticItems(80..<130).map(\.id))
        // Still within the threshold once the older items show (the page kept its anchor 10 px in): the
        // rule re-arms and loads the page before.
        #expect(h.scroll(y: 10, content: 3400).names == [.loadPreviousStarted])
    }

    @Test func aFailedPreviousPageFollowsTheRetryPolicy() {
        var h = Harness([
            "startAt": 101, "failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 100, "retryMaxMs": 100,
            "retryMax": 1,
        ])
        h.scroll(y: Self.top)
        let failed = h.advance(by: 100)
        #expect(failed.names == [.loadPreviousFailed, .loadPreviousRetryScheduled])
        #expect(h.timers.map(\.id) == [.previousRetry(2)])
        #expect(
            h.lastState.topEdge?.loadFailure
                == LoadFailureState(
                    page: 1, failures: 1, next: .scheduled, retry: 1, retryMax: 1,
                    retryInMs: Int(h.timers[0].due - h.now)))
        // The bottom's state is untouched: the failure is the top's.
        #expect(h.lastState.loadFailure == nil)
        // The top rule waits for the retry instead of firing (no request loop at the top either).
        h.scroll(y: 200)
        #expect(
            h.scroll(y: Self.top).logs.filter { $0.name == .loadPreviousSuppressed } == [
                LogEntry(
                    .loadPreviousSuppressed, geometrySeq: 3, ["trigger": "top", "reason": "retryScheduled", "page": 1])
            ])
        #expect(h.advance(by: h.timers[0].due - h.now).names == [.loadPreviousRetryStarted, .loadPreviousStarted])
        #expect(h.advance(by: 100).names == [.loadPreviousFailed, .loadPreviousGaveUp])
        #expect(h.lastState.topEdge?.loadFailure?.next == .gaveUp)
    }

    @Test func theFeedsStartIsSaidOnce() {
        var h = Harness(["startAt": 21])
        h.scroll(y: Self.top)
        h.advance(by: 600)
        #expect(h.session.window.firstLoaded == 0)
        #expect(h.lastState.topEdge?.hasPrevious == false)
        #expect(h.scroll(y: 5, content: 3000).logs == [LogEntry(.feedStartReached, geometrySeq: 2, ["total": 50])])
        h.scroll(y: 300, content: 3000)
        #expect(h.scroll(y: 0, content: 3000).names == [.reachedTop])
        #expect(
            h.send(.loadPreviousRequested).logs == [
                LogEntry(.loadPreviousIgnored, ["trigger": "manual", "reason": "feedExhausted", "total": 50])
            ])
    }

    @Test func inPlaygroundLoadPreviousWinsOverPullToRefresh() {
        var h = Harness(["startAt": 101, "loadLatencyMs": 5000])
        h.scroll(y: Self.top)
        h.scroll(y: -80, phase: .interacting)
        let released = h.scroll(y: -80, phase: .decelerating)
        #expect(
            released.logs == [
                LogEntry(
                    .refreshYielded, geometrySeq: 3,
                    ["trigger": "pull", "reason": "hasPrevious", "wins": "loadPrevious"]),
                LogEntry(
                    .loadPreviousSuppressed, geometrySeq: 3, ["trigger": "pull", "reason": "loadInFlight", "page": 1]),
            ])
        #expect(h.session.controller.refresh == .idle)
        // Refresh pressed while older items exist yields the same way.
        #expect(h.send(.refreshRequested).names == [.refreshYielded])
    }

    @Test func inTheDesignsRefreshWinsAndOnlyAPersonLoadsPrevious() {
        var h = Harness(["preset": "refreshable", "startAt": 101])
        #expect(h.scroll(y: Self.top).logs.isEmpty)
        h.scroll(y: -80, phase: .interacting)
        #expect(h.scroll(y: -80, phase: .decelerating).names.contains(.refreshStarted))
        #expect(h.send(.loadPreviousRequested).names == [.loadPreviousStarted])
    }

    @Test func thePageReportsWhetherAPrependMovedItsAnchor() {
        var h = Harness(["startAt": 101, "loadLatencyMs": 100])
        @discardableResult func report(_ y: Double, content: Double, rev: Int, anchor: ItemAnchor) -> [SessionEffect] {
            h.geometry(
                FeedGeometry(
                    contentOffset: ScrollPoint(x: 0, y: y), contentSize: ScrollSize(width: 400, height: content),
                    containerSize: ScrollSize(width: 400, height: 800)),
                anchor: anchor, rev: rev)
        }
        report(0, content: 2000, rev: 1, anchor: ItemAnchor(id: "item-101", offset: 0))
        h.advance(by: 100)
        // The page measures just before and just after it applies rev 2, in one task.
        report(0, content: 2000, rev: 1, anchor: ItemAnchor(id: "item-101", offset: 0))
        #expect(
            report(1700, content: 3700, rev: 2, anchor: ItemAnchor(id: "item-101", offset: 0.4)).logs.first
                == LogEntry(.anchorKept, geometrySeq: 3, ["id": "item-101", "rev": 2, "px": 0.4]))
        // Checked once per prepend.
        #expect(report(1700, content: 3700, rev: 2, anchor: ItemAnchor(id: "item-101", offset: 0.4)).logs.isEmpty)
        h.scroll(y: 0, content: 3700)
        h.advance(by: 100)
        h.geometry(
            FeedGeometry(
                contentOffset: .zero, contentSize: ScrollSize(width: 400, height: 3700),
                containerSize: ScrollSize(width: 400, height: 800)),
            anchor: ItemAnchor(id: "item-81", offset: 0), rev: 2)
        // A page that did not keep its place: the item moved down by the prepend's height.
        #expect(
            report(0, content: 5400, rev: 3, anchor: ItemAnchor(id: "item-81", offset: 1700)).logs.first
                == LogEntry(.anchorDrift, geometrySeq: 7, ["id": "item-81", "rev": 3, "px": 1700]))
    }

    @Test(
        arguments: [
            ("topThreshold", -1.0, "0…100000"), ("startAt", -1, "0…1000000"), ("startAt", 2e6, "0…1000000"),
            ("newMessageEveryMs", 1e9, "0…600000"),
        ] as [(String, Double, String)])
    func badValuesAreRefusedNamingTheRange(field: String, value: Double, range: String) {
        var h = Harness(["startAt": 101])
        let before = h.session
        let effects = h.send(.configReceived([field: .number(value)]))
        #expect(effects.names == [.protocolError])
        #expect(effects.logs[0].data["field"] == .string(field))
        #expect(effects.logs[0].data["message"] == .string("\(field) must be in \(range)"))
        #expect(h.session == before)
    }
}

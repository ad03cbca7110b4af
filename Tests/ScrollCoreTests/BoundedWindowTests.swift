import Testing

@testable import ScrollCore

/// A bounded window (issue 12 §3): the page holds at most `windowSize` items; the server trims the far end
/// as pages land and loads trimmed items back through the same edges, on the manual clock.
struct BoundedWindowTests {
    /// An endless feed, 20 items a page, a window of two pages.
    static let settings: [String: JSONValue] = ["windowSize": 40, "maxItems": 0]

    /// Scrolled to the end of the harness's default content (2000, container 800).
    static let bottom = 1200.0

    @Test func aPageLandingTrimsTheTopAndTheTopLoadsItBack() {
        var h = Harness(Self.settings)
        #expect(h.lastState.window == WindowState(start: 0, count: 30, limit: 40))
        // A window has a top edge from the start; nothing is above it yet.
        #expect(h.lastState.topEdge == TopEdgeState(reachedTop: false, hasPrevious: false, loadingPreviousPage: false))
        #expect(h.scroll(y: Self.bottom).names == [.reachedBottom, .loadMoreStarted])
        let landed = h.advance(by: 600)
        #expect(
            landed.itemsMessages == [
                // The trim goes first: the page never holds more than the window, not even between messages.
                .trim(.top, count: 10, rev: 2, total: 30, hasMore: true),
                ItemsMessage(op: .append, rev: 3, items: syntheticItems(30..<50), total: 50, hasMore: true),
            ])
        #expect(
            landed.logs == [
                LogEntry(
                    .windowTrimmed,
                    ["edge": "top", "count": 10, "held": 20, "total": 30, "first": "item-11", "last": "item-30"]),
                LogEntry(.loadMoreFinished, ["page": 2, "added": 20, "total": 50, "hasMore": true]),
            ])
        #expect(h.session.window.items.count == 50)
        #expect(h.session.window.pageItems.map(\.id) == syntheticItems(10..<50).map(\.id))
        #expect(h.lastState.window == WindowState(start: 10, count: 40, limit: 40))
        #expect(h.lastState.topEdge?.hasPrevious == true)
        #expect(h.lastState.itemCount == 50)

        // Back at the top, the trimmed items come back from the session (no new feed items), older, and the
        // bottom is trimmed in turn: the page holds 40 again.
        #expect(h.scroll(y: 0).names == [.leftBottom, .reachedTop, .loadPreviousStarted])
        let back = h.advance(by: 600)
        #expect(
            back.itemsMessages == [
                .trim(.bottom, count: 10, rev: 4, total: 50, hasMore: true),
                ItemsMessage(
                    op: .prepend, rev: 5, items: syntheticItems(0..<10), total: 50, hasMore: true, older: true),
            ])
        #expect(
            back.logs == [
                LogEntry(
                    .windowTrimmed,
                    ["edge": "bottom", "count": 10, "held": 30, "total": 50, "first": "item-11", "last": "item-40"]),
                LogEntry(
                    .loadPreviousFinished,
                    ["page": 1, "added": 10, "total": 50, "hasPrevious": false, "reloaded": true]),
            ])
        #expect(h.lastState.window == WindowState(start: 0, count: 40, limit: 40))
        #expect(h.lastState.topEdge?.hasPrevious == false)
        // At the bottom again: the trimmed items load back before any new one.
        h.scroll(y: Self.bottom)
        let reloaded = h.advance(by: 600)
        #expect(
            reloaded.itemsMessages.last
                == ItemsMessage(op: .append, rev: 7, items: syntheticItems(40..<50), total: 50, hasMore: true))
        #expect(reloaded.logs.last?.data["reloaded"] == true)
        #expect(h.session.window.trimmed.top == 10, "\(reloaded.logs) \(h.logged.suffix(12).map(\.entry))")
        #expect(h.session.window.pageItems.map(\.id) == syntheticItems(10..<50).map(\.id))
    }

    /// The page keeps its anchor through a trim at the top: the server checks it as after a prepend.
    @Test func aTrimAtTheTopIsCheckedForAnchorDrift() {
        var h = Harness(Self.settings)
        h.scroll(y: Self.bottom)
        let anchor = ItemAnchor(id: "item-25", offset: -12)
        h.geometry(Self.at(Self.bottom), anchor: anchor, rev: 1)
        h.advance(by: 600)
        #expect(h.session.anchorCheckRev == 2)
        // The page measures just before the trim (rev 1) and just after it (rev 2).
        h.geometry(Self.at(Self.bottom), anchor: anchor, rev: 1)
        #expect(
            h.geometry(Self.at(Self.bottom - 700, content: 3000), anchor: anchor, rev: 2).logs.filter {
                $0.name == .anchorKept
            } == [LogEntry(.anchorKept, geometrySeq: 4, ["id": "item-25", "rev": 2, "px": 0])])
        // A page that lost its place is told so.
        var drifted = Harness(Self.settings)
        drifted.scroll(y: Self.bottom)
        drifted.advance(by: 600)
        drifted.geometry(Self.at(Self.bottom), anchor: anchor, rev: 1)
        #expect(
            drifted.geometry(Self.at(Self.bottom, content: 3000), anchor: ItemAnchor(id: "item-31", offset: 4), rev: 2)
                .names.contains(.anchorDrift))
    }

    /// The window never holds more than `windowSize`, however far the user scrolls either way.
    @Test func theWindowStaysBoundedThroughALongScrollBothWays() {
        var h = Harness(["windowSize": 40, "maxItems": 300, "loadLatencyMs": 10])
        var peak = 0
        for _ in 0..<30 {
            h.scroll(y: 100)
            h.scroll(y: Self.bottom)
            h.advance(by: 10)
            peak = max(peak, h.session.window.pageCount)
        }
        #expect(h.session.window.items.count == 300)
        #expect(h.session.window.pageItems.last?.id == "item-300")
        #expect(h.lastState.hasMore == false)
        for _ in 0..<30 {
            h.scroll(y: 500)
            h.scroll(y: 0)
            h.advance(by: 10)
            peak = max(peak, h.session.window.pageCount)
        }
        #expect(peak == 40)
        #expect(h.session.window.pageItems.first?.id == "item-1")
        #expect(h.lastState.topEdge?.hasPrevious == false)
        #expect(h.lastState.hasMore == true)
        // Every trim was a message the page applies: replaying them gives the window.
        var page: [String] = []
        for case .send(.items(let message)) in h.loggedEffects {
            switch message.op {
            case .replace: page = message.items.map(\.id)
            case .append: page += message.items.map(\.id)
            case .prepend: page.insert(contentsOf: message.items.map(\.id), at: 0)
            case .trim:
                let count = message.trimmed!.count
                if message.trimmed!.edge == .top { page.removeFirst(count) } else { page.removeLast(count) }
            }
            #expect(page.count <= 40)
        }
        #expect(page == h.session.window.pageItems.map(\.id))
    }

    /// Rows in view are never trimmed: a user who went back to the top while the next page loaded at the
    /// bottom keeps what they see; only what fits lands, and the rest waits in the session below the window.
    @Test func aPageLandingNeverTrimsTheRowsInView() {
        var h = Harness(Self.settings)
        h.scroll(y: Self.bottom)
        h.geometry(Self.at(0), anchor: ItemAnchor(id: "item-1", offset: 0), rev: 1)
        let landed = h.advance(by: 600)
        #expect(landed.itemsMessages.map(\.op) == [.append])
        #expect(landed.itemsMessages.first?.items == syntheticItems(30..<40))
        #expect(!landed.logs.contains { $0.name == .windowTrimmed })
        #expect(h.session.window.pageItems.map(\.id) == syntheticItems(0..<40).map(\.id))
        #expect(h.session.window.trimmed.bottom == 10)
        #expect(h.lastState.window == WindowState(start: 0, count: 40, limit: 40))
        // Seen from the middle instead, the rows above the view are out of it and make the room.
        var middle = Harness(Self.settings)
        middle.scroll(y: Self.bottom)
        middle.geometry(Self.at(700), anchor: ItemAnchor(id: "item-11", offset: -10), rev: 1)
        #expect(middle.advance(by: 600).itemsMessages.map(\.op) == [.trim, .append])
        #expect(middle.session.window.trimmed.top == 8)
        #expect(middle.session.window.pageItems.first?.id == "item-9")
    }

    @Test func aBadWindowIsRefusedNamingTheFieldAndRange() {
        var h = Harness()
        let before = h.session
        let refused = h.send(.configReceived(["windowSize": -1]))
        #expect(
            refused
                == SessionState.refusal(
                    ProtocolError(.badMessage, "windowSize must be in 0…100000", field: "windowSize")))
        #expect(h.session == before)
        // Smaller than two pages, a window would load and trim in turns.
        #expect(
            h.send(.configReceived(["windowSize": 30])).logs.first?.data["message"]
                == "windowSize must be in 0 or 40…100000 (at least 2 × pageSize 20)")
        #expect(
            h.send(.configReceived(["windowSize": 40, "pageSize": 30])).logs.first?.data["field"] == "windowSize")
        #expect(h.session == before)
        #expect(h.send(.configReceived(["windowSize": 40, "pageSize": 10])).names == [.configChanged])
    }

    /// Switching the window off gives the page back what was trimmed; a smaller window trims at once.
    @Test func changingTheWindowAppliesAtOnce() {
        var h = Harness(Self.settings)
        h.scroll(y: Self.bottom)
        h.advance(by: 600)
        #expect(h.session.window.trimmed.top == 10)
        let unbounded = h.send(.configReceived(["windowSize": 0]))
        #expect(
            unbounded.itemsMessages == [
                ItemsMessage(
                    op: .prepend, rev: 4, items: syntheticItems(0..<10), total: 50, hasMore: true, older: true)
            ])
        #expect(h.session.window.pageCount == 50)
        #expect(h.lastState.window == nil)
        // At the bottom of the content, a window of 40 keeps the last items.
        // Kept around the middle of the viewport (80% down the last geometry's content): 8 go above, 2 below.
        let bounded = h.send(.configReceived(["windowSize": 40]))
        #expect(bounded.itemsMessages.map(\.op) == [.trim, .trim])
        #expect(h.session.window.trimmed.top == 8 && h.session.window.trimmed.bottom == 2)
        #expect(h.session.window.pageCount == 40)
    }

    /// A resume gets the window (a `replace` of what the page should hold), not every item of the session.
    @Test func aResumeReplacesWithTheWindow() {
        var h = Harness(Self.settings)
        h.scroll(y: Self.bottom)
        h.advance(by: 600)
        // Within the history, exactly the missed messages, the trim among them.
        #expect(h.send(.resumed(lastRev: 1)).itemsMessages.map(\.op) == [.trim, .append])
        let resumed = h.send(.resumed(lastRev: nil))
        #expect(resumed.itemsMessages.map(\.items) == [syntheticItems(10..<50)])
    }

    /// A chat's arrivals while the page holds an older window wait below it.
    @Test func aMessageArrivingBelowTheWindowWaits() {
        var h = Harness(["preset": "chat", "windowSize": 40, "newMessageEveryMs": 1000, "initialCount": 30])
        h.scroll(y: 0)
        h.advance(by: 600)
        #expect(h.session.window.trimmed.bottom == 10)
        let arrived = h.advance(by: 400)
        #expect(arrived.itemsMessages.isEmpty)
        #expect(arrived.logs.last?.data["shown"] == false)
        #expect(h.session.window.trimmed.bottom == 11)
    }

    static func at(_ y: Double, content: Double = 2000) -> FeedGeometry {
        FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: y), contentSize: ScrollSize(width: 400, height: content),
            containerSize: ScrollSize(width: 400, height: 800))
    }
}

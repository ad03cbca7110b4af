import Testing

@testable import ScrollCore

/// Resume: `welcome` with the same id, the `items` messages missed since `lastRev` (or one
/// `replace`), then `state`.
struct SessionResumeTests {
    /// A session at rev 3: the first page (1), page 2 (2), a refresh (3).
    static func sessionAtRev3() -> Harness {
        var h = Harness()
        h.send(.loadMoreRequested)
        h.advance(by: 600)
        h.send(.refreshRequested)
        h.advance(by: 1200)
        return h
    }

    @Test func deliversExactlyTheMissedItemsMessages() {
        var h = Self.sessionAtRev3()
        let history = h.session.itemsHistory
        #expect(history.map(\.rev) == [1, 2, 3])
        let state = h.lastState
        #expect(
            h.send(.resumed(lastRev: 1)) == [
                .send(.welcome(session: "s1", resume: "token-1", config: ScrollConfig())),
                .send(.items(history[1])),
                .send(.items(history[2])),
                .log(LogEntry(.sessionResumed, ["rev": 3, "lastRev": 1, "delivered": 2])),
                .send(.state(state)),
            ])
        #expect(history[1].op == .append && history[2].op == .prepend)
    }

    @Test func upToDatePageGetsNoItems() {
        var h = Self.sessionAtRev3()
        let state = h.lastState
        #expect(
            h.send(.resumed(lastRev: 3)) == [
                .send(.welcome(session: "s1", resume: "token-1", config: ScrollConfig())),
                .log(LogEntry(.sessionResumed, ["rev": 3, "lastRev": 3, "delivered": 0])),
                .send(.state(state)),
            ])
    }

    @Test(arguments: [nil, 99] as [Int?])
    func unknownOrImpossibleLastRevGetsOneReplace(lastRev: Int?) {
        var h = Self.sessionAtRev3()
        let items = h.session.window.items
        let state = h.lastState
        // `rev` is the session's revision after the replace it sends.
        var data: [String: JSONValue] = ["rev": 4, "delivered": "replace"]
        if let lastRev { data["lastRev"] = .int(lastRev) }
        #expect(
            h.send(.resumed(lastRev: lastRev)) == [
                .send(.welcome(session: "s1", resume: "token-1", config: ScrollConfig())),
                .send(.items(ItemsMessage(op: .replace, rev: 4, items: items, total: 55, hasMore: true))),
                .log(LogEntry(.sessionResumed, data)),
                .send(.state(state)),
            ])
        #expect(items.count == 55)
    }

    /// The session keeps the last 64 items messages; a page further behind gets one `replace`.
    @Test func tooOldLastRevGetsOneReplace() {
        var h = Harness(["maxItems": 0, "pageSize": 1])
        for _ in 0..<70 {
            h.send(.loadMoreRequested)
            h.advance(by: 600)
        }
        #expect(h.session.rev == 71)
        #expect(h.session.itemsHistory.map(\.rev) == Array(8...71))
        // 7 is just recent enough: revs 8…71, all 64 of them.
        var effects = h.send(.resumed(lastRev: 7))
        #expect(effects.itemsMessages.map(\.rev) == Array(8...71))
        #expect(effects.logs == [LogEntry(.sessionResumed, ["rev": 71, "lastRev": 7, "delivered": 64])])
        // 6 is too old.
        effects = h.send(.resumed(lastRev: 6))
        #expect(
            effects.itemsMessages == [
                ItemsMessage(op: .replace, rev: 72, items: h.session.window.items, total: 100, hasMore: true)
            ])
        // The replace starts a new history.
        #expect(h.session.itemsHistory.map(\.rev) == [72])
    }

    @Test func aLoadThatCompletedWhileAwayIsDelivered() {
        var h = Harness()
        h.send(.loadMoreRequested)
        // The page is gone; the load lands anyway (the transport has no one to send to).
        let landed = h.advance(by: 600).itemsMessages
        #expect(landed.count == 1)
        let effects = h.send(.resumed(lastRev: 1))
        #expect(effects.itemsMessages == landed)
        #expect(h.session.window.items.count == 50)
    }

    @Test func resumeAfterAResetDeliversTheReplace() {
        var h = Harness()
        h.send(.resetRequested)
        #expect(
            h.send(.resumed(lastRev: 1)).itemsMessages == [
                ItemsMessage(op: .replace, rev: 2, items: syntheticItems(0..<30), total: 30, hasMore: true)
            ])
    }
}

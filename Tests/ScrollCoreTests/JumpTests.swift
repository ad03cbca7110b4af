import Testing

@testable import ScrollCore

/// Jump to an item (issue 12 §4): the server loads the window around the item, tells the page where to
/// scroll, and keeps the edge rules from firing on the jump itself; on the manual clock.
struct JumpTests {
    /// Nothing is sent again (an unbounded window would resend every item held, per jump: issue 20 §3): an
    /// empty `append` gives the page the `rev` that ends the jump.
    @Test func anItemThePageHoldsIsScrolledToAtOnce() {
        var h = Harness()
        let jumped = h.send(.jumpRequested(JumpRequest(id: "item-12", anchor: .center)))
        #expect(
            jumped.filter { if case .send(.scrollToItem) = $0 { true } else { false } } == [
                .send(.scrollToItem(id: "item-12", anchor: .center))
            ])
        #expect(jumped.itemsMessages == [ItemsMessage(op: .append, rev: 2, items: [], total: 30, hasMore: true)])
        #expect(
            jumped.logs == [
                LogEntry(
                    .jumpFinished,
                    [
                        "id": "item-12", "anchor": "center", "index": 11, "filled": 0, "held": 30, "total": 30,
                        "first": "item-1", "last": "item-30",
                    ])
            ])
        // The command comes first: the page places the item as the window lands, in one task.
        #expect(jumped.firstIndex(of: .send(.scrollToItem(id: "item-12", anchor: .center)))! < 1)
        #expect(h.timers.isEmpty)
    }

    @Test func theEdgeRulesDoNotFireOnTheJumpAndWhatWasSuppressedIsLogged() {
        var h = Harness()
        h.send(.jumpRequested(JumpRequest(id: "item-30", anchor: .bottom)))
        // A frame measured before the page applied the jump (rev 1) at the bottom: no load.
        #expect(
            h.geometry(BoundedWindowTests.at(1200), rev: 1).logs == [
                LogEntry(.reachedBottom, geometrySeq: 1, ["distanceToBottom": 0]),
                LogEntry(
                    .loadMoreSuppressed, geometrySeq: 1, ["trigger": "bottom", "reason": "jump", "id": "item-30"]),
            ])
        // The page's first frame of the jump's window settles it, saying what the edges would have done.
        #expect(
            h.geometry(BoundedWindowTests.at(1200), rev: 2).logs == [
                LogEntry(
                    .jumpSettled, geometrySeq: 2, ["id": "item-30", "anchor": "bottom", "suppressed": ["bottom"]])
            ])
        #expect(h.session.jump == .idle)
        // From then on the rules are the user's again: leaving and coming back loads.
        h.scroll(y: 600)
        #expect(h.scroll(y: 1200).names == [.reachedBottom, .loadMoreStarted])
    }

    @Test func aFarItemLoadsItsWindowFirstRespectingTheWindowSize() {
        var h = Harness(["windowSize": 100, "maxItems": 2000])
        let started = h.send(.jumpRequested(JumpRequest(id: "item-1500", anchor: .top)))
        #expect(
            started.logs == [
                LogEntry(
                    .jumpStarted, ["id": "item-1500", "anchor": "top", "latencyMs": 600, "feedIndex": 1499])
            ])
        #expect(h.timers.map(\.id) == [.jump(1)])
        // The old window's bottom while the jump loads: the edge waits for the jump.
        #expect(h.scroll(y: 1200).names == [.reachedBottom, .loadMoreSuppressed])
        let landed = h.advance(by: 600)
        #expect(landed.names == [.jumpFinished])
        #expect(h.session.window.items.first?.id == "item-1")
        #expect(h.session.window.items.last?.id == "item-1550")
        #expect(h.session.window.pageCount == 100)
        #expect(h.session.window.pageItems.map(\.id) == syntheticItems(1449..<1549).map(\.id))
        #expect(landed.itemsMessages.map(\.op) == [.replace])
        #expect(landed.itemsMessages[0].items.count == 100)
        #expect(h.lastState.window == WindowState(start: 1449, count: 100, limit: 100))
        #expect(h.lastState.topEdge?.hasPrevious == true)
        #expect(h.lastState.hasMore == true)
        // Scrolling up from there loads back what lies above, from the session.
        h.geometry(BoundedWindowTests.at(3000, content: 8000), rev: landed.itemsMessages[0].rev)
        h.scroll(y: 0, content: 8000)
        let above = h.advance(by: 600)
        #expect(above.itemsMessages.map(\.op) == [.trim, .prepend])
        #expect(above.itemsMessages.last?.items == syntheticItems(1429..<1449))
        #expect(h.session.window.pageCount == 100)
    }

    @Test func aJumpAboveTheFirstItemHeldFillsTheFeedBeforeIt() {
        var h = Harness(["startAt": 501, "maxItems": 0])
        h.send(.jumpRequested(JumpRequest(id: "item-100", anchor: .center)))
        h.advance(by: 600)
        // Unbounded: the page holds every item the session holds, from item 80 (a page before the item).
        #expect(h.session.window.firstLoaded == 79)
        #expect(h.session.window.pageItems.first?.id == "item-80")
        #expect(h.session.window.pageItems.last?.id == "item-530")
        #expect(h.session.window.trimmed.top == 0 && h.session.window.trimmed.bottom == 0)
    }

    /// "Unknown" in a generated feed: an id the feed does not make (not `item-N`, N from 1), past its end
    /// (`maxItems`), or past what a session may hold. Each is refused and changes nothing.
    @Test(arguments: ["item-0", "item-201", "item-01", "nope", "new-1", "message-3"])
    func anUnknownItemIsRefusedAndNothingChanges(id: String) {
        var h = Harness()
        let before = h.session
        let refused = h.send(.jumpRequested(JumpRequest(id: id)))
        #expect(refused.count == 2)
        guard case .send(.error(let error)) = refused.first else {
            Issue.record("expected an error, got \(refused)")
            return
        }
        #expect(error.code == .unknownItem)
        #expect(error.message == "no item \"\(id)\" in this feed: nothing changed")
        #expect(refused.names == [.protocolError])
        #expect(h.session == before)
    }

    @Test func anItemPastTheSessionsReachIsUnknown() {
        var h = Harness(["maxItems": 0], defaults: ScrollConfig())
        h.session = SessionState(id: "s1", resumeToken: "t", config: ScrollConfig(), source: .synthetic, itemCap: 500)
        h.send(.helloReceived(Hello(config: ["maxItems": 0])))
        let refused = h.send(.jumpRequested(JumpRequest(id: "item-501")))
        #expect(
            refused.first
                == .send(
                    .error(
                        ProtocolError(
                            .unknownItem,
                            "no item \"item-501\" in this feed (a session holds at most 500 items): nothing changed"))))
        #expect(h.send(.jumpRequested(JumpRequest(id: "item-500"))).names == [.jumpStarted])
    }

    @Test func aNewJumpReplacesOneStillLoadingAndAResetCancelsIt() {
        var h = Harness()
        h.send(.jumpRequested(JumpRequest(id: "item-100")))
        let second = h.send(.jumpRequested(JumpRequest(id: "item-150")))
        #expect(second.names == [.jumpCancelled, .jumpStarted])
        #expect(h.timers.map(\.id) == [.jump(2)])
        let reset = h.send(.resetRequested)
        #expect(reset.names.contains(.jumpCancelled))
        #expect(h.timers.isEmpty)
        #expect(h.session.jump == .idle)
    }
}

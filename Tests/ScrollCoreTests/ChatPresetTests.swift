import Testing

@testable import ScrollCore

/// The `chat` preset (issue 12 §2): opens at the newest message at the bottom, loads older ones at the
/// top, new ones arrive at the bottom and are followed only from the bottom. On the manual clock.
struct ChatPresetTests {
    /// The harness's default content (2000) in a container of 800, scrolled to its end.
    static let atBottom = 1200.0

    @Test func opensAtTheNewestMessagesAtTheBottom() {
        let h = Harness(["preset": "chat"])
        #expect(
            Array(h.opening.dropFirst(1).prefix(4)) == [
                .log(LogEntry(.sessionOpened, ["preset": "chat", "config": ["preset": "chat"]])),
                .send(
                    .items(
                        ItemsMessage(op: .replace, rev: 1, items: syntheticItems(170..<200), total: 30, hasMore: false))
                ),
                .send(.command(name: "scrollToBottom")),
                .log(LogEntry(.scrollToBottom, ["trigger": "open"])),
            ])
        #expect(h.timers.map(\.id) == [.newMessage])
        #expect(h.timers.map(\.due) == [5000])
        #expect(h.lastState.topEdge == TopEdgeState(reachedTop: false, hasPrevious: true, loadingPreviousPage: false))
        #expect(h.lastState.hasMore == false)
    }

    @Test func aNewMessageIsFollowedOnlyWhenTheUserIsAtTheBottom() {
        var h = Harness(["preset": "chat"])
        h.scroll(y: Self.atBottom)
        let arrived = h.advance(by: 5000)
        let first = FeedSource.arrivedMessage(1, seed: 1)
        #expect(
            arrived.filter { if case .send(.state) = $0 { false } else { true } } == [
                .send(.items(ItemsMessage(op: .append, rev: 2, items: [first], total: 31, hasMore: false))),
                .send(.command(name: "scrollToBottom")),
                .log(LogEntry(.messageArrived, ["id": "message-1", "follow": true, "total": 31])),
                .log(LogEntry(.scrollToBottom, ["trigger": "newMessage"])),
                .schedule(.newMessage, afterMilliseconds: 5000),
            ])
        // Reading older messages: the next one lands below without moving the view.
        h.scroll(y: 400, content: 2100)
        let unfollowed = h.advance(by: 5000)
        #expect(unfollowed.logs == [LogEntry(.messageArrived, ["id": "message-2", "follow": false, "total": 32])])
        #expect(!unfollowed.contains(.send(.command(name: "scrollToBottom"))))
        #expect(h.session.window.items.suffix(2).map(\.id) == ["message-1", "message-2"])
    }

    @Test func scrollingUpLoadsOlderMessagesAboveWithTheAnchorKept() {
        var h = Harness(["preset": "chat", "newMessageEveryMs": 0])
        #expect(h.timers.isEmpty)
        #expect(h.scroll(y: 0).names == [.reachedTop, .loadPreviousStarted])
        #expect(
            h.advance(by: 600).itemsMessages == [
                ItemsMessage(
                    op: .prepend, rev: 2, items: syntheticItems(150..<170), total: 50, hasMore: false, older: true)
            ])
        // Chat has no pull-to-refresh: a pull at the top is no refresh and nothing yields.
        h.scroll(y: -80, content: 3000, phase: .interacting)
        #expect(!h.scroll(y: -80, content: 3000, phase: .decelerating).names.contains(.refreshStarted))
    }

    @Test func messagesArrivingBeforeTheLiveEndIsLoadedWaitForIt() {
        var h = Harness(["preset": "chat", "startAt": 161, "newMessageEveryMs": 1000, "loadLatencyMs": 100])
        #expect(h.lastState.hasMore)
        #expect(
            h.advance(by: 1000).logs == [
                LogEntry(.messageArrived, ["id": "message-1", "held": true, "follow": false, "total": 30])
            ])
        // The last page brings the feed's end (items 191…200), then the held message.
        h.scroll(y: Self.atBottom)
        let landed = h.advance(by: 100)
        #expect(landed.itemsMessages.first?.items.last?.id == "message-1")
        #expect(landed.itemsMessages.first?.hasMore == false)
        #expect(h.session.window.heldArrivals.isEmpty)
    }

    @Test func switchingTheIntervalReschedulesArrivals() {
        var h = Harness(["preset": "chat"])
        let effects = h.send(.configReceived(["newMessageEveryMs": 250]))
        #expect(
            effects.filter { if case .log = $0 { false } else { true } } == [
                .cancel(.newMessage), .schedule(.newMessage, afterMilliseconds: 250),
            ])
        #expect(h.send(.configReceived(["newMessageEveryMs": 0])).contains(.cancel(.newMessage)))
        #expect(h.timers.isEmpty)
    }
}

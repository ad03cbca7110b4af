import Testing

@testable import ScrollCore

/// A preset switched mid-session acts on the position it finds (issue 40 §2): its controller fires the new
/// bottom rule there, through the usual gates.
struct PresetSwitchTests {
    /// 0.4 px short of the end: `customScrollView` never sees the bottom there, `playground` (0.5 px slack) does.
    @Test func switchingAtTheBottomToAPresetWhoseRuleHoldsLoads() {
        var h = Harness(["preset": "customScrollView"])
        #expect(h.scroll(y: 1199.6).names == [])
        let effects = h.send(.configReceived(["preset": "playground"]))
        #expect(effects.names == [.reachedBottom, .loadMoreStarted, .configChanged])
        let started = effects.logs[1]
        // The bottom rule fired; the row before says the settings change put it there.
        #expect(effects.logs[0].data["trigger"] == "configChanged")
        #expect(started.data["trigger"] == "bottom")
        #expect(started.data["page"] == 2)
        #expect(h.lastState.loadingNextPage)
        h.advance(by: 2000)
        #expect(h.session.window.cursor == 50)
    }

    @Test func switchingAwayFromTheBottomLoadsNothing() {
        var h = Harness(["preset": "customScrollView"])
        h.scroll(y: 600)
        #expect(h.send(.configReceived(["preset": "playground"])).names == [.configChanged])
    }

    @Test func switchingWhileALoadIsInFlightStartsNoSecond() {
        var h = Harness(["preset": "playground"])
        #expect(h.scroll(y: 1200).names == [.reachedBottom, .loadMoreStarted])
        #expect(h.send(.configReceived(["preset": "refreshable"])).names.filter { $0 == .loadMoreStarted } == [])
    }
}

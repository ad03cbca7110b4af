import Testing

@testable import ScrollCore

/// Every preset's bottom rule at its boundary, with content 2000 px in an 800 px viewport and
/// the default `bottomThreshold` of 50. Only `playground` has the 0.5 px slack; the published
/// designs compare exactly as written.
struct BottomRuleTests {
    /// Sends one geometry at `y` to a fresh session and checks that it starts a load or does nothing else.
    func probe(
        _ preset: Preset, y: Double, fires: Bool, insets: ScrollInsets = .zero, config: [String: JSONValue] = [:]
    ) {
        var settings = config
        settings["preset"] = .string(preset.rawValue)
        var h = Harness(settings)
        let opened = h.lastState
        let effects = h.scroll(y: y, insets: insets)
        if fires {
            let distance = (2000 + insets.bottom) - (y + 800)
            #expect(
                effects == [
                    .log(LogEntry(.reachedBottom, geometrySeq: 1, ["distanceToBottom": .number(distance)])),
                    .log(
                        LogEntry(
                            .loadMoreStarted, geometrySeq: 1,
                            ["page": 2, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": .number(distance)])),
                    .schedule(.pageLoad(1), afterMilliseconds: 600),
                    .send(
                        .state(
                            opened.with {
                                $0.ack = 1
                                $0.reachedBottom = true
                                $0.loadingNextPage = true
                                $0.indicator.bottomVisible = true
                            })),
                ], "y = \(y)")
        } else {
            #expect(effects == [.send(.state(opened.with { $0.ack = 1 }))], "y = \(y)")
        }
    }

    /// `contentSize.height <= contentOffset.y + containerSize.height`: bottom from y = 1200.
    @Test(arguments: [(1200.0, true), (1500.0, true), (1199.6, false), (1199.0, false)])
    func customScrollViewBoundary(y: Double, fires: Bool) {
        probe(.customScrollView, y: y, fires: fires)
    }

    /// No threshold and no insets: a larger `bottomThreshold` and a bottom inset change nothing.
    @Test(arguments: [(1200.0, true), (1199.0, false)])
    func customScrollViewIgnoresThresholdAndInsets(y: Double, fires: Bool) {
        probe(
            .customScrollView, y: y, fires: fires, insets: ScrollInsets(top: 30, bottom: 100),
            config: ["bottomThreshold": 400])
    }

    /// `maxY - bottomThreshold <= containerSize.height` with `maxY = 2000 - y`: bottom from y = 1150.
    @Test(arguments: [(1150.0, true), (1149.6, false), (1149.0, false)])
    func refreshableLegacyBoundary(y: Double, fires: Bool) {
        probe(.refreshableLegacy, y: y, fires: fires)
    }

    /// `y + containerSize.height >= contentSize.height - bottomThreshold`: bottom from y = 1150.
    @Test(arguments: [(1150.0, true), (1149.6, false), (1149.0, false)])
    func refreshableBoundary(y: Double, fires: Bool) {
        probe(.refreshable, y: y, fires: fires)
    }

    /// `distanceToBottom <= bottomThreshold` with 0.5 px slack: bottom from y = 1149.5.
    @Test(arguments: [(1150.0, true), (1149.6, true), (1149.5, true), (1149.4, false), (1149.0, false)])
    func playgroundBoundary(y: Double, fires: Bool) {
        probe(.playground, y: y, fires: fires)
    }

    /// Insets count: a 100 px bottom inset moves the boundary 100 px further down.
    @Test(arguments: [(1250.0, true), (1249.6, true), (1249.0, false), (1150.0, false)])
    func playgroundBoundaryCountsTheBottomInset(y: Double, fires: Bool) {
        probe(.playground, y: y, fires: fires, insets: ScrollInsets(bottom: 100))
    }

    @Test(arguments: [Preset.offsetObserving, .refreshOffsetObservable])
    func presetsWithoutABottomRuleNeverLoad(preset: Preset) {
        var h = Harness(["preset": .string(preset.rawValue)])
        for y in [1150.0, 1200, 1300] {
            let names = h.scroll(y: y).names
            #expect(!names.contains(.reachedBottom) && !names.contains(.loadMoreStarted))
        }
        #expect(h.lastState.reachedBottom == false)
        #expect(h.session.controller.loads.bottom.inFlight == nil)
    }

    /// The seed guard: an unmeasured content height (0) is recorded but decides nothing.
    @Test(arguments: Preset.allCases)
    func zeroContentHeightTriggersNothing(preset: Preset) {
        var h = Harness(["preset": .string(preset.rawValue), "compare": true])
        let effects = h.scroll(y: 0, content: 0)
        let names = effects.names.filter { $0 != .offsetChanged }
        #expect(names == [])
        #expect(h.session.lastGeometry?.geometry.contentSize.height == 0)
        #expect(h.lastState.reachedBottom == false)
        #expect(h.session.controller.loads.bottom.inFlight == nil)
    }

    @Test func customScrollViewWithContentHeightZeroTriggersNothing() {
        var h = Harness(["preset": "customScrollView"])
        let opened = h.lastState
        // Without the guard, 0 <= 0 + 800 would be "at the bottom".
        #expect(h.scroll(y: 0, content: 0) == [.send(.state(opened.with { $0.ack = 1 }))])
        // Once measured, short content is at the bottom.
        #expect(h.scroll(y: 0, content: 500).names == [.reachedBottom, .loadMoreStarted])
    }
}

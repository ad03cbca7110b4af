import Foundation
import Testing

@testable import ScrollCore

/// A preset's description (issue 21 §1): one value per preset, which the session, the page
/// (`welcome.presets`) and the lab read. These are today's behaviours, written out by hand.
struct PresetDescriptionTests {
    struct Expected: Sendable {
        var rules: [EdgeRule]
        var refresh: RefreshStart
        var indicator: RefreshIndicator
        var opensAtBottom = false
        var followsArrivals = false
        var retry = RetryPolicy.manual
        var compared = true
        var pullThreshold = 68.0
    }

    static let expected: [Preset: Expected] = [
        .customScrollView: Expected(rules: [.bottom], refresh: .none, indicator: .none),
        .offsetObserving: Expected(rules: [], refresh: .none, indicator: .none),
        .refreshableLegacy: Expected(rules: [.bottom, .pull], refresh: .onRelease, indicator: .spinner),
        .refreshable: Expected(rules: [.bottom, .pull], refresh: .onRelease, indicator: .spinner),
        .refreshOffsetObservable: Expected(rules: [.pull], refresh: .immediate, indicator: .offset, pullThreshold: 100),
        .playground: Expected(
            rules: [.bottom, .top, .pull], refresh: .onRelease, indicator: .spinner, retry: .backoff),
        .chat: Expected(
            rules: [.bottom, .top], refresh: .none, indicator: .spinner, opensAtBottom: true, followsArrivals: true,
            retry: .backoff),
    ]

    @Test(arguments: Preset.allCases)
    func describesWhatThePresetDoes(preset: Preset) throws {
        let want = try #require(Self.expected[preset])
        let behavior = preset.behavior
        #expect(behavior.rules == want.rules)
        #expect(behavior.refresh == want.refresh)
        #expect(behavior.indicator == want.indicator)
        #expect(behavior.opensAtBottom == want.opensAtBottom)
        #expect(behavior.followsArrivals == want.followsArrivals)
        #expect(behavior.defaultRetryPolicy == want.retry)
        #expect(behavior.compared == want.compared)
        #expect(behavior.defaultPullThreshold == want.pullThreshold)
        // The names the rules and compare mode have always asked are the description's.
        #expect(preset.detectsBottom == want.rules.contains(.bottom))
        #expect(preset.detectsPull == want.rules.contains(.pull))
        #expect(preset.isCompared == want.compared)
    }

    @Test func theCheckedPropertiesFollowFromTheBehaviour() {
        let always: [CheckedProperty] = [.singleFlight, .itemsIntact, .resumeLosesNothing, .indicatorConsistent]
        let bottom: [CheckedProperty] = [.requestedOnce, .seesTheEnd, .noStall, .noStallAfterFailure]
        func sorted(_ properties: [CheckedProperty]) -> [CheckedProperty] { properties.sorted() }
        #expect(Preset.customScrollView.behavior.properties == sorted(always + bottom))
        #expect(Preset.offsetObserving.behavior.properties == sorted(always))
        #expect(Preset.refreshableLegacy.behavior.properties == sorted(always + bottom + [.releaseGated]))
        #expect(Preset.refreshable.behavior.properties == sorted(always + bottom + [.releaseGated]))
        #expect(Preset.refreshOffsetObservable.behavior.properties == sorted(always))
        #expect(
            Preset.playground.behavior.properties == sorted(always + bottom + [.releaseGated, .noLoadDuringRefresh]))
        #expect(Preset.chat.behavior.properties == sorted(always + bottom + [.noLoadDuringRefresh]))
    }

    /// The indicator the description names is the one the session's state draws: a pull of 30 px shows
    /// as the offset itself, fully opaque (`offset`), fading in with the share of the threshold
    /// (`spinner`, presets with a pull rule), or not at all; a manual refresh shows the spinner at the
    /// threshold's height.
    @Test(arguments: Preset.allCases)
    func theIndicatorIsTheOneTheStateDraws(preset: Preset) {
        var h = Harness(["preset": .string(preset.rawValue), "newMessageEveryMs": 0])
        h.scroll(y: 0)
        h.scroll(y: -30, phase: .interacting)
        let pulled = h.lastState.indicator
        let threshold = preset.behavior.defaultPullThreshold
        switch preset.behavior.indicator {
        case .offset:
            #expect(pulled.topVisible && pulled.topHeight == 30 && pulled.topOpacity == 1)
        case .spinner where preset.detectsPull:
            #expect(pulled.topVisible && pulled.topOpacity == 30 / threshold)
        case .spinner, .none:
            #expect(!pulled.topVisible && pulled.topHeight == 0)
        }
        h.scroll(y: 0)
        h.send(.refreshRequested)
        let refreshing = h.lastState.indicator
        switch preset.behavior.indicator {
        case .spinner: #expect(refreshing.topVisible && refreshing.topHeight == threshold)
        case .offset, .none: #expect(!refreshing.topVisible)
        }
    }

    /// `welcome.presets` carries every field of the agreed contract, for every preset, in order.
    @Test func theWelcomeDescribesEveryPreset() throws {
        let welcome = try foundationJSON(
            ServerMessage.welcome(session: "s1", resume: "t", config: ScrollConfig()).encoded())
        let presets = try #require(welcome["presets"]?.array)
        #expect(presets.map { $0["name"]?.string } == Preset.allCases.map(\.rawValue))
        for (preset, described) in zip(Preset.allCases, presets) {
            let behavior = preset.behavior
            #expect(described["design"]?.string == preset.design)
            #expect(described["rule"]?.string == preset.rule)
            #expect(described["rules"]?.array?.compactMap(\.string) == behavior.rules.map(\.rawValue))
            #expect(described["refresh"]?.string == behavior.refresh.rawValue)
            #expect(described["indicator"]?.string == behavior.indicator.rawValue)
            #expect(described["opensAtBottom"]?.bool == behavior.opensAtBottom)
            #expect(described["followsArrivals"]?.bool == behavior.followsArrivals)
            #expect(described["defaultRetryPolicy"]?.string == behavior.defaultRetryPolicy.rawValue)
            #expect(described["compared"]?.bool == behavior.compared)
            #expect(described["properties"]?.array?.compactMap(\.string) == behavior.properties.map(\.rawValue))
        }
        #expect(presets.first { $0["name"] == "chat" }?["rules"] == ["bottom", "top"])
        #expect(presets.first { $0["name"] == "refreshOffsetObservable" }?["refresh"] == "immediate")
    }
}

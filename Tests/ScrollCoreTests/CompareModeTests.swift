import Testing

@testable import ScrollCore

/// Compare mode: every geometry also runs through the other presets' rules, without side effects.
struct CompareModeTests {
    static func disagreement(_ about: String, yes: [Preset], no: [Preset], seq: Int) -> SessionEffect {
        .log(
            LogEntry(
                .presetDisagreement, geometrySeq: seq,
                [
                    "about": .string(about), "yes": .array(yes.map { .string($0.rawValue) }),
                    "no": .array(no.map { .string($0.rawValue) }),
                ]))
    }

    static func fired(load: [Preset] = [], refresh: [Preset] = [], seq: Int) -> LogEntry {
        LogEntry(
            .presetsFired, geometrySeq: seq,
            [
                "load": .array(load.map { .string($0.rawValue) }),
                "refresh": .array(refresh.map { .string($0.rawValue) }),
            ])
    }

    /// 30 px from the end: within every threshold, but not at `customScrollView`'s exact bottom.
    @Test func customScrollViewAndRefreshableDisagreeAboutTheBottom() {
        var h = Harness(["preset": "customScrollView", "compare": true])
        let opened = h.lastState
        #expect(
            h.scroll(y: 1170) == [
                Self.disagreement(
                    "reachedBottom", yes: [.refreshableLegacy, .refreshable, .playground, .chat],
                    no: [.customScrollView], seq: 1),
                .log(Self.fired(load: [.refreshableLegacy, .refreshable, .playground, .chat], seq: 1)),
                .send(.state(opened.with { $0.ack = 1 })),
            ])
        // The shadows start no load and change no state.
        #expect(h.timers.isEmpty)
        #expect(h.session.controller.loads.bottom.inFlight == nil)
    }

    @Test func aDisagreementIsLoggedOnceUntilItChanges() {
        var h = Harness(["preset": "customScrollView", "compare": true])
        h.scroll(y: 1170)
        // Only the level-triggered `refreshableLegacy` fires again.
        #expect(h.scroll(y: 1175).logs == [Self.fired(load: [.refreshableLegacy], seq: 2)])
        // All at the bottom: they agree, and the primary preset does its job.
        #expect(h.scroll(y: 1200).names == [.reachedBottom, .loadMoreStarted, .presetsFired])
        #expect(
            h.scroll(y: 1170).logs == [
                LogEntry(.leftBottom, geometrySeq: 4, ["distanceToBottom": 30]),
                LogEntry(
                    .presetDisagreement, geometrySeq: 4,
                    [
                        "about": "reachedBottom", "yes": ["refreshableLegacy", "refreshable", "playground", "chat"],
                        "no": ["customScrollView"],
                    ]),
                Self.fired(load: [.refreshableLegacy], seq: 4),
            ])
        // 49.8 px from the end: only the slack lets `playground` count it as the bottom.
        #expect(
            h.scroll(y: 1149.8).logs == [
                LogEntry(
                    .presetDisagreement, geometrySeq: 5,
                    [
                        "about": "reachedBottom", "yes": ["playground", "chat"],
                        "no": ["customScrollView", "refreshableLegacy", "refreshable"],
                    ])
            ])
    }

    @Test func presetsDisagreeAboutARefreshFiring() {
        var h = Harness(["preset": "customScrollView", "compare": true])
        let opened = h.lastState
        // Past -100 `refreshOffsetObservable` fires at once; the others wait for the release.
        #expect(
            h.scroll(y: -101, phase: .interacting) == [
                Self.disagreement(
                    "refresh", yes: [.refreshOffsetObservable], no: [.refreshableLegacy, .refreshable, .playground],
                    seq: 1),
                .log(Self.fired(refresh: [.refreshOffsetObservable], seq: 1)),
                .send(.state(opened.with { $0.ack = 1 })),
            ])
        // On release the others fire; `refreshOffsetObservable` already did.
        #expect(
            h.scroll(y: -101, phase: .idle).logs == [
                LogEntry(
                    .presetDisagreement, geometrySeq: 2,
                    [
                        "about": "refresh", "yes": ["refreshableLegacy", "refreshable", "playground"],
                        "no": ["refreshOffsetObservable"],
                    ]),
                Self.fired(refresh: [.refreshableLegacy, .refreshable, .playground], seq: 2),
            ])
        #expect(!h.session.controller.refresh.isInFlight)
    }

    /// Each shadow uses its own preset's default pull threshold: 100 for `refreshOffsetObservable`, 68 otherwise.
    @Test func eachPresetIsComparedWithItsOwnDefaultPullThreshold() {
        var h = Harness(["preset": "customScrollView", "compare": true])
        // 80 px: past 68, not past 100, so `refreshOffsetObservable` does not fire.
        #expect(h.scroll(y: -80, phase: .interacting).names == [])
        #expect(
            h.scroll(y: -80, phase: .idle).logs == [
                LogEntry(
                    .presetDisagreement, geometrySeq: 2,
                    [
                        "about": "refresh", "yes": ["refreshableLegacy", "refreshable", "playground"],
                        "no": ["refreshOffsetObservable"],
                    ]),
                Self.fired(refresh: [.refreshableLegacy, .refreshable, .playground], seq: 2),
            ])
        // The other way round, under `refreshOffsetObservable` as the primary preset.
        var primary = Harness(["preset": "refreshOffsetObservable", "compare": true])
        primary.scroll(y: -80, phase: .interacting)
        #expect(
            primary.scroll(y: -80, phase: .idle).logs.first { $0.name == .presetDisagreement }?.data["yes"] == [
                "refreshableLegacy", "refreshable", "playground",
            ])
        // An explicit threshold applies to all of them.
        var explicit = Harness(["preset": "customScrollView", "compare": true, "pullThreshold": 75])
        #expect(
            explicit.scroll(y: -80, phase: .interacting).logs == [
                LogEntry(
                    .presetDisagreement, geometrySeq: 1,
                    [
                        "about": "refresh", "yes": ["refreshOffsetObservable"],
                        "no": ["refreshableLegacy", "refreshable", "playground"],
                    ]),
                Self.fired(refresh: [.refreshOffsetObservable], seq: 1),
            ])
    }

    /// Where every preset agrees there is no disagreement, but each firing is still logged for the lanes.
    @Test func everyFiringIsLoggedWhenThePresetsAgree() {
        var h = Harness(["preset": "playground", "compare": true])
        let logs = h.scroll(y: 1200).logs
        #expect(!logs.contains { $0.name == .presetDisagreement })
        #expect(
            logs.last
                == Self.fired(
                    load: [.customScrollView, .refreshableLegacy, .refreshable, .playground, .chat], seq: 1))
    }

    @Test func withoutCompareNothingIsLogged() {
        var h = Harness(["preset": "customScrollView"])
        h.scroll(y: 1170)
        h.scroll(y: -101, phase: .interacting)
        h.scroll(y: -101, phase: .idle)
        #expect(!h.loggedNames.contains(.presetDisagreement))
    }

    @Test func turningCompareOnLaterStartsFresh() {
        var h = Harness(["preset": "customScrollView"])
        h.scroll(y: 1170)
        h.send(.configReceived(["compare": true]))
        #expect(h.scroll(y: 1170).names == [.presetDisagreement, .presetsFired])
        // Off and on again: the same disagreement is news again.
        h.send(.configReceived(["compare": false]))
        h.send(.configReceived(["compare": true]))
        #expect(h.scroll(y: 1170).names == [.presetDisagreement, .presetsFired])
    }
}

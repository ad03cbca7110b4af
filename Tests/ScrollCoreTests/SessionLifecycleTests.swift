import Testing

@testable import ScrollCore

/// `hello`, `config` and the messages a session sends before any scrolling.
struct SessionLifecycleTests {
    /// The `state` of a freshly opened session with the synthetic feed's first page.
    static func openingState(_ preset: Preset = .playground, itemCount: Int = 30) -> StateMessage {
        StateMessage(
            ack: nil, preset: preset, reachedBottom: false, pull: PullState(), refreshing: false,
            loadingNextPage: false,
            hasMore: true, itemCount: itemCount,
            // `refreshOffsetObservable` scales its indicator by |y| / 50; the others start at 0.6.
            indicator: IndicatorState(
                topVisible: false, topHeight: 0, topScale: preset == .refreshOffsetObservable ? 0 : 0.6, topOpacity: 0,
                bottomVisible: false),
            origin: preset == .offsetObserving ? .zero : nil)
    }

    /// A refused message: the `error` reply and the `protocolError` event.
    /// A setting's refusal also names the setting, so the page can show it beside the field.
    static func refused(_ message: String, field: String? = nil) -> [SessionEffect] {
        var data: [String: JSONValue] = ["code": "bad_message", "message": .string(message)]
        if let field { data["field"] = .string(field) }
        return [
            .send(.error(ProtocolError(.badMessage, message, field: field))),
            .log(LogEntry(.protocolError, data)),
        ]
    }

    @Test func helloSendsWelcomeInitialItemsAndState() {
        let h = Harness()
        let config = ScrollConfig()
        #expect(
            h.opening == [
                .send(.welcome(session: "s1", resume: "token-1", config: config)),
                // The log keeps the settings the page asked for; `welcome` has them all.
                .log(LogEntry(.sessionOpened, ["preset": "playground", "config": [:]])),
                .send(
                    .items(ItemsMessage(op: .replace, rev: 1, items: syntheticItems(0..<30), total: 30, hasMore: true))),
                .send(.state(Self.openingState())),
            ])
        #expect(h.session.lifecycle == .open)
        #expect(h.session.window.cursor == 30)
        #expect(h.session.edges.bottom.page == 1)
    }

    @Test func helloConfigIsAppliedBeforeTheFirstPage() {
        let h = Harness(["preset": "refreshable", "initialCount": 3, "maxItems": 3, "seed": 9])
        var config = ScrollConfig()
        config.rules.preset = .refreshable
        config.initialCount = 3
        config.maxItems = 3
        config.seed = 9
        #expect(
            h.opening == [
                .send(.welcome(session: "s1", resume: "token-1", config: config)),
                .log(
                    LogEntry(
                        .sessionOpened,
                        [
                            "preset": "refreshable",
                            "config": ["preset": "refreshable", "initialCount": 3, "maxItems": 3, "seed": 9],
                        ])),
                .send(
                    .items(
                        ItemsMessage(
                            op: .replace, rev: 1, items: syntheticItems(0..<3, seed: 9), total: 3, hasMore: false))),
                .send(.state(Self.openingState(.refreshable, itemCount: 3).with { $0.hasMore = false })),
            ])
    }

    @Test func helloWithABadSettingIsRefusedAndLeavesTheSessionClosed() {
        var session = SessionState(id: "s1", resumeToken: "t", config: ScrollConfig(), source: .synthetic)
        let effects = session.reduce(.helloReceived(Hello(config: ["pageSize": 0])), now: 0)
        #expect(effects == Self.refused("pageSize must be in 1…500", field: "pageSize"))
        #expect(session.lifecycle == .awaitingHello)
        #expect(session.window.items.isEmpty)
    }

    @Test func secondHelloIsRefused() {
        var h = Harness()
        let before = h.session
        #expect(h.send(.helloReceived(Hello())) == Self.refused("hello was already received"))
        #expect(h.session == before)
    }

    /// The server answers `not_ready` for these; the core itself must not act on them.
    @Test func eventsBeforeHelloDoNothing() {
        var session = SessionState(id: "s1", resumeToken: "t", config: ScrollConfig(), source: .synthetic)
        let initial = session
        let geometry = GeometryReport(
            seq: 1,
            geometry: FeedGeometry(
                contentSize: ScrollSize(width: 400, height: 100), containerSize: ScrollSize(width: 400, height: 800)))
        for event: SessionEvent in [
            .geometryReceived(geometry), .loadMoreRequested, .refreshRequested, .resetRequested,
        ] {
            #expect(session.reduce(event, now: 0) == [])
        }
        #expect(session == initial)
    }

    @Test func configMessageLogsOnlyTheChangedSettings() {
        var h = Harness()
        let effects = h.send(.configReceived(["bottomThreshold": 80, "pageSize": 20]))
        #expect(effects == [.log(LogEntry(.configChanged, ["changed": ["bottomThreshold": 80]]))])
        #expect(h.session.config.rules.bottomThreshold == 80)
    }

    @Test func configMessageWithoutChangesDoesNothing() {
        var h = Harness()
        #expect(h.send(.configReceived(["bottomThreshold": 50])) == [])
        #expect(h.send(.configReceived([:])) == [])
    }

    @Test func badConfigMessageIsRefusedAndChangesNothing() {
        var h = Harness()
        let before = h.session.config
        let effects = h.send(.configReceived(["pageSize": 10, "failureRate": 1.5]))
        #expect(effects == Self.refused("failureRate must be in 0…1", field: "failureRate"))
        #expect(h.session.config == before)
    }

    @Test func switchingPresetSwitchesTheDefaultPullThresholdAndTheState() {
        var h = Harness()
        let effects = h.send(.configReceived(["preset": "refreshOffsetObservable"]))
        #expect(
            effects == [
                .log(
                    LogEntry(
                        .configChanged,
                        [
                            "changed": [
                                "preset": "refreshOffsetObservable", "pullThreshold": 100, "retryPolicy": "manual",
                            ]
                        ])),
                .send(.state(Self.openingState(.refreshOffsetObservable))),
            ])
        #expect(h.session.config.rules.pullThreshold == 100)
    }

    /// The new rules start from the current position: a bottom rule that holds there fires, as on arriving there
    /// (issue 40 §2: the feed used to sit frozen at its end), and the log says the settings put it there.
    @Test func switchingPresetFiresTheNewBottomRuleWhereItHolds() {
        var h = Harness(["preset": "offsetObserving"])
        h.scroll(y: 1200)
        let effects = h.send(.configReceived(["preset": "refreshable"]))
        #expect(
            effects == [
                .log(LogEntry(.reachedBottom, geometrySeq: 1, ["distanceToBottom": 0, "trigger": "configChanged"])),
                .log(
                    LogEntry(
                        .loadMoreStarted,
                        ["page": 2, "trigger": "bottom", "latencyMs": 600, "distanceToBottom": 0])),
                .schedule(.pageLoad(1), afterMilliseconds: 600),
                .log(LogEntry(.configChanged, ["changed": ["preset": "refreshable"]])),
                .send(
                    .state(
                        Self.openingState(.refreshable).with {
                            $0.ack = 1
                            $0.reachedBottom = true
                            $0.loadingNextPage = true
                            $0.indicator.bottomVisible = true
                        })),
            ])
        // Staying at the bottom is still no edge for `refreshable`: one load, not one a geometry.
        let before = h.lastState
        #expect(h.scroll(y: 1201) == [.send(.state(before.with { $0.ack = 2 }))])
    }

    @Test func loweringMaxItemsEndsTheFeedAndRaisingItReopensIt() {
        var h = Harness()
        #expect(
            h.send(.configReceived(["maxItems": 30])) == [
                .log(LogEntry(.configChanged, ["changed": ["maxItems": 30]])),
                .send(.state(Self.openingState().with { $0.hasMore = false })),
            ])
        h.send(.loadMoreRequested)
        #expect(h.loggedNames.last == .feedExhausted)
        h.send(.configReceived(["maxItems": 0]))
        #expect(h.session.sourceHasMore)
        #expect(h.session.controller.loads.bottom != .exhausted)
    }

    @Test func aNegativePullThresholdIsRefusedNamingTheField() {
        var h = Harness()
        let before = h.session.config
        #expect(
            h.send(.configReceived(["pullThreshold": -5]))
                == Self.refused("pullThreshold must be in 0…100000", field: "pullThreshold"))
        #expect(h.session.config == before)
    }

    @Test func loadMoreAfterTheFeedIsExhaustedSaysWhyNothingHappens() {
        var h = Harness(["initialCount": 5, "maxItems": 5])
        #expect(h.send(.loadMoreRequested) == [.log(LogEntry(.feedExhausted, ["total": 5]))])
        // Every further press is answered, never silently dropped; nothing else changes.
        let before = h.session
        for _ in 0..<2 {
            #expect(
                h.send(.loadMoreRequested) == [
                    .log(LogEntry(.loadMoreIgnored, ["trigger": "manual", "reason": "feedExhausted", "total": 5]))
                ])
        }
        #expect(h.session == before)
    }

    @Test func theBottomRuleStaysQuietAfterTheFeedIsExhausted() {
        var h = Harness(["initialCount": 5, "maxItems": 5, "preset": "refreshableLegacy"])
        h.send(.loadMoreRequested)
        // A level-triggered design at the bottom would fire on every frame: only a person's press is answered.
        #expect(h.scroll(y: 1150).logs.map(\.name) == [.reachedBottom])
        #expect(h.scroll(y: 1151).logs == [])
    }

    @Test func refreshDuringARefreshSaysWhyNothingHappens() {
        var h = Harness()
        h.send(.refreshRequested)
        let before = h.session
        #expect(
            h.send(.refreshRequested) == [
                .log(LogEntry(.refreshIgnored, ["trigger": "manual", "reason": "refreshInFlight"]))
            ])
        #expect(h.session == before)
        h.advance(by: 1200)
        #expect(h.send(.refreshRequested).compactMap(\.loggedName) == [EventName.refreshStarted])
    }

    @Test func manualLoadMoreAppendsTheNextPage() {
        var h = Harness()
        #expect(
            h.send(.loadMoreRequested) == [
                .log(LogEntry(.loadMoreStarted, ["page": 2, "trigger": "manual", "latencyMs": 600])),
                .schedule(.pageLoad(1), afterMilliseconds: 600),
                .send(
                    .state(
                        Self.openingState().with {
                            $0.loadingNextPage = true
                            $0.indicator.bottomVisible = true
                        })),
            ])
        #expect(h.advance(by: 599) == [])
        #expect(
            h.advance(by: 1) == [
                .send(
                    .items(ItemsMessage(op: .append, rev: 2, items: syntheticItems(30..<50), total: 50, hasMore: true))),
                .log(LogEntry(.loadMoreFinished, ["page": 2, "added": 20, "total": 50, "hasMore": true])),
                .send(.state(Self.openingState(itemCount: 50))),
            ])
        #expect(h.session.window.items == syntheticItems(0..<50))
    }

    @Test func lastPageIsCutAtMaxItems() {
        var h = Harness(["maxItems": 35])
        h.send(.loadMoreRequested)
        let effects = h.advance(by: 600)
        #expect(
            effects.itemsMessages == [
                ItemsMessage(op: .append, rev: 2, items: syntheticItems(30..<35), total: 35, hasMore: false)
            ])
        #expect(effects.logs == [LogEntry(.loadMoreFinished, ["page": 2, "added": 5, "total": 35, "hasMore": false])])
        #expect(h.lastState == Self.openingState(itemCount: 35).with { $0.hasMore = false })
    }

    @Test func manualRefreshPrependsFreshItems() {
        var h = Harness(["refreshCount": 2])
        #expect(
            h.send(.refreshRequested) == [
                .log(LogEntry(.refreshStarted, ["trigger": "manual", "latencyMs": 1200])),
                .schedule(.refresh(1), afterMilliseconds: 1200),
                .send(
                    .state(
                        Self.openingState().with {
                            $0.refreshing = true
                            $0.indicator = IndicatorState(
                                topVisible: true, topHeight: 68, topScale: 1, topOpacity: 1, bottomVisible: false)
                        })),
            ])
        // A second refresh while one is in flight changes nothing, and says so.
        #expect(
            h.send(.refreshRequested) == [
                .log(LogEntry(.refreshIgnored, ["trigger": "manual", "reason": "refreshInFlight"]))
            ])
        let fresh = [FeedSource.refreshedItem(1, seed: 1), FeedSource.refreshedItem(2, seed: 1)]
        #expect(fresh.map(\.id) == ["new-1", "new-2"])
        #expect(
            h.advance(by: 1200) == [
                .send(.items(ItemsMessage(op: .prepend, rev: 2, items: fresh, total: 32, hasMore: true))),
                .log(LogEntry(.refreshFinished, ["added": 2, "total": 32])),
                .send(.state(Self.openingState(itemCount: 32))),
            ])
        #expect(h.session.window.items == fresh + syntheticItems(0..<30))
        // The next refresh brings new ids, never repeated ones.
        h.send(.refreshRequested)
        #expect(h.advance(by: 1200).itemsMessages.first?.items.map(\.id) == ["new-3", "new-4"])
    }

    @Test func timersOfUnknownOperationsAreHarmless() {
        var h = Harness()
        let before = h.session
        // Timers of operations that never existed (or ended) are ignored.
        #expect(h.send(.timerFired(.pageLoad(42))) == [])
        #expect(h.send(.timerFired(.refresh(42))) == [])
        #expect(h.send(.timerFired(.refreshHold)) == [])
        #expect(h.send(.timerFired(.originFlush)) == [])
        #expect(h.session == before)
    }

    @Test func timerIDsDescribeThemselves() {
        #expect(TimerID.pageLoad(3).description == "pageLoad-3")
        #expect(TimerID.refresh(4).description == "refresh-4")
        #expect(TimerID.refreshHold.description == "refreshHold")
        #expect(TimerID.originFlush.description == "originFlush")
    }
}

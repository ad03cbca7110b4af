import Testing

@testable import ScrollCore

/// Failure policies (issue 12 §1): what happens after a page load fails, on the manual clock.
struct RetryPolicyTests {
    /// The delay the session will draw for a retry whose uncapped ceiling is `ceiling`: equal jitter from
    /// the session's own generator, so the expectation is the exact value, not a range.
    static func nextDelay(_ h: Harness, ceiling: Int) -> Int {
        var generator = h.session.generator
        let half = ceiling / 2
        return ceiling - half + Int(generator.next() % UInt64(half + 1))
    }

    /// A geometry at the bottom of the harness's default content (distance 50, the threshold).
    static let atBottom = 1150.0

    @Test func backoffDoublesUpToTheCapThenGivesUpAndOnlyAPersonRetries() {
        var h = Harness([
            "failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 100, "retryMaxMs": 350, "retryMax": 3,
        ])
        h.scroll(y: Self.atBottom)
        var started = 0 as Int64
        for (retry, ceiling) in [(1, 100), (2, 200), (3, 350)] {
            let delay = Self.nextDelay(h, ceiling: ceiling)
            let failed = h.advance(by: 100)
            let token = h.session.nextToken - 1
            #expect(
                failed.filter { if case .send = $0 { false } else { true } } == [
                    .log(LogEntry(.loadMoreFailed, ["page": 2, "reason": "simulated failure"])),
                    .schedule(.loadRetry(token), afterMilliseconds: delay),
                    .log(
                        LogEntry(
                            .loadMoreRetryScheduled,
                            [
                                "page": 2, "retry": .int(retry), "retryMax": 3, "delayMs": .int(delay),
                                "failures": .int(retry),
                            ])),
                ])
            #expect(
                h.lastState.loadFailure
                    == LoadFailureState(
                        page: 2, failures: retry, next: .scheduled, retry: retry, retryMax: 3, retryInMs: delay))
            // The bottom rule holds still meanwhile: the retry is coming.
            #expect(h.advance(by: Int64(delay) - 1).isEmpty)
            let now = h.now + 1
            let recent = ([started] + [now]).filter { now - $0 < 1000 }.count
            #expect(
                h.advance(by: 1).logs == [
                    LogEntry(
                        .loadMoreRetryStarted,
                        [
                            "page": 2, "trigger": "retry", "attempt": .int(retry + 1), "retry": .int(retry),
                            "perSecond": .int(h.session.controller.loads.bottom.inFlight!.recentStarts.count),
                        ]),
                    LogEntry(
                        .loadMoreStarted, ["page": 2, "trigger": "retry", "latencyMs": 100, "distanceToBottom": 50]),
                ])
            #expect(h.session.controller.loads.bottom.inFlight!.recentStarts.count >= recent)
            started = now
        }
        #expect(
            h.advance(by: 100).logs == [
                LogEntry(.loadMoreFailed, ["page": 2, "reason": "simulated failure"]),
                LogEntry(.loadMoreGaveUp, ["page": 2, "failures": 4, "retries": 3]),
            ])
        #expect(h.lastState.loadFailure == LoadFailureState(page: 2, failures: 4, next: .gaveUp, retryMax: 3))
        #expect(h.timers.isEmpty)
        // After giving up, the bottom rule is held back (said once) until a person asks.
        h.scroll(y: 0)
        #expect(
            h.scroll(y: Self.atBottom).logs == [
                LogEntry(.reachedBottom, geometrySeq: 3, ["distanceToBottom": 50]),
                LogEntry(.loadMoreSuppressed, geometrySeq: 3, ["trigger": "bottom", "reason": "gaveUp", "page": 2]),
            ])
        h.scroll(y: 0)
        #expect(h.scroll(y: Self.atBottom).logs == [LogEntry(.reachedBottom, geometrySeq: 5, ["distanceToBottom": 50])])
        // Retry: a fresh budget of automatic retries.
        #expect(h.send(.loadMoreRequested).names == [.loadMoreRetryStarted, .loadMoreStarted])
        #expect(h.advance(by: 100).names == [.loadMoreFailed, .loadMoreRetryScheduled])
        #expect(h.lastState.loadFailure?.retry == 1)
    }

    @Test func aRetryThatSucceedsLandsThePageAndClearsTheFailure() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 100])
        h.scroll(y: Self.atBottom)
        h.advance(by: 100)
        h.send(.configReceived(["failureRate": 0]))
        let landed = h.advance(by: 200)
        #expect(
            landed.names == [.loadMoreRetryStarted, .loadMoreStarted, .loadMoreFinished])
        #expect(landed.itemsMessages.map(\.items) == [syntheticItems(30..<50)])
        #expect(h.session.controller.loads.bottom == .idle)
        #expect(h.lastState.loadFailure == nil)
    }

    /// The countdown in `state` counts from the event that made the state.
    @Test func stateCountsTheRetryDown() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 1000])
        h.scroll(y: Self.atBottom)
        let delay = Self.nextDelay(h, ceiling: 1000)
        h.advance(by: 100)
        #expect(h.lastState.loadFailure?.retryInMs == delay)
        h.advance(by: 30)
        h.scroll(y: Self.atBottom - 1)
        #expect(h.lastState.loadFailure?.retryInMs == delay - 30)
    }

    @Test func pressingLoadMoreDuringAScheduledRetryRetriesAtOnce() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 1000])
        h.scroll(y: Self.atBottom)
        h.advance(by: 100)
        let token = h.session.nextToken - 1
        let effects = h.send(.loadMoreRequested)
        #expect(
            Array(effects.prefix(3)) == [
                .cancel(.loadRetry(token)),
                .log(LogEntry(.loadMoreRetryCancelled, ["page": 2, "retry": 1, "reason": "manualLoad"])),
                .log(LogEntry(.loadMoreRetryStarted, ["page": 2, "trigger": "manual", "attempt": 2, "perSecond": 2])),
            ])
        #expect(effects.names.last == .loadMoreStarted)
        #expect(h.timers.map(\.id) == [.pageLoad(token + 1)])
    }

    @Test func aResetCancelsTheScheduledRetry() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100])
        h.scroll(y: Self.atBottom)
        h.advance(by: 100)
        let token = h.session.nextToken - 1
        let effects = h.send(.resetRequested)
        #expect(effects.contains(.cancel(.loadRetry(token))))
        #expect(
            effects.logs.prefix(2) == [
                LogEntry(.sessionReset, ["replaced": 30]),
                LogEntry(.loadMoreRetryCancelled, ["page": 2, "retry": 1, "reason": "reset"]),
            ])
        #expect(h.session.controller.loads.bottom == .idle)
        #expect(h.timers.isEmpty)
    }

    /// `playground` loads nothing while refreshing: a retry that falls due then waits a fresh delay.
    @Test func aRetryDueDuringARefreshWaitsAgain() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 100, "refreshLatencyMs": 5000])
        h.scroll(y: Self.atBottom)
        h.advance(by: 100)
        h.send(.refreshRequested)
        let delay = Self.nextDelay(h, ceiling: 100)
        let token = h.session.nextToken
        #expect(
            h.advance(by: 100) == [
                .log(LogEntry(.loadMoreSuppressed, ["trigger": "retry", "reason": "refreshing"])),
                .schedule(.loadRetry(token), afterMilliseconds: delay),
                .log(
                    LogEntry(
                        .loadMoreRetryScheduled,
                        ["page": 2, "retry": 1, "retryMax": 5, "delayMs": .int(delay), "failures": 1])),
                .send(.state(h.lastState)),
            ])
    }

    @Test func changingThePolicyDecidesAgainAboutTheFailureOnShow() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 1000])
        h.scroll(y: Self.atBottom)
        h.advance(by: 100)
        let token = h.session.nextToken - 1
        #expect(
            h.send(.configReceived(["retryPolicy": "manual"])) == [
                .cancel(.loadRetry(token)),
                .log(LogEntry(.loadMoreRetryCancelled, ["page": 2, "retry": 1, "reason": "retryPolicyChanged"])),
                .log(LogEntry(.configChanged, ["changed": ["retryPolicy": "manual"]])),
                .send(.state(h.lastState)),
            ])
        #expect(h.lastState.loadFailure == LoadFailureState(page: 2, failures: 1, next: .manual))
        #expect(h.timers.isEmpty)
        h.send(.configReceived(["retryPolicy": "none"]))
        #expect(h.lastState.loadFailure == LoadFailureState(page: 2, failures: 1, next: .none))
        #expect(h.send(.configReceived(["retryPolicy": "backoff"])).names == [.loadMoreRetryScheduled, .configChanged])
        // The feed ending under it abandons the retry.
        #expect(
            h.send(.configReceived(["maxItems": 30])).logs == [
                LogEntry(.loadMoreRetryCancelled, ["page": 2, "retry": 1, "reason": "feedExhausted"]),
                LogEntry(.configChanged, ["changed": ["maxItems": 30]]),
            ])
        #expect(h.session.controller.loads.bottom == .idle)
        #expect(h.timers.isEmpty)
    }

    /// `refreshable` (edge-triggered, `manual` by default): a user resting at the bottom after a failure
    /// gets nothing more — the stall — until they scroll away and back or press Retry.
    @Test func edgeTriggeredDesignsStallAtTheBottom() {
        var h = Harness(["preset": "refreshable", "failureRate": 1, "loadLatencyMs": 100])
        h.scroll(y: Self.atBottom)
        h.advance(by: 100)
        #expect(h.lastState.loadFailure == LoadFailureState(page: 2, failures: 1, next: .manual))
        for _ in 0..<60 {
            #expect(h.scroll(y: Self.atBottom).logs.isEmpty)
            h.advance(by: 16)
        }
        #expect(h.session.controller.loads.bottom.inFlight == nil)
        #expect(h.timers.isEmpty)
    }

    /// `refreshableLegacy` (level-triggered): every geometry at the bottom while not loading starts a load,
    /// so a finger resting at the bottom (a geometry per frame) retries in a loop; the log counts it.
    @Test func theLevelTriggeredDesignLoopsAndTheLogCountsRequestsPerSecond() {
        var h = Harness(["preset": "refreshableLegacy", "failureRate": 1, "loadLatencyMs": 100])
        var perSecond: [Int] = []
        for _ in 0..<(3000 / 16) {
            let effects = h.scroll(y: Self.atBottom) + h.advance(by: 16)
            perSecond += effects.logs.filter { $0.name == .loadMoreRetryStarted }.map {
                Int($0.data["perSecond"]!.number!)
            }
        }
        // A load every 112 ms (100 ms latency, then the next frame): 9 a second.
        #expect(perSecond.max() == 9)
        #expect(perSecond.count == 26)
        #expect(h.loggedNames.filter { $0 == .loadMoreStarted }.count == 27)
    }

    /// The same finger under `backoff`: the level rule waits for each retry; at most 2 loads a second.
    @Test func backoffStopsTheLevelTriggeredLoop() {
        var h = Harness([
            "preset": "refreshableLegacy", "failureRate": 1, "loadLatencyMs": 100, "retryPolicy": "backoff",
        ])
        var perSecond: [Int] = []
        for _ in 0..<(3000 / 16) {
            let effects = h.scroll(y: Self.atBottom) + h.advance(by: 16)
            perSecond += effects.logs.filter { $0.name == .loadMoreRetryStarted }.map {
                Int($0.data["perSecond"]!.number!)
            }
        }
        #expect(perSecond.max()! <= 2)
        // Each scheduled retry holds the rule back once, and says so once.
        #expect(
            h.logged.filter { $0.entry.name == .loadMoreSuppressed && $0.entry.data["reason"] == "retryScheduled" }
                .count == h.loggedNames.filter { $0 == .loadMoreRetryScheduled }.count)
    }

    @Test func noneOffersNoRetryButAPersonCanStillLoad() {
        var h = Harness(["failureRate": 1, "loadLatencyMs": 100, "retryPolicy": "none"])
        h.scroll(y: Self.atBottom)
        #expect(h.advance(by: 100).names == [.loadMoreFailed])
        #expect(h.lastState.loadFailure == LoadFailureState(page: 2, failures: 1, next: .none))
        #expect(h.timers.isEmpty)
        #expect(h.send(.loadMoreRequested).names == [.loadMoreRetryStarted, .loadMoreStarted])
    }

    /// The figure: failure rate 0.5, a user resting at the bottom of content shorter than the viewport (the
    /// page reports a geometry only when its content changes). `playground` keeps loading until the feed ends, with no
    /// input from the user and never more than one request in flight.
    @Test func playgroundLoadsToTheEndOfTheFeedThroughFailuresWithOneRequestInFlight() {
        let settings: [String: JSONValue] = [
            "failureRate": 0.5, "initialCount": 3, "pageSize": 2, "maxItems": 21, "loadLatencyMs": 100,
            "retryBaseMs": 200, "retryMaxMs": 2000, "seed": 4,
        ]
        var h = Harness(settings)
        var inFlight = 0
        var most = 0
        var shown = h.session.window.items.count
        func count(_ effects: [SessionEffect]) {
            for name in effects.names {
                if name == .loadMoreStarted { inFlight += 1 }
                if [.loadMoreFinished, .loadMoreFailed, .loadMoreCancelled].contains(name) { inFlight -= 1 }
                most = max(most, inFlight)
            }
        }
        count(h.scroll(y: 0, content: 3 * 80, container: 2000))
        for _ in 0..<2000 {
            count(h.advance(by: 10))
            // The page reports its new content size, nothing else: the user does not move.
            if h.session.window.items.count != shown {
                shown = h.session.window.items.count
                count(h.scroll(y: 0, content: Double(shown) * 80, container: 2000))
            }
        }
        #expect(h.session.window.items.count == 21)
        #expect(!h.session.sourceHasMore)
        #expect(most == 1)
        #expect(h.session.controller.loads.bottom == .exhausted)
        let names = h.loggedNames
        #expect(names.count { $0 == .loadMoreFailed } >= 3)
        #expect(names.count { $0 == .loadMoreRetryStarted } == names.count { $0 == .loadMoreFailed })
        #expect(!names.contains(.loadMoreGaveUp))
        #expect(names.count { $0 == .loadMoreFinished } == 9)

        // The same session under `manual` stalls at the first failure.
        var stalled = Harness(settings.merging(["retryPolicy": "manual"]) { $1 })
        shown = stalled.session.window.items.count
        stalled.scroll(y: 0, content: 3 * 80, container: 2000)
        for _ in 0..<2000 {
            stalled.advance(by: 10)
            if stalled.session.window.items.count != shown {
                shown = stalled.session.window.items.count
                stalled.scroll(y: 0, content: Double(shown) * 80, container: 2000)
            }
        }
        #expect(stalled.session.window.items.count < 21)
        #expect(stalled.session.controller.loads.bottom.failure?.next == .manual)
        #expect(stalled.timers.isEmpty)
    }

    /// Retries are decided by the reducer and their timers are recorded: a replay reproduces them.
    @Test func aTraceWithRetriesReplaysToTheSameDecisions() {
        let settings: JSONValue = ["failureRate": 1, "loadLatencyMs": 100, "retryBaseMs": 100, "retryMax": 3]
        var h = Harness(settings.object!)
        var lines: [Trace.Line] = [
            .input(t: 0, text: JSONValue.object(["type": "hello", "version": 1, "config": settings]).jsonBytes)
        ]
        var seq = 0
        var decisions: [TimedDecision] = h.logged.map { TimedDecision(t: $0.time, entry: $0.entry) }
        for step in 0..<300 {
            let before = h.logged.count
            if step % 25 == 0 {
                seq += 1
                let geometry = JSONValue.object([
                    "type": "geometry", "seq": .int(seq), "t": 0, "phase": "idle",
                    "contentOffset": ["x": 0, "y": .number(Self.atBottom)],
                    "contentSize": ["width": 400, "height": 2000], "containerSize": ["width": 400, "height": 800],
                ])
                lines.append(.input(t: h.now, text: geometry.jsonBytes))
                _ = h.scroll(y: Self.atBottom)
            }
            // The timers that fire, recorded as the server records them (none both starts and fires within
            // one step: every delay here is at least 50 ms).
            let due = h.timers.filter { $0.due <= h.now + 10 }.sorted { $0.due < $1.due }
            h.advance(by: 10)
            lines += due.map { .timer(t: $0.due, $0.id) }
            decisions += h.logged[before...].map { TimedDecision(t: $0.time, entry: $0.entry) }
        }
        let header = Trace.Header(
            session: "s1", server: "test", config: ScrollConfig(), source: .synthetic, maxMessageBytes: 65536)
        let replayed = Replay().run(Trace(header: header, lines: lines))
        #expect(decisions.map(\.entry.name).contains(.loadMoreRetryStarted))
        #expect(decisions.map(\.entry.name).contains(.loadMoreGaveUp))
        #expect(replayed.map(\.entry) == decisions.map(\.entry))
    }
}

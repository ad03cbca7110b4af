import Testing

@testable import ScrollCore

/// Latency, jitter and failure rate come from the config and the seeded generator.
struct LatencyAndFailureTests {
    @Test func failureRateOneLogsLoadMoreFailedLeavesTheItemsAndALaterTriggerRetries() {
        var h = Harness(["failureRate": 1, "retryPolicy": "manual"])
        h.scroll(y: 1150)
        let loading = h.lastState
        #expect(
            h.advance(by: 600) == [
                .log(LogEntry(.loadMoreFailed, ["page": 2, "reason": "simulated failure"])),
                .send(
                    .state(
                        loading.with {
                            $0.loadingNextPage = false
                            $0.indicator.bottomVisible = false
                            $0.loadFailure = LoadFailureState(page: 2, failures: 1, next: .manual)
                        })),
            ])
        #expect(h.session.window.items == syntheticItems(0..<30))
        #expect(h.session.rev == 1)
        #expect(h.session.window.cursor == 30)
        // A later trigger retries the same page (and fails again at rate 1).
        #expect(
            h.send(.loadMoreRequested).logs == [
                LogEntry(.loadMoreRetryStarted, ["page": 2, "trigger": "manual", "attempt": 2, "perSecond": 2]),
                LogEntry(.loadMoreStarted, ["page": 2, "trigger": "manual", "latencyMs": 600, "distanceToBottom": 50]),
            ])
        #expect(h.advance(by: 600).names == [.loadMoreFailed])
        // With failures off, the retry lands page 2.
        h.send(.configReceived(["failureRate": 0]))
        h.send(.loadMoreRequested)
        #expect(
            h.advance(by: 600).itemsMessages == [
                ItemsMessage(op: .append, rev: 2, items: syntheticItems(30..<50), total: 50, hasMore: true)
            ])
    }

    @Test func failedRefreshLeavesTheItems() {
        var h = Harness(["failureRate": 1])
        h.send(.refreshRequested)
        let refreshing = h.lastState
        #expect(
            h.advance(by: 1200) == [
                .log(LogEntry(.refreshFailed, ["reason": "simulated failure"])),
                .send(
                    .state(
                        refreshing.with {
                            $0.refreshing = false
                            $0.indicator = pullIndicator(progress: 0)
                        })),
            ])
        #expect(h.session.window.items == syntheticItems(0..<30))
        #expect(!h.session.controller.refresh.isInFlight)
    }

    @Test func failureRateZeroNeverFails() {
        var h = Harness(["maxItems": 0, "pageSize": 1])
        for _ in 0..<200 {
            h.send(.loadMoreRequested)
            h.advance(by: 600)
        }
        #expect(!h.loggedNames.contains(.loadMoreFailed))
        #expect(h.session.window.items.count == 230)
    }

    @Test func failureRateIsAProbability() {
        var h = Harness(["maxItems": 0, "pageSize": 1, "failureRate": 0.25, "seed": 3])
        for _ in 0..<400 {
            h.send(.loadMoreRequested)
            h.advance(by: 600)
        }
        let failures = h.loggedNames.filter { $0 == .loadMoreFailed }.count
        #expect((60...140).contains(failures), "\(failures) of 400 failed at rate 0.25")
        #expect(h.session.window.items.count == 30 + 400 - failures)
    }

    /// Each latency is `base ± jitterMs`, and the load completes exactly then.
    @Test func jitterStaysWithinItsBound() {
        var h = Harness(["maxItems": 0, "pageSize": 1, "jitterMs": 100])
        var latencies: [Int] = []
        for _ in 0..<300 {
            let started = h.send(.loadMoreRequested)
            guard case .number(let value)? = started.logs.first?.data["latencyMs"] else {
                Issue.record("no latency in \(started)")
                return
            }
            let latency = Int(value)
            latencies.append(latency)
            #expect(
                started.contains(
                    .schedule(.pageLoad(h.session.runtime.loads.bottom!), afterMilliseconds: latency)))
            #expect(h.advance(by: Int64(latency) - 1) == [])
            #expect(h.advance(by: 1).names == [.loadMoreFinished])
        }
        #expect(latencies.allSatisfy { (500...700).contains($0) })
        // It really varies, across (nearly) the whole range.
        #expect(Set(latencies).count > 100)
        #expect(latencies.min()! < 510 && latencies.max()! > 690)
    }

    @Test func jitterNeverMakesALatencyNegative() {
        var h = Harness(["maxItems": 0, "pageSize": 1, "loadLatencyMs": 20, "jitterMs": 100])
        var latencies: [Int] = []
        for _ in 0..<200 {
            let started = h.send(.loadMoreRequested)
            latencies.append(Int(started.logs.first!.data["latencyMs"]!.number!))
            h.advance(by: 200)
        }
        #expect(latencies.allSatisfy { (0...120).contains($0) })
        #expect(latencies.contains(0))
    }

    /// One scripted session: scrolling, pulls, manual triggers, and time passing.
    static func script(seed: Int, preset: Preset = .playground) -> (effects: [SessionEffect], session: SessionState) {
        var h = Harness([
            "preset": .string(preset.rawValue), "seed": .int(seed), "jitterMs": 300, "failureRate": 0.4, "pageSize": 7,
            "compare": true,
        ])
        var effects = h.opening
        for round in 0..<12 {
            let content = 2000 + Double(h.session.window.items.count - 30) * 80
            effects += h.scroll(y: content - 800 - Double(round % 3) * 20, content: content)
            effects += h.advance(by: 250)
            effects += h.scroll(y: -90, content: content, phase: .interacting)
            effects += h.scroll(y: -90, content: content, phase: .idle)
            effects += h.send(round.isMultiple(of: 2) ? .loadMoreRequested : .refreshRequested)
            effects += h.advance(by: 700)
        }
        effects += h.advance(by: 5000)
        return (effects, h.session)
    }

    @Test(arguments: Preset.allCases)
    func sameSeedAndInputsGiveTheIdenticalEventSequence(preset: Preset) {
        let first = Self.script(seed: 7, preset: preset)
        let second = Self.script(seed: 7, preset: preset)
        #expect(first.effects == second.effects)
        #expect(first.session == second.session)
        // The seed matters: another one draws other latencies and failures.
        #expect(Self.script(seed: 8, preset: preset).effects != first.effects)
    }
}

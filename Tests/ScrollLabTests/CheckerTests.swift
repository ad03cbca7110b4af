import ScrollCore
import ScrollLab
import Testing

/// The checker against a bug put in on purpose, and against the designs' known pitfalls.
struct CheckerTests {
    /// ScrollCore with a bug: every geometry that finds a page load in flight starts another one.
    static let doubleLoader: LabReducer = { state, input, now in
        var effects = LabSession.scrollCore(&state, input, now)
        if case .input(.message(.success(.geometry))) = input, state.loadingNextPage {
            // A second landing in the session's one timer queue, as an executor that started a load twice would.
            let timer = TimerID.pageLoad(10_000 + state.nextToken)
            state.runtime.schedule(timer, after: 50, now: now)
            effects.append(.schedule(timer, afterMilliseconds: 50))
        }
        return effects
    }

    @Test func anInjectedDoubleLoadIsFoundAndShrunkToAFewFrames() throws {
        let result = Checker(seed: 1, scenarios: 50, presets: [.playground], reducer: Self.doubleLoader)
            .check(.playground)
        let finding = try #require(result.findings.first { $0.property == .singleFlight })
        #expect(finding.frames <= 3)
        #expect(finding.scenario.steps.count <= 2)
        #expect(finding.violation.detail == "2 page loads in flight")
    }

    @Test func scrollCoreItselfHasNoDoubleLoad() {
        let result = Checker(seed: 1, scenarios: 50, presets: [.playground]).check(.playground)
        #expect(result.outcome(.singleFlight) == .pass)
    }

    @Test func customScrollViewIsFoundStuckShortOfTheEndAndTheTraceReplays() throws {
        let result = Checker(seed: 1, scenarios: 300).check(.customScrollView)
        let finding = try #require(result.findings.first { $0.property == .seesTheEnd })
        #expect(finding.frames <= 3)
        #expect(finding.scenario.layout.endShortfall == 0.4)
        // The trace replays to exactly the decisions it recorded.
        let text = finding.trace.jsonLines
        let trace = try Trace.parse(text)
        #expect(Replay().run(trace) == trace.recordedDecisions)
        #expect(!trace.recordedDecisions.contains { $0.entry.name == .loadMoreStarted })
    }

    @Test func theLegacyDesignIsFoundAskingAgainWhileItsPageLoads() throws {
        let result = Checker(seed: 1, scenarios: 300).check(.refreshableLegacy)
        let finding = try #require(result.findings.first { $0.property == .requestedOnce })
        #expect(finding.frames <= 30)
        #expect(result.outcome(.noStall) == .pass)
    }

    /// The recommended design holds every property the checker knows.
    @Test func playgroundPassesEveryProperty() {
        for seed in [1, 2, 3] as [UInt64] {
            let result = Checker(seed: seed, scenarios: 300).check(.playground)
            let failed = Property.allCases.filter { result.outcome($0) == .fail }
            #expect(failed == [], "seed \(seed): \(result.findings.map(\.violation))")
        }
    }

    @Test func theSameSeedFindsTheSameMinimalScenarios() {
        let first = Checker(seed: 7, scenarios: 40).check(.refreshable)
        let second = Checker(seed: 7, scenarios: 40).check(.refreshable)
        #expect(first == second)
    }
}

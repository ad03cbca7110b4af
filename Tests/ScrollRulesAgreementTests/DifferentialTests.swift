import Foundation
import ScrollCore
import ScrollLab
import ScrollRulesTestSupport
import Testing

@testable import ScrollRules

/// The session holds a `FeedController` and asks it with fine events (its own timers, what a bounded window
/// shows, holds during a jump); an app drives one with the public calls and knows less (`tick` when a delay
/// passes, the ends of its feed after the fact). This checks that the app is told the same: the same loads
/// and refreshes on the same geometry, the same cancels and the same retry schedule, on every example trace
/// and on a sample of the lab's random scenarios across the presets.
struct DifferentialTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Scenarios per preset: 7 presets × 40 = 280 in all (a few seconds); 10 each under a sanitizer. One
    /// machine decides for both sides, so what is left to see is the public calls' coarser view of the
    /// feed, which the traces and a sample of every preset's settings and gestures exercise.
    static let scenariosPerPreset = SanitizerRun.isActive ? 10 : 40

    @Test func everyExampleTraceDecidesTheSame() throws {
        let folder = Self.root.appendingPathComponent("Examples/traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
            .sorted()
        #expect(names.count >= 18)
        var decisions = 0
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let differential = Self.replay(try Trace.parse(text))
            #expect(differential.mismatches.isEmpty, "\(name): \(differential.mismatches.prefix(3))")
            decisions += differential.decisions
        }
        print("differential: \(names.count) traces, \(decisions) decisions agree")
    }

    @Test(.serialized, arguments: Preset.allCases)
    func randomScenariosDecideTheSame(preset: Preset) async throws {
        let (decisions, failures) = try await onOwnThread { () -> (Int, [String]) in
            var decisions = 0
            var failures: [String] = []
            for index in 0..<Self.scenariosPerPreset {
                // Every fourth scenario moves like an iPhone (bounces past both ends), the rest like a browser:
                // both kinds of geometry, at a fifth of the cost of the iOS model's long coasts for the rest.
                let physics: JSONValue = .string(index % 4 == 0 ? "ios" : "browser")
                let scenario = Scenario.random(
                    preset: preset, seed: SeededGenerator.mix(7, index), fixed: ["physics": physics])
                let box = DifferentialBox()
                _ = CheckRun(scenario, reducer: box.reducer)
                let differential = box.differential.withLock { $0 }
                decisions += differential.decisions
                if let first = differential.mismatches.first, failures.count < 3 {
                    failures.append("scenario \(index) \(scenario): \(first)")
                }
            }
            return (decisions, failures)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        print("differential: \(preset.rawValue): \(Self.scenariosPerPreset) scenarios, \(decisions) decisions agree")
    }

    /// The comparison sees a difference when there is one: a session whose controller forgets to re-arm its
    /// bottom rule when a page lands stops loading where the app's controller loads on.
    @Test func aSessionThatDoesNotReArmDisagrees() {
        let forgetful: LabReducer = { state, input, now in
            let effects = LabSession.scrollCore(&state, input, now)
            state.controller.memory.contentLengthAtLanding = nil
            return effects
        }
        let disagreeing = (0..<100).first { index in
            let box = DifferentialBox(session: forgetful)
            _ = CheckRun(
                Scenario.random(preset: .playground, seed: SeededGenerator.mix(7, index)), reducer: box.reducer)
            return !box.differential.withLock { $0.mismatches.isEmpty }
        }
        #expect(disagreeing != nil)
    }

    /// A trace replayed as the server ran it (the recorded timers where it recorded them), with the controller beside.
    static func replay(_ trace: Trace) -> Differential {
        var state = SessionState(
            id: trace.header.session, resumeToken: "replay", config: trace.header.config, source: trace.header.source,
            itemCap: trace.header.itemCap)
        var differential = Differential()
        var pending: Set<TimerID> = []
        func step(_ input: LabInput, at t: Int64, _ run: (inout SessionState) -> [SessionEffect]) {
            let before = state
            let effects = run(&state)
            for effect in effects {
                if case .schedule(let timer, _) = effect { pending.insert(timer) }
                if case .cancel(let timer) = effect { pending.remove(timer) }
            }
            differential.observe(before: before, input, now: t, effects: effects, after: state)
        }
        let limit = trace.header.maxMessageBytes
        for line in trace.lines {
            switch line {
            case .input(let t, let text):
                let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(text) }
                step(.input(.message(decoded)), at: t) { $0.handle(.message(decoded), now: t, maxMessageBytes: limit) }
            case .timer(let t, let timer):
                guard pending.remove(timer) != nil else { continue }
                step(.timer(timer), at: t) { $0.reduce(.timerFired(timer), now: t) }
            case .violation(let t, let kind):
                step(.input(.violation(kind)), at: t) { $0.handle(.violation(kind), now: t, maxMessageBytes: limit) }
            case .closed(let t, let code, let resumable):
                let input = SessionInput.closed(code: code, resumable: resumable)
                step(.input(input), at: t) { $0.handle(input, now: t, maxMessageBytes: limit) }
            case .decision:
                continue
            }
        }
        return differential
    }
}

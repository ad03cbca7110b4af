import Foundation
import ScrollCore
import ScrollLab
import ScrollRulesTestSupport
import Testing

/// The app's executor checked by everything that checks the server's: `FeedModel` itself, on a manual clock,
/// through every example trace and 504 of the lab's random scenarios (every preset, both physics), makes the
/// same decisions at the same virtual times as the playground's session.
@Suite(.serialized)
struct FeedModelAgreementTests {
    /// 7 presets × 72 = 504 scenarios; 12 each under a sanitizer.
    static let scenariosPerPreset = SanitizerRun.isActive ? 12 : 72

    /// A trace run as the lab runs a session: its inputs at their times, the session's timers when due (so
    /// loads land after the latencies the trace's seed draws).
    static func record(_ trace: Trace) -> FeedModelAgreement {
        var state = SessionState(
            id: trace.header.session, resumeToken: "replay", config: trace.header.config, source: trace.header.source,
            itemCap: trace.header.itemCap)
        var agreement = FeedModelAgreement()
        func step(_ input: LabInput, at t: Int64) {
            let before = state
            let effects = LabSession.scrollCore(&state, input, t)
            agreement.observe(before: before, input, now: t, effects: effects, after: state)
        }
        func fireDue(upTo t: Int64) {
            while let next = state.nextTimer, next.due <= t {
                step(.timer(next.id), at: next.due)
            }
        }
        var last: Int64 = 0
        for line in trace.lines {
            switch line {
            case .input(let t, let text):
                fireDue(upTo: t)
                let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(text) }
                step(.input(.message(decoded)), at: t)
                last = t
            case .violation(let t, let kind):
                fireDue(upTo: t)
                step(.input(.violation(kind)), at: t)
                last = t
            case .timer, .closed, .decision:
                continue
            }
        }
        // What is in flight lands; the message clock stops with the trace.
        state.runtime.cancel(.newMessage)
        fireDue(upTo: last + 60_000)
        return agreement
    }

    @Test func everyExampleTraceDecidesTheSameInTheApp() async throws {
        let folder = repositoryRoot.appendingPathComponent("Examples/traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
            .sorted()
        #expect(names.count >= 18)
        var decisions = 0
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let agreement = Self.record(try Trace.parse(text))
            let got = await agreement.runModel()
            #expect(
                FeedModelAgreement.firstDifference(agreement.expected, got) == nil,
                "\(name): \(FeedModelAgreement.firstDifference(agreement.expected, got) ?? "")")
            decisions += got.count
        }
        print("FeedModel agreement: \(names.count) traces, \(decisions) decisions at the same times")
    }

    /// The comparison sees a difference when there is one: a model that draws no jitter retries at other times.
    @Test func aModelThatRetriesAtOtherTimesDisagrees() async throws {
        let file = repositoryRoot.appendingPathComponent("Examples/traces/failure-at-the-bottom.jsonl")
        let agreement = Self.record(try Trace.parse(String(contentsOf: file, encoding: .utf8)))
        #expect(FeedModelAgreement.firstDifference(agreement.expected, await agreement.runModel()) == nil)
        #expect(
            FeedModelAgreement.firstDifference(agreement.expected, await agreement.runModel(drawingJitter: false))
                != nil)
    }

    @Test(arguments: Preset.allCases)
    func randomScenariosDecideTheSameInTheApp(preset: Preset) async throws {
        var decisions = 0
        var failures: [String] = []
        for index in 0..<Self.scenariosPerPreset {
            // Every other scenario moves like an iPhone (bounces past both ends), the rest like a browser.
            let physics: JSONValue = .string(index % 2 == 0 ? "ios" : "browser")
            let scenario = Scenario.random(
                preset: preset, seed: SeededGenerator.mix(11, index), fixed: ["physics": physics])
            let agreement = try await onOwnThread { () -> FeedModelAgreement in
                let box = AgreementBox()
                _ = CheckRun(scenario, reducer: box.reducer)
                return box.agreement.withLock { $0 }
            }
            let got = await agreement.runModel()
            decisions += got.count
            if let difference = FeedModelAgreement.firstDifference(agreement.expected, got), failures.count < 3 {
                failures.append("scenario \(index) \(scenario): \(difference)")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        print("FeedModel agreement: \(preset.rawValue): \(Self.scenariosPerPreset) scenarios, \(decisions) decisions")
    }
}

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

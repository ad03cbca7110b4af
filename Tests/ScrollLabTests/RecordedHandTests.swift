import Foundation
import ScrollCore
import ScrollLab
import Testing

/// The hand taken out of a recording is the hand: replayed under its own settings it makes the recording's
/// loads and refreshes, and a synthetic hand survives the trip through a trace.
struct RecordedHandTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/traces").standardized

    static func trace(_ name: String) throws -> Trace {
        try Trace.parse(String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
    }

    /// Every Examples/traces trace recorded under `ios` physics, and the SwiftUI recorder's.
    static var iosTraces: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().filter { name in
            guard let trace = try? trace(name), let hand = try? RecordedHand(trace: trace) else { return false }
            return hand.physics == .ios || hand.origin == .swiftUI
        }
    }

    static func agreement(_ name: String) throws -> HandAgreement {
        let hand = try RecordedHand(trace: trace(name))
        let run = Simulation(hand: hand).run(hand: hand, record: true)
        return HandAgreement(
            recorded: hand.recordedDecisions, simulated: run.trace?.recordedDecisions ?? [],
            toleranceMs: hand.frameMs + 1)
    }

    @Test func ownSettingsReproduceTheRecordedLoadsAndRefreshes() throws {
        var same: [String] = []
        var differ: [String: String] = [:]
        for name in Self.iosTraces {
            let agreement = try Self.agreement(name)
            if let difference = agreement.firstDifference {
                differ[name] = difference
            } else {
                same.append(name)
            }
            print(
                "\(name): \(agreement.recorded.count) recorded, \(agreement.simulated.count) simulated: \(agreement.firstDifference ?? "same")"
            )
        }
        print("hands that reproduce their recording: \(same.count) of \(Self.iosTraces.count)")
        #expect(Self.iosTraces.count == 6)
        #expect(differ == [:])
    }

    /// The hand's actions in order, steps without any left out.
    static func actions(_ hand: RecordedHand) -> [RecordedHand.Action] {
        hand.steps.flatMap { $0.actions + $0.afterReport }
    }

    /// Whether two actions are the same within the stated tolerances: a finger's move within 1e-6 px, a
    /// release's speed within 1e-6 of it (and 1e-3 px/s), everything else exactly.
    static func same(_ a: RecordedHand.Action, _ b: RecordedHand.Action) -> Bool {
        switch (a, b) {
        case (.finger(let x), .finger(let y)): abs(x - y) <= 1e-6
        case (.lift(let x), .lift(let y)): abs(x - y) <= max(1e-3, abs(y) * 1e-6)
        default: a == b
        }
    }

    @Test func aScriptedHandSurvivesTheTripThroughATrace() throws {
        let perSecond = 1000.0 / 16
        let scenario = Scenario(
            settings: [
                "preset": "playground", "physics": "ios", "loadLatencyMs": 300, "refreshLatencyMs": 1200, "seed": 7,
            ],
            steps: [
                .pull(120), .drag(6, frames: 20), .fling(120), .pause(1000), .resize(700), .fling(-40),
                .switchPreset(.refreshable), .fling(90), .toEnd, .switchPreset(.playground), .drag(-3, frames: 5),
            ])
        let run = CheckRun(scenario, record: true)
        let hand = try RecordedHand(trace: #require(run.session.trace()))
        var expected: [RecordedHand.Action] = []
        // The finger's still frame before it lifts reports nothing: it is the lift's time, one frame later.
        expected += Array(repeating: .finger(-8), count: 15) + [.lift(velocity: 0)]
        expected += Array(repeating: .finger(6), count: 20) + [.lift(velocity: 6 * perSecond)]
        expected += Array(repeating: .finger(120), count: 3) + [.lift(velocity: 120 * perSecond)]
        expected += [.resize(700)]
        expected += Array(repeating: .finger(-40), count: 3) + [.lift(velocity: -40 * perSecond)]
        expected += [.message(["type": "config", "preset": "refreshable"])]
        expected += Array(repeating: .finger(90), count: 3) + [.lift(velocity: 90 * perSecond)]
        expected += [.jump(.end), .message(["type": "config", "preset": "playground"])]
        expected += Array(repeating: .finger(-3), count: 5) + [.lift(velocity: -3 * perSecond)]
        let actual = Self.actions(hand)
        #expect(actual.count == expected.count, "\(actual)")
        for (index, pair) in zip(actual, expected).enumerated() {
            #expect(Self.same(pair.0, pair.1), "action \(index + 1): extracted \(pair.0), scripted \(pair.1)")
        }
        #expect(hand.physics == .ios)
        #expect(hand.layout.containerHeight == 844)
        #expect(hand.frameMs == 16)
        let pullEnd = try #require(hand.steps.firstIndex { $0.actions.contains(.finger(6)) })
        let lift = try #require(
            hand.steps[..<pullEnd].last {
                ($0.actions + $0.afterReport).contains { if case .lift = $0 { true } else { false } }
            })
        let lastPull = try #require(hand.steps[..<pullEnd].last { $0.phase == .interacting })
        #expect(lift.t == lastPull.t + 16)
    }

    /// The browser's recordings, for the record: their hand replays the browser's scrolling as recorded (its
    /// momentum included), so loads that came at other moments differ (docs/lab.md says why, trace by trace).
    @Test func browserRecordingsAreCounted() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".jsonl") && !Self.iosTraces.contains($0) }.sorted()
        var same = 0
        for name in names {
            let agreement = try Self.agreement(name)
            if agreement.firstDifference == nil { same += 1 }
            print("browser \(name): \(agreement.firstDifference ?? "same")")
        }
        print("browser recordings whose hand reproduces their loads and refreshes: \(same) of \(names.count)")
        #expect(names.count == 18)
        #expect(same >= 13)
    }

    /// `check --gestures`: a recorded hand alone (no random scenario) finds the design's pitfall it shows,
    /// and is shrunk like a random scenario, to a shorter stroke.
    @Test func aRecordedHandJoinsTheCheckAndIsShrunk() throws {
        let hand = try RecordedHand(trace: Self.trace("check-ios-refreshOffsetObservable-indicatorConsistent.jsonl"))
        let scenario = Scenario(hand: hand)
        #expect(scenario.steps.contains { if case .stroke = $0 { true } else { false } })
        var checker = Checker(scenarios: 0, presets: [.refreshOffsetObservable, .playground])
        checker.hands = [scenario]
        let results = checker.run(threads: 1)
        #expect(results.map(\.scenarios) == [1, 1])
        #expect(results[0].outcome(.indicatorConsistent) == .fail)
        #expect(results[1].findings == [])
        let finding = try #require(results[0].findings.first { $0.property == .indicatorConsistent })
        let strokes = finding.scenario.steps.compactMap { if case .stroke(let moves, _) = $0 { moves } else { nil } }
        let recorded = scenario.steps.compactMap { if case .stroke(let moves, _) = $0 { moves } else { nil } }
        #expect(strokes.count <= recorded.count)
        #expect(strokes.map(\.count).reduce(0, +) <= recorded.map(\.count).reduce(0, +))
    }

    /// The scripted hand of the round trip as a scenario: its strokes are the scripted moves and releases.
    @Test func aHandBecomesTheScenarioItCameFrom() throws {
        let scripted: [Scenario.Step] = [.drag(6, frames: 4), .pause(1000), .fling(-40), .resize(700), .toEnd]
        let run = CheckRun(
            Scenario(settings: ["preset": "playground", "physics": "ios"], steps: scripted), record: true)
        let scenario = Scenario(hand: try RecordedHand(trace: #require(run.session.trace())))
        #expect(scenario.steps.count == 6)
        guard scenario.steps.count == 6 else { return }
        if case .stroke(let moves, let release) = scenario.steps[0] {
            #expect(moves == [6, 6, 6, 6])
            #expect(abs(release - 375) < 1e-3)
        } else {
            Issue.record("not a stroke: \(scenario.steps[0])")
        }
        if case .pause(let milliseconds) = scenario.steps[1] {
            // The recorded pause, from where the page came to rest: within a frame of the scripted second.
            #expect(abs(milliseconds - 1000) <= 16)
        } else {
            Issue.record("not a pause: \(scenario.steps[1])")
        }
        if case .stroke(let moves, let release) = scenario.steps[2] {
            #expect(moves == [-40, -40, -40])
            #expect(abs(release + 2500) < 1e-3)
        } else {
            Issue.record("not a stroke: \(scenario.steps[2])")
        }
        // The page's idle frame after the momentum is part of the recorded pause: a frame more each time.
        #expect(scenario.steps[3...].map(\.description) == ["pause 16 ms", "resize to 700 px", "to the end"])
    }
}

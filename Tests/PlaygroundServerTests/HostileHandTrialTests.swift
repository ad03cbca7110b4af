import Foundation
import ScrollCore
import ScrollLab
import Testing

@testable import PlaygroundServer

/// `tryHand` as a hostile client sends it (issue 42): nothing in the message or the trace may stop the server,
/// and one trial's work is bounded whatever the trace says.
struct HostileHandTrialTests {
    static let limits = HandTrial.Limits(maxLines: 100_000, maxItems: 10_000)

    /// The example trace's header and hello, then `lines`.
    static func trace(_ lines: [String]) -> [UInt8] {
        let example = String(decoding: HandTrialTests.trace, as: UTF8.self).split(separator: "\n").prefix(2)
        return Array((example + lines.map { Substring($0) }).joined(separator: "\n").utf8) + [0x0A]
    }

    /// A geometry input line.
    static func geometry(
        t: Int, offset: String = "0", content: String = "2000", container: String = "844", inset: String = "0",
        phase: String = "idle", seq: Int = 1
    ) -> String {
        #"{"kind":"input","message":{"containerSize":{"height":\#(container),"width":390},"#
            + #""contentInsets":{"bottom":\#(inset),"leading":0,"top":\#(inset),"trailing":0},"#
            + #""contentOffset":{"x":0,"y":\#(offset)},"contentSize":{"height":\#(content),"width":390},"#
            + #""phase":"\#(phase)","seq":\#(seq),"t":\#(t),"type":"geometry"},"t":\#(t)}"#
    }

    static func refusal(_ request: String, upload: [UInt8] = HandTrialTests.trace) -> ProtocolError? {
        let result = HandTrial.answer(upload: upload, request: Array(request.utf8), limits: limits)
        guard case .failure(let error) = result else { return nil }
        return error
    }

    /// Old main: "Double value cannot be converted to Int", and the process gone.
    @Test(arguments: [
        ("loadLatencyMs", "1e308"), ("retryBaseMs", "1e19"), ("loadLatencyMs", #""1e308""#),
        ("retryBaseMs", #""1e19""#), ("pageSize", "-1e308"), ("bottomThreshold", "1e308"),
        ("failureRate", #""nan""#), ("seed", "1e300"), ("jitterMs", #""inf""#),
    ])
    func aHugeSettingIsRefusedExactlyAsAConfigMessageRefusesIt(key: String, value: String) throws {
        let request = #"{"type":"tryHand","settings":{"\#(key)":\#(value)}}"#
        let error = try #require(Self.refusal(request), "accepted \(request)")
        // The same words a `config` message (and `--set`, from its text) get: one check, not two.
        let given = try JSONParser.parse(Array(value.utf8))
        let expected = try #require(ScrollConfig().refusal(key, given.string.map(ScrollConfig.value(ofText:)) ?? given))
        #expect(error.message == expected)
        #expect(error.code == .badMessage)
        #expect(error.field == key)
    }

    @Test func aHugePresetOrSettingsObjectIsRefused() {
        #expect(Self.refusal(#"{"type":"tryHand","preset":"nope"}"#)?.message.contains("preset") == true)
        let many = (0..<65).map { #""k\#($0)":1"# }.joined(separator: ",")
        #expect(Self.refusal(#"{"type":"tryHand","settings":{\#(many)}}"#)?.message.contains("at most 64") == true)
    }

    /// Old main: a precondition in `LabSession.send` (the lab wrote geometry it could not read back).
    @Test(arguments: [
        (Self.geometry(t: 0, offset: "1e308", content: "1e308", inset: "1e308"), 3, "contentInsets.top 1e+308"),
        (
            Self.geometry(t: 0, container: "0.0001"), 3,
            "containerSize.height 0.0001 is outside what the lab simulates (1…100000 px)"
        ),
        (Self.geometry(t: 0, content: "1e308"), 3, "contentSize.height 1e+308"),
        (Self.geometry(t: 0, offset: "-1e308"), 3, "contentOffset.y"),
        (Self.geometry(t: 0, inset: "1e308"), 3, "contentInsets"),
    ])
    func aGeometryTheLabCannotSimulateIsRefusedNamingItsLine(line: String, number: Int, field: String) throws {
        let upload = Self.trace([line, Self.geometry(t: 16, offset: "10", seq: 2)])
        let error = try #require(Self.refusal(#"{"type":"tryHand"}"#, upload: upload))
        #expect(error.message.hasPrefix("the trace gives no hand: line \(number): "), "\(error.message)")
        #expect(error.message.contains(field), "\(error.message)")
    }

    @Test func aHostileGeometryLaterInTheTraceIsNamedByItsLine() throws {
        var lines = (0..<5).map { Self.geometry(t: $0 * 16, offset: "\($0 * 10)", phase: "interacting", seq: $0 + 1) }
        lines.append(Self.geometry(t: 80, offset: "1e308", content: "1e308", phase: "interacting", seq: 6))
        let error = try #require(Self.refusal(#"{"type":"tryHand"}"#, upload: Self.trace(lines)))
        #expect(error.message.hasPrefix("the trace gives no hand: line 8: contentSize.height"), "\(error.message)")
    }

    /// Big but simulable: every frame's geometry still reads back, and the answer comes.
    @Test func theLargestSimulableGeometryRuns() throws {
        let lines = (0..<20).map {
            Self.geometry(
                t: $0 * 16, offset: $0 % 2 == 0 ? "1e9" : "-1e9", content: "1e9", container: "100000", inset: "100000",
                phase: $0 < 10 ? "interacting" : "decelerating", seq: $0 + 1)
        }
        let result = HandTrial.answer(
            upload: Self.trace(lines), request: Array(#"{"type":"tryHand"}"#.utf8), limits: Self.limits)
        #expect(throws: Never.self) { try result.get() }
    }

    /// A hand that asks for pages as fast as it can, each as large as a setting allows, on an endless feed.
    static func greedy(seconds: Int) -> [UInt8] {
        var lines = [
            #"{"kind":"input","message":{"type":"config","pageSize":500,"refreshCount":500,"loadLatencyMs":0,"#
                + #""refreshLatencyMs":0,"maxItems":0},"t":0}"#,
            Self.geometry(t: 0),
        ]
        for t in stride(from: 4, through: seconds * 1000, by: 4) {
            lines.append(#"{"kind":"input","message":{"type":"loadMore"},"t":\#(t)}"#)
            lines.append(#"{"kind":"input","message":{"type":"refresh"},"t":\#(t)}"#)
        }
        return trace(lines)
    }

    @Test func aTrialHoldsAtMostItsItemsWhateverItsHandAsks() throws {
        let limits = HandTrial.Limits(maxLines: 100_000, maxItems: 2_000)
        let answer = try HandTrial.answer(
            upload: Self.greedy(seconds: 4), request: Array(#"{"type":"tryHand"}"#.utf8), limits: limits
        ).get()
        let items = try #require(answer["report"]?["items"]?.number)
        #expect(items > 1_000)
        #expect(items <= 2_000)
    }

    @Test func aTrialRunsAtMostItsSimulatedSeconds() throws {
        let limits = HandTrial.Limits(maxLines: 100_000, maxItems: 1_000, maxSeconds: 2)
        let answer = try HandTrial.answer(
            upload: Self.greedy(seconds: 4), request: Array(#"{"type":"tryHand"}"#.utf8), limits: limits
        ).get()
        #expect(answer["seconds"] == .number(2))
    }

    /// The page went: the trial stops at the next simulated frame, not at the end of its run.
    @Test func aStoppedTrialEndsWithinAFrame() throws {
        var asked: [Int64] = []
        let cancelAt: Int64 = 1_000
        let result = HandTrial.run(
            upload: Self.greedy(seconds: 8), request: Array(#"{"type":"tryHand"}"#.utf8), limits: Self.limits
        ) { t in
            asked.append(t)
            return t >= cancelAt
        }
        guard case .failure(let error) = result else {
            Issue.record("a stopped trial answered")
            return
        }
        #expect(error == HandTrial.abandoned)
        // Asked at every frame (the page's 4 ms here), and nothing simulated after the first yes.
        let frames = zip(asked, asked.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        #expect(frames.max() ?? 0 <= 100)
        #expect(asked.last == asked.first(where: { $0 >= cancelAt }))
        #expect((asked.last ?? 0) - cancelAt <= 100)
    }
}

extension ScrollConfig {
    /// Why a `config` message with this one field is refused; nil when it is accepted.
    fileprivate func refusal(_ key: String, _ value: JSONValue) -> String? {
        var copy = self
        do {
            try copy.apply([key: value])
            return nil
        } catch {
            return error.description
        }
    }
}

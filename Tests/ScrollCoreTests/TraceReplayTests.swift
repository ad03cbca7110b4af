import ScrollCore
import Testing

/// Reading traces and replaying them on the virtual clock.
struct TraceReplayTests {
    static func header(_ configure: (inout ScrollConfig) -> Void = { _ in }) -> Trace.Header {
        var config = ScrollConfig()
        configure(&config)
        return Trace.Header(session: "s9", server: "test", config: config, source: .synthetic, maxMessageBytes: 1024)
    }

    static func geometry(seq: Int, offsetY: Double) -> [UInt8] {
        JSONValue.object([
            "type": "geometry", "seq": .int(seq), "t": 0, "phase": "idle",
            "contentOffset": ["x": 0, "y": .number(offsetY)],
            "contentSize": ["width": 390, "height": 3000], "containerSize": ["width": 390, "height": 700],
        ]).jsonBytes
    }

    static let hello = JSONValue.object(["type": "hello", "version": 1]).jsonBytes

    @Test func headerAndLinesRoundTripThroughText() throws {
        var header = Self.header { $0.pageSize = 7 }
        header.source = .list([FeedItem(id: "a", title: "A", extra: ["tag": "x"])])
        let lines: [Trace.Line] = [
            .input(t: 1, text: Self.hello), .input(t: 2, text: Array("{not json".utf8)), .timer(t: 3, .pageLoad(4)),
            .violation(t: 4, .binary), .closed(t: 5, code: nil, resumable: true),
            .decision(t: 6, LogEntry(.reachedBottom, geometrySeq: 2, ["distanceToBottom": 1.5])),
        ]
        let text = ([header.json.jsonString] + lines.map { $0.json.jsonString }).joined(separator: "\n") + "\n"
        let trace = try Trace.parse(text)
        #expect(trace == Trace(header: header, lines: lines))
    }

    @Test func unsetPullThresholdStaysThePresetDefault() throws {
        let trace = try Trace.parse(Self.header { $0.rules.preset = .refreshOffsetObservable }.json.jsonString)
        #expect(trace.header.config.rules.explicitPullThreshold == nil)
        #expect(trace.header.config.rules.pullThreshold == 100)
    }

    @Test func ownSettingsFollowTheRecordedTimers() {
        let trace = Trace(
            header: Self.header { $0.loadLatencyMs = 100 },
            lines: [
                .input(t: 0, text: Self.hello), .input(t: 10, text: Self.geometry(seq: 1, offsetY: 2290)),
                .timer(t: 130, .pageLoad(1)), .input(t: 500, text: Self.geometry(seq: 2, offsetY: 2290)),
            ])
        let finished = Replay().run(trace).first { $0.entry.name == .loadMoreFinished }
        #expect(finished?.t == 130)
    }

    @Test func overridesFireTimersOnTheVirtualClock() {
        let trace = Trace(
            header: Self.header { $0.loadLatencyMs = 100 },
            lines: [
                .input(t: 0, text: Self.hello), .input(t: 10, text: Self.geometry(seq: 1, offsetY: 2290)),
                .timer(t: 130, .pageLoad(1)), .input(t: 500, text: Self.geometry(seq: 2, offsetY: 2290)),
            ])
        let decisions = Replay(overrides: ["preset": "refreshable"]).run(trace)
        #expect(decisions.map(\.entry.name) == [.sessionOpened, .reachedBottom, .loadMoreStarted, .loadMoreFinished])
        #expect(decisions.last?.t == 110)
    }

    @Test func timersStillPendingAtTheEndFireWithOverrides() {
        let trace = Trace(
            header: Self.header { $0.loadLatencyMs = 100 },
            lines: [
                .input(t: 0, text: Self.hello), .input(t: 10, text: Self.geometry(seq: 1, offsetY: 2290)),
            ])
        #expect(Replay().run(trace).last?.entry.name == .loadMoreStarted)
        #expect(Replay(overrides: ["bottomThreshold": 60]).run(trace).last?.entry.name == .loadMoreFinished)
    }

    @Test func forcedSettingsSurviveLaterConfigMessages() {
        let config = JSONValue.object(["type": "config", "preset": "customScrollView"]).jsonBytes
        let trace = Trace(
            header: Self.header(),
            lines: [
                .input(t: 0, text: Self.hello), .input(t: 5, text: config),
                .input(t: 10, text: Self.geometry(seq: 1, offsetY: 2290)),
            ])
        let decisions = Replay(overrides: ["preset": "refreshable"]).run(trace)
        #expect(!decisions.contains { $0.entry.name == .configChanged })
        #expect(decisions.contains { $0.entry.name == .loadMoreStarted })
    }

    @Test func refusedInputsAndClosesAreDecisionsToo() {
        let trace = Trace(
            header: Self.header(),
            lines: [
                .input(t: 0, text: Self.hello), .input(t: 1, text: Array("{x".utf8)), .violation(t: 2, .tooLarge),
                .closed(t: 3, code: 1006, resumable: true),
            ])
        let decisions = Replay().run(trace).map(\.entry)
        #expect(decisions.dropFirst().map(\.name) == [.protocolError, .protocolError, .sessionClosed])
        #expect(decisions[2].data["message"] == "messages are limited to 1024 bytes")
        #expect(decisions[3].data == ["code": 1006, "resumable": true])
    }

    @Test(arguments: [
        ("{\"kind\":\"input\",\"t\":1}", "line 1"),
        (
            "{\"kind\":\"header\",\"format\":1,\"session\":\"s\",\"server\":\"v\",\"config\":{}}\n[1]",
            "line 2: expected a JSON object"
        ),
        (
            "{\"kind\":\"header\",\"format\":1,\"session\":\"s\",\"server\":\"v\",\"config\":{}}\n{\"kind\":\"timer\",\"t\":1,\"timer\":\"lunch\"}",
            "line 2"
        ),
        (
            "{\"kind\":\"header\",\"format\":1,\"session\":\"s\",\"server\":\"v\",\"config\":{}}\n{\"kind\":\"nap\",\"t\":1}",
            "unknown line kind"
        ),
    ])
    func badLinesNameTheirNumber(text: String, expected: String) {
        #expect(throws: TraceError.self) { try Trace.parse(text) }
        do {
            _ = try Trace.parse(text)
        } catch {
            #expect(error.description.contains(expected))
        }
    }
}

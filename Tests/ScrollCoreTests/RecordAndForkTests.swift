import Testing

@testable import ScrollCore

/// `hello.record`, `hello.fork`, a trace header's `recorder` and `fork`, and rebuilding a session from a trace.
struct RecordAndForkTests {
    func refusal(_ text: String) -> ProtocolError? {
        do {
            _ = try ClientMessage.decode(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func recordAndForkDecode() throws {
        let record = try ClientMessage.decode(
            Array(#"{"type":"hello","record":{"page":"http://app.test/inbox","name":"Inbox"}}"#.utf8))
        #expect(record == .hello(Hello(record: RecordingSource(page: "http://app.test/inbox", name: "Inbox"))))
        let fork = try ClientMessage.decode(
            Array(#"{"type":"hello","preset":"refreshable","fork":{"parent":"a.jsonl","at":500}}"#.utf8))
        #expect(
            fork == .hello(Hello(config: ["preset": "refreshable"], fork: ForkRequest(parent: "a.jsonl", at: 500))))
    }

    @Test(arguments: [
        (#"{"type":"hello","record":true}"#, #"field "record" must be an object"#),
        (#"{"type":"hello","record":{}}"#, #"missing field "record.page""#),
        (#"{"type":"hello","record":{"page":""}}"#, #"field "record.page" must be a non-empty string"#),
        (#"{"type":"hello","record":{"page":"x","name":7}}"#, #"field "record.name" must be a non-empty string"#),
        (#"{"type":"hello","fork":{"parent":"a.jsonl"}}"#, #"missing field "fork.at""#),
        (#"{"type":"hello","fork":{"parent":"a.jsonl","at":-1}}"#, #"field "fork.at" must be a non-negative integer"#),
        (#"{"type":"hello","fork":{"at":1}}"#, #"missing field "fork.parent""#),
        (
            #"{"type":"hello","resume":"abc","fork":{"parent":"a","at":1}}"#,
            "a fork opens a new session: it cannot also resume or record"
        ),
    ])
    func badRecordOrForkNamesTheField(text: String, message: String) {
        #expect(refusal(text) == ProtocolError(.badMessage, message))
    }

    @Test func aLongPageIsRefused() {
        let page = String(repeating: "a", count: RecordingSource.maxPageBytes + 1)
        #expect(
            refusal(#"{"type":"hello","record":{"page":"\#(page)"}}"#)
                == ProtocolError(.badMessage, #"field "record.page" must be at most 2048 bytes"#))
    }

    @Test func recorderAndForkRoundTripThroughTheHeader() throws {
        var header = TraceReplayTests.header()
        header.recorder = RecordingSource(page: "http://app.test/", name: "Inbox")
        header.fork = Trace.Fork(parent: "a.jsonl", parentSession: "s3", at: 500)
        #expect(try Trace.parse(header.json.jsonString).header == header)
    }

    @Test func rebuildStopsAtTheMomentWithTheTimersStillPending() throws {
        var header = TraceReplayTests.header { $0.loadLatencyMs = 300 }
        header.session = "s1"
        let lines: [Trace.Line] = [
            .input(t: 10, text: TraceReplayTests.hello),
            .input(t: 100, text: TraceReplayTests.geometry(seq: 1, offsetY: 2300)),
            .timer(t: 400, .pageLoad(1)),
        ]
        let trace = Trace(header: header, lines: lines)
        let rebuilt = Replay.rebuild(trace, through: 200, id: "s7", resumeToken: "tok")
        #expect(rebuilt.state.id == "s7" && rebuilt.state.resumeToken == "tok")
        #expect(rebuilt.lines == Array(lines.prefix(2)))
        #expect(rebuilt.state.loadingNextPage)
        #expect(
            rebuilt.pendingTimers == [
                PendingTimer(timer: .pageLoad(rebuilt.state.runtime.loads.bottom!), due: 400)
            ])
        #expect(
            rebuilt.decisions.map(\.entry.name) == [.sessionOpened, .reachedBottom, .loadMoreStarted])
        // The whole trace rebuilds to what a replay reaches.
        let whole = Replay.rebuild(trace, through: .max, id: "s1", resumeToken: "replay")
        #expect(whole.decisions == Replay().run(trace))
        #expect(whole.pendingTimers.isEmpty)
    }
}

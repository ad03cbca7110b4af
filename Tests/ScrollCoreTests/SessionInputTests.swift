import Testing

@testable import ScrollCore

/// What happens on a connection, mapped to decisions (shared by the server and replay).
struct SessionInputTests {
    func handle(_ input: SessionInput, on h: inout Harness) -> [SessionEffect] {
        h.session.handle(input, now: h.now, maxMessageBytes: 65536)
    }

    @Test func decodedMessagesGoThroughTheReducer() {
        var h = Harness()
        var twin = h.session
        #expect(handle(.message(.success(.loadMore)), on: &h) == twin.reduce(.loadMoreRequested, now: 0))
        #expect(h.session == twin)
        #expect(handle(.message(.success(.ping(id: 7))), on: &h) == [.send(.pong(id: 7))])
    }

    @Test func helloWithAResumeTokenOnAnOpenSessionResumes() {
        var h = Harness()
        let effects = handle(.message(.success(.hello(Hello(resume: "token-1", lastRev: 1)))), on: &h)
        #expect(effects.names == [.sessionResumed])
        #expect(effects.first == .send(.welcome(session: "s1", resume: "token-1", config: ScrollConfig())))
    }

    @Test func theForkTakeoverOfARebuiltSessionIsLoggedAsAFork() {
        var h = Harness()
        let takeover = SessionInput.message(.success(.hello(Hello(resume: Hello.forkTakeover))))
        // Without a fork to take over, "fork" is a token like any other.
        var plain = h
        #expect(handle(takeover, on: &plain).names == [.sessionResumed])
        h.session.forkedFrom = Trace.Fork(parent: "p.jsonl", parentSession: "s4", at: 1200)
        let effects = handle(takeover, on: &h)
        #expect(effects.names == [.sessionForked])
        #expect(
            effects.logs.first?.data
                == ["parent": "p.jsonl", "parentSession": "s4", "at": 1200, "delivered": "replace", "rev": 2])
    }

    @Test func refusedMessageGetsAnErrorAndAProtocolErrorEvent() {
        var h = Harness()
        let error = ProtocolError(.badMessage, #"missing field "phase""#, ref: 4)
        #expect(
            handle(.message(.failure(error)), on: &h) == [
                .send(.error(error)),
                .log(
                    LogEntry(.protocolError, ["code": "bad_message", "message": #"missing field "phase""#, "ref": 4])),
            ])
    }

    @Test func transportViolationsMapToTheirErrorCodes() {
        var h = Harness()
        #expect(
            handle(.violation(.tooLarge), on: &h) == [
                .send(.error(ProtocolError(.tooLarge, "messages are limited to 65536 bytes"))),
                .log(
                    LogEntry(.protocolError, ["code": "too_large", "message": "messages are limited to 65536 bytes"])),
            ])
        let limited = handle(.violation(.rateLimited), on: &h)
        guard case .send(.error(let error))? = limited.first else {
            Issue.record("no error in \(limited)")
            return
        }
        #expect(error.code == .rateLimited)
        #expect(
            Array(limited.dropFirst()) == [
                .log(LogEntry(.protocolError, ["code": "rate_limited", "message": .string(error.message)]))
            ])
        // A binary frame closes the connection (1003): logged, nothing to reply.
        #expect(
            handle(.violation(.binary), on: &h) == [
                .log(LogEntry(.protocolError, ["code": "binary_frame", "message": "binary frames are not supported"]))
            ])
    }

    @Test func closingLogsSessionClosed() {
        var h = Harness()
        #expect(
            handle(.closed(code: 1001, resumable: true), on: &h) == [
                .log(LogEntry(.sessionClosed, ["code": 1001, "resumable": true]))
            ])
        #expect(
            handle(.closed(code: nil, resumable: false), on: &h) == [
                .log(LogEntry(.sessionClosed, ["code": nil, "resumable": false]))
            ])
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// Failure policies and bad settings (issue 12 §1, "Speed and bad input") over real sockets against the
/// real executable.
// The limit catches a hang, not slowness: it counts from the test's start, so on a busy 2-core machine it
// measures contention (these tests launch the executable, many at once under the parallel runner).
@Suite(.timeLimit(.minutes(10)))
struct FailurePolicyTests {
    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString)").path
    }

    /// `backoff` retries on its own, says so, shows it in `state`, gives up, and a person's Retry loads the
    /// page; the recorded trace (timers included) replays with no differences.
    @Test func backoffRetriesGivesUpAndReplaysExactly() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--log-dir", directory])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(
            try page.hello(
                preset: "playground",
                config: [
                    "failureRate": 1, "loadLatencyMs": 20, "retryBaseMs": 20, "retryMaxMs": 40, "retryMax": 2,
                ]
            ).welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 2300)
        _ = try page.event("loadMoreFailed")
        let scheduled = try page.event("loadMoreRetryScheduled")
        #expect(scheduled["data"]?["retry"] == 1)
        #expect(scheduled["data"]?["retryMax"] == 2)
        let delay = try #require(scheduled["data"]?["delayMs"]?.number)
        #expect((10...20).contains(delay))
        let showing = try page.next("state", where: { $0["loadFailure"]?["next"] == "scheduled" })
        #expect(showing["loadFailure"]?["page"] == 2)
        #expect(showing["loadFailure"]?["retry"] == 1)
        let started = try page.event("loadMoreRetryStarted")
        #expect(started["data"]?["trigger"] == "retry")
        #expect(started["data"]?["attempt"] == 2)
        #expect(try page.event("loadMoreRetryScheduled")["data"]?["retry"] == 2)
        let gaveUp = try page.event("loadMoreGaveUp")
        #expect(gaveUp["data"] == ["page": 2, "failures": 3, "retries": 2])
        let given = try page.next("state", where: { $0["loadFailure"]?["next"] == "gaveUp" })
        #expect(given["loadFailure"] == ["page": 2, "failures": 3, "next": "gaveUp", "retryMax": 2])
        // Retry, with failures off: the page lands and the failure is gone.
        try page.send(["type": "config", "failureRate": 0])
        try page.send(["type": "loadMore"])
        let retried = try page.next(
            "event", where: { $0["name"] == "loadMoreRetryStarted" && $0["data"]?["trigger"] == "manual" })
        #expect(retried["data"]?["attempt"] == 4)
        #expect(try page.next("items")["op"] == "append")
        let clear = try page.next("state", where: { $0["itemCount"] == 50 })
        #expect(clear["loadFailure"] == .null)

        let download = try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace")
        let trace = try ReplayTests.temporaryFile(download.text)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        #expect(download.text.contains(#""timer":"loadRetry-"#))
        let diff = try runToCompletion(["replay", trace, "--diff"])
        #expect(diff.stdout.hasPrefix("no differences"), "\(diff.stdout)")
    }

    /// The figure over the wire: failure rate 0.5, the page resting at the bottom of content shorter than
    /// its viewport, reporting only its new content size. `playground` loads until the feed ends, with
    /// never more than one request in flight.
    @Test func playgroundLoadsToTheEndThroughFailures() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let (_, first, _) = try page.hello(
            preset: "playground",
            config: [
                "failureRate": 0.5, "initialCount": 3, "pageSize": 2, "maxItems": 21, "loadLatencyMs": 20,
                "retryBaseMs": 20, "retryMaxMs": 200, "seed": 4,
            ])
        var count = first.itemIDs.count
        var seq = 1
        try page.geometry(seq: seq, offsetY: 0, contentHeight: Double(count) * 80, containerHeight: 2000)
        while count < 21 {
            let items = try page.next("items")
            count += items.itemIDs.count
            seq += 1
            try page.geometry(seq: seq, offsetY: 0, contentHeight: Double(count) * 80, containerHeight: 2000)
        }
        _ = try page.event("feedExhausted")
        let events = page.drain().filter { $0["type"] == "event" }.compactMap { $0["name"]?.string }
        var inFlight = 0
        var most = 0
        for name in events {
            if name == "loadMoreStarted" { inFlight += 1 }
            if ["loadMoreFinished", "loadMoreFailed", "loadMoreCancelled"].contains(name) { inFlight -= 1 }
            most = max(most, inFlight)
        }
        #expect(most <= 1)
        #expect(!events.contains("loadMoreGaveUp"))
    }

    /// A typo in a setting is refused with `bad_message` naming the key, in `config` and in `hello`.
    @Test func unknownSettingsAreRefusedNamingTheKey() throws {
        let server = try ServerProcess()
        let refused = try PlaygroundConnection(port: server.port)
        try refused.send(["type": "hello", "version": 1, "config": ["bottomTreshold": 10]])
        let hello = try refused.next("error")
        #expect(hello["code"] == "bad_message")
        #expect(hello["field"] == "bottomTreshold")
        #expect(hello["message"] == #"unknown setting "bottomTreshold": did you mean "bottomThreshold"?"#)
        // No session was opened: a later hello still can.
        try refused.send(["type": "ping", "id": 1])
        #expect(try refused.next("pong")["id"] == 1)

        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        try page.send(["type": "config", "bottomTreshold": 10, "pageSize": 5])
        let config = try page.next("error")
        #expect(config["code"] == "bad_message")
        #expect(config["field"] == "bottomTreshold")
        let logged = try page.event("protocolError")
        #expect(logged["data"]?["field"] == "bottomTreshold")
        #expect(!page.drain().contains { $0["name"] == "configChanged" })
    }

    /// A value out of range names the field and the range, and nothing changes.
    @Test func aRetryMaxOfABillionIsRefusedAndChangesNothing() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let welcome = try page.hello().welcome
        try page.send(["type": "config", "retryMax": 1e9, "retryBaseMs": 10])
        let error = try page.next("error")
        #expect(error["code"] == "bad_message")
        #expect(error["field"] == "retryMax")
        #expect(error["message"] == "retryMax must be in 0…100")
        #expect(!page.drain().contains { $0["name"] == "configChanged" })
        // The settings are as they were: a later change reports only itself.
        try page.send(["type": "config", "retryMax": 3])
        #expect(try page.event("configChanged")["data"]?["changed"] == ["retryMax": 3])
        #expect(welcome["config"]?["retryBaseMs"] == 1000)
        #expect(welcome["config"]?["retryPolicy"] == "backoff")
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// The playground protocol over real sockets against the real executable.
@Suite(.timeLimit(.minutes(10)))
struct SessionProtocolTests {
    static let fast: JSONValue = ["loadLatencyMs": 30, "refreshLatencyMs": 30]

    @Test func helloGetsWelcomeItemsAndState() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let (welcome, items, state) = try page.hello(preset: "refreshable", config: ["initialCount": 12])
        #expect(welcome["session"]?.string?.hasPrefix("s") == true)
        #expect(welcome["resume"]?.string?.count == 32)
        #expect(welcome["config"]?["preset"] == "refreshable")
        #expect(welcome["config"]?["initialCount"] == 12)
        #expect(welcome["presets"]?.array?.compactMap { $0["name"]?.string } == Preset.allCases.map(\.rawValue))
        #expect(items["op"] == "replace")
        #expect(items["rev"] == 1)
        #expect(items.itemIDs == (1...12).map { "item-\($0)" })
        #expect(items["hasMore"] == true)
        #expect(state["preset"] == "refreshable")
        #expect(state["itemCount"] == 12)
        #expect(state["reachedBottom"] == false)
    }

    @Test func clientWithoutSubprotocolIsServedToo() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port, subprotocol: nil)
        let (welcome, _, _) = try page.hello()
        #expect(welcome["config"]?["preset"] == "playground")
    }

    @Test func scrollingToTheBottomLoadsTheNextPage() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(preset: "refreshable", config: Self.fast)
        try page.geometry(seq: 1, offsetY: 0)
        try page.geometry(seq: 2, offsetY: 2260, phase: "decelerating")
        let started = try page.event("loadMoreStarted")
        #expect(started["geometrySeq"] == 2)
        #expect(started["data"]?["page"] == 2)
        let appended = try page.next("items")
        #expect(appended["op"] == "append")
        #expect(appended["rev"] == 2)
        #expect(appended.itemIDs == (31...50).map { "item-\($0)" })
        #expect(appended["total"] == 50)
        let state = try page.next("state", where: { $0["itemCount"] == 50 })
        #expect(state["loadingNextPage"] == false)
        #expect(state["ack"] == 2)
    }

    @Test func pullAndReleaseRefreshesAndPrepends() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(preset: "refreshable", config: Self.fast)
        try page.geometry(seq: 1, offsetY: 0)
        try page.geometry(seq: 2, offsetY: -40, phase: "interacting")
        try page.geometry(seq: 3, offsetY: -80, phase: "interacting")
        try page.geometry(seq: 4, offsetY: -80, phase: "idle")
        let started = try page.event("refreshStarted")
        #expect(started["geometrySeq"] == 4)
        let prepended = try page.next("items")
        #expect(prepended["op"] == "prepend")
        #expect(prepended.itemIDs == (1...5).map { "new-\($0)" })
        #expect(prepended["total"] == 35)
        _ = try page.event("refreshFinished")
        let settled = try page.next("state", where: { $0["itemCount"] == 35 })
        #expect(settled["refreshing"] == false)
        #expect(settled["pull"]?["eligible"] == false)
    }

    @Test func eventsArriveLiveAndThroughTheAPI() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello(preset: "refreshable", config: Self.fast).welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 2300)
        let live = try page.event("reachedBottom")
        let liveSeq = try #require(live["seq"]?.number)
        _ = try page.event("loadMoreFinished")

        let response = try HTTPProbe.get(port: server.port, path: "/api/events?session=\(session)&after=0&limit=100")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        let events = try #require(try JSONParser.parse(response.body)["events"]?.array)
        let names = events.compactMap { $0["name"]?.string }
        #expect(names == ["sessionOpened", "reachedBottom", "loadMoreStarted", "loadMoreFinished"])
        #expect(events.allSatisfy { $0["session"]?.string == session })
        #expect(events.first { $0["name"] == "reachedBottom" }?["seq"]?.number == liveSeq)
        let seqs = events.compactMap { $0["seq"]?.number }
        #expect(seqs == seqs.sorted())

        let later = try JSONParser.parse(
            try HTTPProbe.get(port: server.port, path: "/api/events?after=\(Int(liveSeq))&limit=1").body)
        #expect(later["events"]?.array?.compactMap { $0["name"]?.string } == ["loadMoreStarted"])

        let sessions = try JSONParser.parse(try HTTPProbe.get(port: server.port, path: "/api/sessions").body)
        #expect(sessions["active"] == 1)
        #expect(sessions["sessions"]?.array?.first?["id"]?.string == session)
        #expect(sessions["sessions"]?.array?.first?["itemCount"] == 50)
        #expect(sessions["sessions"]?.array?.first?["connected"] == true)
    }

    @Test func resumingDeliversTheItemsMissedAndKeepsTheSession() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let welcome = try page.hello(preset: "refreshable", config: ["loadLatencyMs": 300]).welcome
        try page.geometry(seq: 1, offsetY: 2300)
        _ = try page.event("loadMoreStarted")
        // The page vanishes while the page load is in flight; the load lands while it is away.
        page.client.drop()
        _ = try #require(server.waitForLine { $0.contains("loadMoreFinished") })

        let back = try PlaygroundConnection(port: server.port)
        try back.send(["type": "hello", "version": 1, "resume": welcome["resume"]!, "lastRev": 1])
        let again = try back.next("welcome")
        #expect(again["session"] == welcome["session"])
        let missed = try back.next("items")
        #expect(missed["op"] == "append")
        #expect(missed["rev"] == 2)
        #expect(missed.itemIDs == (31...50).map { "item-\($0)" })
        let state = try back.next("state")
        #expect(state["itemCount"] == 50)
        let resumed = try back.event("sessionResumed")
        #expect(resumed["data"]?["delivered"] == 1)
    }

    @Test func badJSONGetsAnErrorAndTheSessionGoesOn() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        try page.client.send("{not json")
        let error = try page.next("error")
        #expect(error["code"] == "bad_json")
        try page.send(["type": "ping", "id": "after"])
        #expect(try page.next("pong")["id"] == "after")
    }

    @Test func eachErrorCodeAndTheSessionGoesOn() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.geometry(seq: 1, offsetY: 0)
        #expect(try page.next("error")["code"] == "not_ready")
        try page.hello()
        try page.send(["type": "teleport"])
        #expect(try page.next("error")["code"] == "unknown_type")
        try page.send(["type": "geometry", "seq": 7, "t": 0, "contentOffset": ["x": 0, "y": "far"]])
        let bad = try page.next("error")
        #expect(bad["code"] == "bad_message")
        #expect(bad["message"]?.string?.contains("contentOffset.y") == true)
        #expect(bad["ref"] == 7)
        try page.send(["type": "config", "pageSize": 0])
        let config = try page.next("error")
        #expect(config["code"] == "bad_message")
        #expect(config["message"]?.string?.contains("pageSize") == true)
        _ = try page.event("protocolError")
        try page.geometry(seq: 8, offsetY: 10)
        #expect(try page.next("state", where: { $0["ack"] == 8 })["ack"] == 8)
    }

    @Test func configResetAndManualTriggers() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(config: Self.fast)
        try page.send(["type": "config", "preset": "customScrollView", "bottomThreshold": 10])
        let changed = try page.event("configChanged")
        // The design has no retry policy of its own: the default follows the preset.
        #expect(
            changed["data"]?["changed"] == [
                "preset": "customScrollView", "bottomThreshold": 10, "retryPolicy": "manual",
            ])
        #expect(try page.next("state", where: { $0["preset"] == "customScrollView" })["reachedBottom"] == false)
        try page.send(["type": "loadMore"])
        #expect(try page.next("items")["op"] == "append")
        try page.send(["type": "refresh"])
        #expect(try page.next("items")["op"] == "prepend")
        try page.send(["type": "reset"])
        let replaced = try page.next("items")
        #expect(replaced["op"] == "replace")
        #expect(replaced.itemIDs == (1...30).map { "item-\($0)" })
    }

    @Test func binaryFrameClosesWith1003() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        try page.client.sendBinary([1, 2, 3])
        #expect(try page.client.waitForClose() == 1003)
    }

    @Test func oneMebibyteMessageClosesWith1009() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        let huge = "{\"type\":\"ping\",\"id\":\"" + String(repeating: "x", count: 1 << 20) + "\"}"
        try page.client.send(huge)
        #expect(try page.next("error")["code"] == "too_large")
        #expect(try page.client.waitForClose() == 1009)
    }

    @Test func sigtermClosesSessionsLogsAndExitsZero() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--log-dir", directory, "--load-latency-ms", "20"])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 2300)
        _ = try page.event("loadMoreFinished")
        #expect(server.stop(signal: SIGTERM) == 0)
        #expect(try page.client.waitForClose() == 1001)
        #expect(server.waitForLine { $0.contains("\(session) sessionClosed code=1001 resumable=false") } != nil)

        let events = try String(contentsOfFile: "\(directory)/events.jsonl", encoding: .utf8)
            .split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(
            events.compactMap { $0["name"]?.string }
                == ["sessionOpened", "reachedBottom", "loadMoreStarted", "loadMoreFinished", "sessionClosed"])
        let trace = try String(contentsOfFile: "\(directory)/traces/\(session).jsonl", encoding: .utf8)
            .split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(trace.first?["kind"] == "header")
        #expect(trace.first?["format"] == 1)
        #expect(
            trace.filter { $0["kind"] == "input" }.compactMap { $0["message"]?["type"]?.string } == [
                "hello", "geometry",
            ])
        #expect(trace.filter { $0["kind"] == "decision" }.count == events.count)
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// Every limit of the hardening issue over real sockets against the real executable: what is refused,
/// with which error or close code, and that the server and the session go on.
@Suite(.timeLimit(.minutes(10)))
struct LimitsTests {
    // MARK: Time to say hello

    @Test func aConnectionThatSaysNoHelloIsToldTheTimeoutItHadAndClosed1008() throws {
        let server = try ServerProcess(["--hello-timeout", "0.5"])
        let silent = try RawWebSocket(port: server.port)
        let refusal = try JSONParser.parse(silent.receive(until: { $0.contains(#""type":"error""#) }))
        #expect(refusal["code"] == "not_ready")
        #expect(refusal["message"] == "no hello within 0.5 s")
        #expect(try silent.receiveClose() == 1008)
    }

    // MARK: Message size

    @Test func messageSizeLimitFollowsTheFlag() throws {
        let server = try ServerProcess(["--max-message", "2048"])
        // Exactly at the limit: accepted.
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        let fitting = Self.ping(id: "fits", totalBytes: 2048)
        try page.client.send(fitting)
        #expect(try page.next("pong")["id"] == "fits")
        // One byte over: too_large, then close 1009.
        try page.client.send(Self.ping(id: "over", totalBytes: 2049))
        let error = try page.next("error")
        #expect(error["code"] == "too_large")
        #expect(error["message"]?.string?.contains("2048") == true)
        #expect(try page.client.waitForClose() == 1009)
        #expect(server.waitForLine { $0.contains("protocolError") && $0.contains("too_large") } != nil)
        // The server goes on.
        let other = try PlaygroundConnection(port: server.port)
        try other.hello()
    }

    /// A ping message of exactly `totalBytes` bytes.
    static func ping(id: String, totalBytes: Int) -> String {
        let head = "{\"type\":\"ping\",\"id\":\"\(id)\",\"pad\":\""
        let tail = "\"}"
        return head + String(repeating: "x", count: totalBytes - head.utf8.count - tail.utf8.count) + tail
    }

    // MARK: Sessions

    @Test func maxSessionsRefusesFurtherUpgradesWith503UntilOneLeaves() throws {
        let server = try ServerProcess(["--max-sessions", "2"])
        let first = try PlaygroundConnection(port: server.port)
        try first.hello()
        // Another address: one address has at most half of --max-sessions live (SessionFairnessTests).
        let second = try RawWebSocket(port: server.port, source: "127.0.0.2")
        #expect(try SessionFairnessTests.hello(second)["type"] == "welcome")
        #expect(try HTTPProbe.upgrade(port: server.port, subprotocol: "scroll-playground.v1").status == 503)
        #expect(throws: ClientError.handshakeFailed(status: 503)) {
            _ = try WebSocketClient.connect(port: server.port, subprotocol: "scroll-playground.v1")
        }
        // Plain HTTP still answers while the WebSockets are full.
        #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200)

        first.client.close()
        #expect(try first.client.waitForClose() == 1000)
        #expect(server.waitForLine { $0.contains("sessionClosed code=1000") } != nil)
        let third = try PlaygroundConnection(port: server.port)
        try third.hello()
    }

    // MARK: Geometry rate

    @Test func aGeometryFloodIsCoalescedWarnedOnceASecondAndAckedTruthfully() throws {
        // A low rate, so that even a slow (sanitized) client floods it.
        let rate = 50
        let server = try ServerProcess(["--max-geometry-rate", String(rate)])
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(config: ["loadLatencyMs": 10_000])
        let count = 3_000
        let started = ContinuousClock.now
        for seq in 1...count {
            try page.geometry(seq: seq, offsetY: Double(seq % 400))
            if seq % 250 == 0 { try page.send(["type": "ping", "id": .int(seq)]) }
            if seq % 1_000 == 0 { try page.send(["type": "config", "bottomThreshold": .int(seq / 1_000)]) }
        }
        try page.send(["type": "ping", "id": "end"])
        _ = try page.next("pong", where: { $0["id"] == "end" })
        // The newest geometry is applied last, so the final ack names it.
        _ = try page.next("state", where: { $0["ack"] == .int(count) })
        let elapsed = ContinuousClock.now - started

        let messages = page.drain()
        let states = messages.filter { $0["type"] == "state" }
        let errors = messages.filter { $0["type"] == "error" }
        #expect(errors.allSatisfy { $0["code"] == "rate_limited" })
        let seconds = Int(elapsed.components.seconds) + 1
        #expect((1...(seconds + 1)).contains(errors.count), "\(errors.count) warnings in \(elapsed)")
        // At most the burst, then the rate (states can also come from the configs).
        #expect(states.count <= 24 + rate * seconds + 3, "\(states.count) states for \(count) geometries in \(elapsed)")
        // Every ack is a geometry that was sent, in order.
        let acks = states.compactMap { $0["ack"]?.number.map(Int.init) }
        #expect(acks == acks.sorted())
        // Nothing but geometry is coalesced: every ping answered, every config applied.
        let pongs = messages.filter { $0["type"] == "pong" }.compactMap { $0["id"]?.number.map(Int.init) }
        #expect(pongs == Array(stride(from: 250, through: count, by: 250)))
        let changes = messages.filter { $0["type"] == "event" && $0["name"] == "configChanged" }
        #expect(changes.count == 3)
        let warnings = messages.filter { $0["type"] == "event" && $0["name"] == "protocolError" }
        #expect(warnings.count == errors.count)
        #expect(warnings.allSatisfy { $0["data"]?["code"] == "rate_limited" })
        // And the session answers at once afterwards.
        try page.geometry(seq: count + 1, offsetY: 5)
        _ = try page.next("state", where: { $0["ack"] == .int(count + 1) })
    }

    @Test func aCoalescedSessionReplaysToTheSameDecisions() throws {
        let folder = LogFolder()
        let directory = folder.path
        let server = try ServerProcess(["--log-dir", directory, "--max-geometry-rate", "50", "--load-latency-ms", "20"])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello(preset: "refreshable").welcome["session"]?.string)
        // Scroll down and back up through the bottom many times, far faster than the pace.
        for seq in 1...1_500 {
            try page.geometry(seq: seq, offsetY: Double((seq * 37) % 2_400))
        }
        _ = try page.next("state", where: { $0["ack"] == 1_500 })
        page.client.close()
        _ = try page.client.waitForClose()
        #expect(server.waitForLine { $0.contains("\(session) sessionClosed") } != nil)

        let trace = try #require(
            folder.waitForFile(folder.trace(session)) { $0.contains(#""kind":"closed""#) })
        #expect(trace.contains(#""violation":"rateLimited""#))
        let result = try runToCompletion(["replay", "\(directory)/traces/\(session).jsonl", "--diff"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("no differences"), "\(result.stdout.prefix(2000))")
    }

    @Test func geometryAtTheRateIsNeverCoalesced() throws {
        let server = try ServerProcess(["--max-geometry-rate", "100000"])
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(config: ["loadLatencyMs": 10_000])
        for seq in 1...500 { try page.geometry(seq: seq, offsetY: Double(seq)) }
        _ = try page.next("state", where: { $0["ack"] == 500 })
        let messages = page.drain()
        #expect(messages.filter { $0["type"] == "error" }.isEmpty)
    }

    // MARK: Outbound

    @Test func aClientThatNeverReadsIsClosed1008AndResumesWithNothingLost() throws {
        let server = try ServerProcess(["--max-outbound", "131072", "--load-latency-ms", "1", "--log-format", "json"])
        let reader = try RawWebSocket(port: server.port, receiveBuffer: 4096)
        try reader.send(#"{"type":"hello","version":1,"config":{"maxItems":0}}"#)
        let welcome = try JSONParser.parse(try reader.receive(until: { $0.contains("\"welcome\"") }))
        let token = try #require(welcome["resume"]?.string)
        _ = try reader.receive(until: { $0.contains("\"state\"") })

        // From here it never reads: 3 MB of pongs go far past the 128 KiB cap and the few hundred KiB
        // the kernel buffers, and page loads add items along the way.
        let pad = String(repeating: "p", count: 30_000)
        do {
            for sent in 0..<100 {
                if sent % 10 == 0 { try reader.send(#"{"type":"loadMore"}"#) }
                try reader.send(#"{"type":"ping","id":"\#(pad)"}"#)
            }
        } catch RawWebSocket.Failure.closedByPeer {
            // The server dropped it already.
        }
        let closed = try #require(server.waitForEvent("sessionClosed", timeout: 30))
        #expect(closed["data"] == ["code": 1008, "resumable": true])
        reader.drop()

        // Everything loaded in the meantime comes back on resume.
        let back = try PlaygroundConnection(port: server.port)
        try back.send(["type": "hello", "version": 1, "resume": .string(token), "lastRev": 1])
        #expect(try back.next("welcome")["session"] == welcome["session"])
        let state = try back.next("state")
        let resumed = try back.event("sessionResumed")
        let items = back.drain().filter { $0["type"] == "items" }
        let itemCount = try #require(state["itemCount"]?.number.map(Int.init))
        if resumed["data"]?["delivered"] == "replace" {
            #expect(items.count == 1)
            #expect(items.first?.itemIDs.count == itemCount)
        } else {
            #expect(items.compactMap { $0["rev"]?.number.map(Int.init) } == Array(2..<(2 + items.count)))
            #expect(30 + items.map(\.itemIDs.count).reduce(0, +) == itemCount)
        }
        #expect(itemCount > 30, "no page was loaded while the client was not reading")
    }

    // MARK: Churn

    @Test func churnWithAbruptCutsReturnsToZeroActiveAndExpires() throws {
        let server = try ServerProcess(["--resume-grace", "0.2", "--log-format", "json"])
        let hello = #"{"type":"hello","version":1}"#
        for cycle in 0..<150 {
            let socket = try RawWebSocket(port: server.port)
            try socket.send(hello)
            _ = try socket.receive(until: { $0.contains("\"state\"") })
            if cycle % 3 == 0 {
                // Cut in the middle of a frame.
                try socket.sendPartial(#"{"type":"geometry","seq":1,"t":0}"#, bytes: 12)
                socket.drop()
            } else {
                try socket.sendClose()
                #expect(try socket.receiveClose() == 1000)
                socket.drop()
            }
        }
        let sessions = try Self.waitForSessions(port: server.port) { $0["sessions"]?.array?.isEmpty == true }
        #expect(sessions["active"] == 0)
        let health = try JSONParser.parse(try HTTPProbe.get(port: server.port, path: "/healthz").body)
        #expect(health["active"] == 0)
    }

    /// Polls `/api/sessions` until `condition` holds (at most `attempts` times, `interval` apart).
    static func waitForSessions(
        port: Int, attempts: Int = 200, interval: Duration = .milliseconds(50), _ condition: (JSONValue) -> Bool
    ) throws -> JSONValue {
        var last: JSONValue = .null
        for _ in 0..<attempts {
            last = try JSONParser.parse(try HTTPProbe.get(port: port, path: "/api/sessions").body)
            if condition(last) { return last }
            Thread.sleep(
                forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
        Issue.record("sessions never settled: \(last.jsonString.prefix(500))")
        return last
    }

    // MARK: Flags

    @Test(arguments: [
        (["--max-message", "10"], "--max-message"),
        (["--max-outbound", "lots"], "--max-outbound"),
        (["--max-geometry-rate", "0"], "--max-geometry-rate"),
        (["--max-sessions", "0"], "--max-sessions"),
        (["--max-log-bytes", "-1"], "--max-log-bytes"),
    ])
    func badLimitFlagsExitTwo(arguments: [String], mentioning: String) throws {
        let result = try runToCompletion(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(mentioning))
    }

    @Test func helpListsTheLimitFlags() throws {
        let result = try runToCompletion(["--help"])
        let readme = try String(
            contentsOf: ServerProcess.packageRoot.appendingPathComponent("docs/security.md"), encoding: .utf8)
        for flag in [
            "--max-message", "--max-outbound", "--max-geometry-rate", "--max-sessions", "--max-connecting",
            "--hello-timeout", "--max-session-items", "--max-log-bytes", "--max-fork-bytes", "--max-fork-lines",
            "--max-upload-bytes", "--max-held-bytes",
        ] {
            #expect(result.stdout.contains(flag), "missing \(flag) in --help")
            #expect(readme.contains("`\(flag) "), "missing \(flag) in docs/security.md")
        }
    }
}

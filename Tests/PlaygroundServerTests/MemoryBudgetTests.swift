import Foundation
import LWSClient
import ScrollCore
import Testing

/// What many clients together make the server hold is bounded, not only what each may: traces uploaded
/// before `hello` (`--max-upload-bytes`) and sessions held for resume (`--max-held-bytes`). Each attack
/// of issue 30 §2, scaled down by a small budget, keeps the server's peak memory under the budget plus a
/// stated overhead while other clients are answered. Over real sockets against the real executable.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MemoryBudgetTests {
    /// What the server may take besides a budget during an attack: the transport's buffers, a message
    /// being parsed, the allocator's slack, the event ring and the sessions' other state (0–3 MiB measured).
    static let overhead = 16 << 20
    /// What docs/security.md says a held session's item counts for in `--max-held-bytes`.
    static let heldBytesPerItem = 112

    /// Whether the server's resident memory means anything: a sanitized build keeps freed memory in
    /// quarantine, and what it refused would count.
    static let measuresMemory = !ServerProcess.isSanitized

    /// The server's peak resident memory so far (VmHWM), from /proc.
    static func peakBytes(_ server: ServerProcess) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8))
        let line = status?.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// What a raw client got after it sent its pieces: the server read them all, or refused them.
    enum Upload: Equatable {
        /// Every piece was read and kept (a ping sent after them was answered).
        case kept
        /// `server_full`, then the close.
        case refused(code: UInt16?)
    }

    /// Sends `frames` on a new socket from `source`, then a ping, and says what came of it.
    static func upload(_ frames: [[UInt8]], port: Int, source: String? = nil) throws -> (RawWebSocket, Upload) {
        let socket = try RawWebSocket(port: port, source: source, timeout: .seconds(60))
        var sendFailed = false
        for frame in frames {
            do {
                try socket.sendFrame(frame)
            } catch {
                // Closed by the server while the client was still sending: what it said is read below.
                sendFailed = true
                break
            }
        }
        if !sendFailed { try? socket.send(#"{"type":"ping","id":"read"}"#) }
        var refusal: String?
        while true {
            guard let message = try? socket.receive() else { return (socket, .refused(code: nil)) }
            switch message {
            case .text(let text) where text.contains(#""type":"pong""#):
                return (socket, .kept)
            case .text(let text) where text.contains(#""code":"server_full""#):
                refusal = text
            case .text(let text):
                Issue.record("unexpected answer to an upload: \(text)")
            case .close(let code):
                #expect(refusal != nil, "closed (\(code.map(String.init) ?? "no code")) without server_full")
                return (socket, .refused(code: code))
            }
        }
    }

    /// 64 sockets that never say `hello`, each uploading 8 MiB of parent trace, took RSS to 698 MiB. Scaled
    /// down: 16 sockets of 6 MB (96 MB in all) against a 32 MiB budget. Past half the budget this
    /// address is refused with `server_full` and close 1013; another address still uploads and forks, and a
    /// plain session is welcomed.
    @Test func uploadsBeforeHelloStayWithinTheBudget() throws {
        let budget = 32 << 20
        let server = try ServerProcess(["--max-upload-bytes", String(budget), "--hello-timeout", "120"])
        let before = server.residentBytes
        let watcher = try PingWatcher(port: server.port)
        // Framed (and masked) once: the client's own work is not what is measured.
        let piece = JSONValue.object(["type": "forkTrace", "text": .string(String(repeating: "x", count: 60_000))])
        let frame = RawWebSocket.frame(opcode: 0x1, payload: Array(piece.jsonString.utf8))
        // 6 MB each: held in 7.7 MB (grown by doubling), so two fit this address's half of the budget.
        let frames = Array(repeating: frame, count: 100)
        var outcomes: [Upload] = []
        var kept: [RawWebSocket] = []
        for _ in 0..<16 {
            let (socket, outcome) = try Self.upload(frames, port: server.port)
            outcomes.append(outcome)
            if outcome == .kept { kept.append(socket) }
        }
        let peak = Self.peakBytes(server)
        // Another client's fork is taken and welcomed while the attacker's uploads are held.
        let (other, otherUpload) = try Self.upload(
            ForkBudgetTests.forkMessages(HostileForkTests.parent()).dropLast().map {
                RawWebSocket.frame(opcode: 0x1, payload: Array($0.utf8))
            }, port: server.port, source: "127.0.0.2")
        #expect(otherUpload == .kept)
        try other.send(ForkBudgetTests.forkHello(at: 1))
        #expect(try ForkBudgetTests.answer(other)["type"] == "welcome")
        let page = try PlaygroundConnection(port: server.port)
        #expect(try page.hello().welcome["session"] != nil)
        let times = watcher.stop(after: 20)
        print(
            "16 sockets uploading 6 MB each before hello, --max-upload-bytes \(budget >> 20) MiB: "
                + "\(outcomes.count { $0 == .kept }) kept, \(outcomes.count { $0 != .kept }) refused; "
                + "RSS \(before >> 20) MiB → peak \(peak >> 20) MiB; ping p99 \(TerminalStallTests.p99(times))")
        // Half the budget from one address: two uploads.
        #expect(outcomes.count { $0 == .kept } == 2, "\(outcomes)")
        #expect(outcomes.filter { $0 != .kept }.allSatisfy { $0 == .refused(code: 1013) || $0 == .refused(code: nil) })
        #expect(outcomes.contains(.refused(code: 1013)))
        if Self.measuresMemory { #expect(peak - before < budget + Self.overhead) }
        withExtendedLifetime(kept) {}
    }

    /// 1,000 sessions that each jumped to `item-10000` and went took RSS from 74 to 894 MiB. Scaled down: 150
    /// such sessions (about 120 MiB unbudgeted) against a 16 MiB budget. The longest-waiting are evicted
    /// (`sessionEvicted`, `maxHeldBytes`) and their resume opens a new session; the latest still resumes;
    /// another session is answered throughout.
    @Test func sessionsHeldForResumeStayWithinTheBudget() throws {
        let budget = 16 << 20
        let server = try ServerProcess(["--max-held-bytes", String(budget), "--log-format", "json"])
        let before = server.residentBytes
        let watcher = try PingWatcher(port: server.port)
        var tokens: [(session: String, token: String)] = []
        for index in 0..<150 {
            // Every other jump lands 200 ms after it is asked for: once its page has gone, while the session
            // is held; the others land before.
            let latency = index.isMultiple(of: 2) ? 0 : 200
            let socket = try RawWebSocket(port: server.port, timeout: .seconds(30))
            try socket.send(#"{"type":"hello","version":1,"config":{"maxItems":0,"loadLatencyMs":\#(latency)}}"#)
            let welcome = try JSONParser.parse(socket.receive(until: { $0.contains(#""type":"welcome""#) }))
            tokens.append((try #require(welcome["session"]?.string), try #require(welcome["resume"]?.string)))
            // Gone at once: the session's timers still run while it is held.
            try socket.send(#"{"type":"jump","id":"item-10000"}"#)
            socket.drop()
        }
        let last = try #require(tokens.last)
        #expect(server.waitForEvent("jumpFinished", of: last.session, timeout: 30) != nil)
        let peak = Self.peakBytes(server)
        let listed = try JSONParser.parse(HTTPProbe.get(port: server.port, path: "/api/sessions").text)
        let held = (listed["sessions"]?.array ?? []).filter { $0["connected"] == false }
        let heldItems = held.reduce(0) { $0 + Int($1["itemCount"]?.number ?? 0) }
        let times = watcher.stop(after: 20)
        print(
            "150 sessions parked after a jump to item-10000, --max-held-bytes \(budget >> 20) MiB: \(held.count) held "
                + "(\(heldItems) items), RSS \(before >> 20) MiB → peak \(peak >> 20) MiB; "
                + "ping p99 \(TerminalStallTests.p99(times))")
        if Self.measuresMemory { #expect(peak - before < budget + Self.overhead) }
        #expect(held.count >= 1 && held.count < 150)
        #expect(heldItems * Self.heldBytesPerItem <= budget)
        let evicted = try #require(
            server.waitForEvent("sessionEvicted", of: tokens[0].session), "the oldest held session stayed")
        #expect(evicted["data"]?["reason"] == "maxHeldBytes", "\(evicted)")

        // The oldest's resume is answered as an unknown token (a new session); the latest's resumes it.
        let late = try PlaygroundConnection(port: server.port)
        #expect(try late.hello(resume: last.token).welcome["session"]?.string == last.session)
        let early = try PlaygroundConnection(port: server.port)
        let reopened = try early.hello(resume: tokens[0].token).welcome["session"]?.string
        #expect(reopened != nil && reopened != tokens[0].session)
    }
}

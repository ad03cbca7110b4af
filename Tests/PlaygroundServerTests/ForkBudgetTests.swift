import Foundation
import LWSClient
import ScrollCore
import Testing

/// Forks are budgeted work: a fork counts while it is queued or rebuilt, leaves the queue when its page
/// goes, the slots are shared by client address, and a fork refused for want of a slot keeps its parent
/// trace for the retry. Over real sockets against the real executable.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ForkBudgetTests {
    /// A fork's messages: its parent in `forkTrace` pieces, then its `hello`.
    static func forkMessages(_ parent: String, at: Int = 1_000_000) -> [String] {
        let bytes = Array(parent.utf8)
        var messages = stride(from: 0, to: bytes.count, by: 25_000).map { start in
            let piece = String(decoding: bytes[start..<min(bytes.count, start + 25_000)], as: UTF8.self)
            return JSONValue.object(["type": "forkTrace", "text": .string(piece)]).jsonString
        }
        messages.append(forkHello(at: at))
        return messages
    }

    static func forkHello(at: Int = 1_000_000) -> String {
        #"{"type":"hello","version":1,"fork":{"parent":"p.jsonl","at":\#(at)},"config":{}}"#
    }

    /// The first `welcome` or `error` a raw client gets.
    static func answer(_ socket: RawWebSocket) throws -> JSONValue {
        try JSONParser.parse(
            socket.receive(until: { $0.contains(#""type":"welcome""#) || $0.contains(#""type":"error""#) }))
    }

    /// Waits until the server has read everything sent on `socket` (a ping sent last is answered).
    static func waitUntilRead(_ socket: RawWebSocket) throws {
        try socket.send(#"{"type":"ping","id":"read"}"#)
        _ = try socket.receive(until: { $0.contains(#""type":"pong""#) || $0.contains(#""type":"error""#) })
    }

    /// Sockets that have each uploaded `parent` (all of it read by the server) and not yet said hello.
    static func uploaded(_ count: Int, _ parent: String, port: Int, source: String? = nil) throws -> [RawWebSocket] {
        // Framed (and masked) once: the client's own work is not what is measured.
        let frames = forkMessages(parent).dropLast().map { RawWebSocket.frame(opcode: 0x1, payload: Array($0.utf8)) }
        return try (0..<count).map { _ in
            let socket = try RawWebSocket(port: port, source: source, timeout: .seconds(120))
            for frame in frames { try socket.sendFrame(frame) }
            try waitUntilRead(socket)
            return socket
        }
    }

    @Test func abandonedForksLeaveTheQueueAndAnotherClientsForkIsWelcomedSoon() throws {
        let server = try ServerProcess()
        let pid = server.process.processIdentifier
        let parent = try HostileForkTests.heavyParent(refusedJumps: 24_000)
        let rssBefore = server.residentBytes
        var peak = rssBefore
        // Forks whose page goes as soon as it has said hello: each used to stay queued with its parent.
        let attackers = try Self.uploaded(16, parent, port: server.port)
        peak = max(peak, server.residentBytes)
        for attacker in attackers {
            try attacker.send(Self.forkHello())
            attacker.drop()
        }

        let victim = try PlaygroundConnection(port: server.port)
        let started = ContinuousClock.now
        try HostileForkTests.fork(victim, HostileForkTests.parent(), at: 1)
        let welcome = try victim.next("welcome", timeout: .seconds(120))
        let waited = ContinuousClock.now - started
        peak = max(peak, server.residentBytes)
        #expect(welcome["session"] != nil)

        // Nothing is left to rebuild: the server goes idle.
        Thread.sleep(forTimeInterval: 1)
        let ticksBefore = try FileDescriptorLimitTests.cpuTicks(pid)
        Thread.sleep(forTimeInterval: 1)
        let idleTicks = try FileDescriptorLimitTests.cpuTicks(pid) - ticksBefore
        print(
            "16 abandoned forks of a \(parent.utf8.count >> 10) KiB parent: another client's fork welcomed after "
                + "\(waited); RSS \(rssBefore >> 20) → peak \(peak >> 20) MiB; CPU a second later: \(idleTicks) "
                + "ticks in 1 s")
        let bound: Duration = ServerProcess.isSanitized ? .seconds(20) : .seconds(5)
        #expect(waited < bound)
        #expect(peak - rssBefore < 400 << 20)
        #expect(idleTicks <= 20, "the server still works on forks nobody waits for")
    }

    /// Sends a fork's hello and then a ping: true if the fork was refused (an error came before the pong),
    /// false if it waits for its rebuild (a forking page's pings are answered meanwhile).
    static func sayHelloWasRefused(_ socket: RawWebSocket) throws -> Bool {
        try socket.send(forkHello())
        try socket.send(#"{"type":"ping","id":"after"}"#)
        var refused = false
        _ = try socket.receive(until: { text in
            if text.contains(#""code":"not_ready""#) { refused = true }
            return text.contains(#""type":"pong""#)
        })
        return refused
    }

    @Test func oneClientCannotHoldEveryForkSlotAndARefusedForkKeepsItsParent() throws {
        // The refused forks wait for two heavy rebuilds, which on a busy machine outlast the default hello timeout.
        let server = try ServerProcess(["--hello-timeout", "120"])
        // Five connections of one client (127.0.0.1) upload a heavy parent each, then say hello.
        let hogs = try Self.uploaded(5, try HostileForkTests.heavyParent(refusedJumps: 24_000), port: server.port)
        let other = try Self.uploaded(1, HostileForkTests.parent(), port: server.port, source: "127.0.0.2")[0]
        let started = ContinuousClock.now
        let refused = try hogs.map { try Self.sayHelloWasRefused($0) }
        // One client holds two forks; the others wait with their parents kept.
        #expect(refused.count(where: { !$0 }) == SessionHostLimits.forksPerClient, "\(refused)")
        // Another client (another address) still gets a slot while they are rebuilt.
        try other.send(Self.forkHello(at: 1))
        let answer = try Self.answer(other)
        #expect(answer["type"] == "welcome", "\(answer)")

        // Once the two are rebuilt, a refused one says hello again, without its parent: it was kept.
        for (hog, wasRefused) in zip(hogs, refused) where !wasRefused {
            #expect(try Self.answer(hog)["type"] == "welcome")
        }
        print(
            "two forks of a \(try HostileForkTests.heavyParent(refusedJumps: 24_000).utf8.count >> 10) KiB parent "
                + "rebuilt in \(ContinuousClock.now - started)")
        let retrying = try #require(zip(hogs, refused).first(where: { $0.1 })?.0)
        var retried = JSONValue.null
        for _ in 0..<120 {
            try retrying.send(Self.forkHello())
            retried = try Self.answer(retrying)
            guard retried["code"] == "not_ready" else { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(retried["type"] == "welcome", "\(retried)")
    }
}

/// The fork limits the server documents (docs/security.md).
enum SessionHostLimits {
    static let forksPerClient = 2
}

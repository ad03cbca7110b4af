import Foundation
import LWSClient
import ScrollCore
import Testing

/// Sessions are shared fairly by client address (issue 42): one address may have at most half of
/// `--max-sessions`, and a held session evicted for room is taken from the address that has the most. Another
/// loopback address (127.0.0.2) stands for another person. Over real sockets against the real executable.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SessionFairnessTests {
    /// Says hello on a raw socket: the `welcome` or the `error`.
    static func hello(_ socket: RawWebSocket, resume: String? = nil) throws -> JSONValue {
        let message: JSONValue =
            resume.map { ["type": "hello", "version": 1, "resume": .string($0)] } ?? ["type": "hello", "version": 1]
        try socket.send(message.jsonString)
        return try ForkBudgetTests.answer(socket)
    }

    /// Waits (bounded) until the server counts `count` connected sessions.
    static func waitForActive(_ count: Int, port: Int) throws {
        for _ in 0..<500 {
            let listed = try JSONParser.parse(HTTPProbe.get(port: port, path: "/api/sessions").text)
            if listed["active"] == .int(count) { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Issue.record("the server never counted \(count) connected sessions")
    }

    @Test func oneAddressHoldsAtMostHalfTheSessionsAndAnotherIsWelcomed() throws {
        let server = try ServerProcess(["--max-sessions", "8"])
        var hogs: [RawWebSocket] = []
        var tokens: [String] = []
        for _ in 0..<4 {
            let socket = try RawWebSocket(port: server.port)
            tokens.append(try #require(try Self.hello(socket)["resume"]?.string))
            hogs.append(socket)
        }
        let fifth = try RawWebSocket(port: server.port)
        let refused = try Self.hello(fifth)
        #expect(refused["code"] == "server_full", "\(refused)")
        #expect(refused["message"]?.string?.contains("half of --max-sessions") == true, "\(refused)")
        #expect(try fifth.receiveClose() == 1013)
        // Its held sessions are not capped while there is room: one goes, another opens, and the first resumes
        // once a place is free again.
        hogs[0].drop()
        try Self.waitForActive(3, port: server.port)
        let another = try RawWebSocket(port: server.port)
        #expect(try Self.hello(another)["type"] == "welcome")
        another.drop()
        try Self.waitForActive(3, port: server.port)
        let back = try RawWebSocket(port: server.port)
        #expect(try Self.hello(back, resume: tokens[0])["resume"]?.string == tokens[0])

        let other = try RawWebSocket(port: server.port, source: "127.0.0.2")
        #expect(try Self.hello(other)["type"] == "welcome")
    }

    @Test func churnFromOneAddressLeavesAnotherAddressesHeldSession() throws {
        let server = try ServerProcess(["--max-sessions", "8"])
        let victim = try RawWebSocket(port: server.port, source: "127.0.0.2")
        let welcome = try Self.hello(victim)
        let session = try #require(welcome["session"]?.string)
        let token = try #require(welcome["resume"]?.string)
        victim.drop()
        try Self.waitForActive(0, port: server.port)

        // One address opens and drops sessions as fast as it can: every place fills, and more.
        for _ in 0..<40 {
            let churner = try RawWebSocket(port: server.port)
            #expect(try Self.hello(churner)["type"] == "welcome")
            churner.drop()
        }
        try Self.waitForActive(0, port: server.port)

        let back = try RawWebSocket(port: server.port, source: "127.0.0.2")
        let resumed = try Self.hello(back, resume: token)
        #expect(resumed["session"]?.string == session, "the victim's resume opened \(resumed["session"] ?? .null)")
        let listed = try JSONParser.parse(HTTPProbe.get(port: server.port, path: "/api/sessions").text)
        #expect(listed["sessions"]?.array?.count ?? 0 <= 8)
    }
}

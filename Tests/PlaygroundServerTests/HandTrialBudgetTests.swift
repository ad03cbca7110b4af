import Foundation
import LWSClient
import ScrollCore
import Testing

/// `tryHand` is hostile input and budgeted work (issue 42): no message or recording stops the server; trials
/// count per client address while queued or running, and a trial whose page goes stops. Over real sockets
/// against the real executable.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct HandTrialBudgetTests {
    /// `upload` in `forkTrace` pieces of `pieceBytes`, framed once.
    static func frames(_ upload: [UInt8], pieceBytes: Int = 25_000) -> [[UInt8]] {
        stride(from: 0, to: upload.count, by: pieceBytes).map { start in
            let piece = String(decoding: upload[start..<min(upload.count, start + pieceBytes)], as: UTF8.self)
            let message = JSONValue.object(["type": "forkTrace", "text": .string(piece)]).jsonString
            return RawWebSocket.frame(opcode: 0x1, payload: Array(message.utf8))
        }
    }

    /// A socket that has uploaded `upload` (all of it read by the server).
    static func uploaded(_ upload: [UInt8], port: Int, source: String? = nil) throws -> RawWebSocket {
        // Framed before connecting: framing a large trace in a debug build on a busy machine took longer than
        // the hello timeout, and the server closed the connection before its first piece.
        let frames = frames(upload)
        let socket = try RawWebSocket(port: port, source: source, timeout: .seconds(120))
        for frame in frames { try socket.sendFrame(frame) }
        try ForkBudgetTests.waitUntilRead(socket)
        return socket
    }

    /// The first `handResult` or `error` a socket gets.
    static func answer(_ socket: RawWebSocket) throws -> JSONValue {
        try JSONParser.parse(
            socket.receive(until: { $0.contains(#""type":"handResult""#) || $0.contains(#""type":"error""#) }))
    }

    /// Each of these stopped the server on the old main (a trap converting the number, a precondition in the
    /// lab): now each is a `bad_message`, and every other session lives.
    @Test func aHostileTryHandIsRefusedAndNoSessionDies() throws {
        let server = try ServerProcess()
        let watcher = try PlaygroundConnection(port: server.port)
        try watcher.hello()
        let hostile: [(upload: [UInt8], request: String, reason: String)] = [
            (HandTrialTests.trace, #"{"type":"tryHand","settings":{"loadLatencyMs":1e308}}"#, "loadLatencyMs"),
            (HandTrialTests.trace, #"{"type":"tryHand","settings":{"retryBaseMs":1e19}}"#, "retryBaseMs"),
            (
                HostileHandTrialTests.trace([
                    HostileHandTrialTests.geometry(t: 0, offset: "1e308", content: "1e308", inset: "1e308"),
                    HostileHandTrialTests.geometry(t: 16, offset: "1e308", content: "1e308", inset: "1e308", seq: 2),
                ]), #"{"type":"tryHand"}"#, "line 3"
            ),
            (
                HostileHandTrialTests.trace([
                    HostileHandTrialTests.geometry(t: 0, container: "0.0001"),
                    HostileHandTrialTests.geometry(t: 16, offset: "5", container: "0.0001", seq: 2),
                ]), #"{"type":"tryHand"}"#, "line 3"
            ),
        ]
        for (upload, request, reason) in hostile {
            let page = try Self.uploaded(upload, port: server.port)
            try page.send(request)
            let answer = try Self.answer(page)
            #expect(answer["code"] == "bad_message", "\(answer)")
            #expect(answer["message"]?.string?.contains(reason) == true, "\(answer)")
            #expect(try TerminalStallTests.pingTimes(watcher, count: 1).count == 1)
        }
    }

    /// A hand that asks for pages as fast as it can, each as large as a setting allows, on an endless feed:
    /// without the item bound it grew the simulated feed by millions of items.
    static let greedy = HostileHandTrialTests.greedy(seconds: 48)

    @Test func abandonedTrialsStopAndAnotherAddressIsNotStarved() throws {
        let server = try ServerProcess(["--hello-timeout", "120"])
        let pid = server.process.processIdentifier
        let rssBefore = server.residentBytes
        // One address: two trials are taken, the third is refused (its trace kept for a retry).
        let hogs = try (0..<3).map { _ in try Self.uploaded(Self.greedy, port: server.port) }
        // Each read (its ping answered) before the next is sent: connections are served in no set order.
        for hog in hogs.prefix(2) {
            try hog.send(#"{"type":"tryHand"}"#)
            try ForkBudgetTests.waitUntilRead(hog)
        }
        try hogs[2].send(#"{"type":"tryHand"}"#)
        let refused = try Self.answer(hogs[2])
        #expect(refused["code"] == "not_ready", "\(refused["type"] ?? .null) \(refused["message"] ?? .null)")
        #expect(refused["message"]?.string?.contains("this address already has 2") == true)
        let peak = server.residentBytes
        for hog in hogs { hog.drop() }

        // Another address's trial is answered soon: the abandoned ones left the queue or stopped.
        let started = ContinuousClock.now
        let other = try Self.uploaded(HandTrialTests.trace, port: server.port, source: "127.0.0.2")
        try other.send(#"{"type":"tryHand"}"#)
        let answer = try Self.answer(other)
        let waited = ContinuousClock.now - started
        #expect(answer["type"] == "handResult", "\(answer["message"] ?? .null)")

        // Nothing is left to run: the server goes idle.
        Thread.sleep(forTimeInterval: 0.5)
        let ticksBefore = try FileDescriptorLimitTests.cpuTicks(pid)
        Thread.sleep(forTimeInterval: 1)
        let idleTicks = try FileDescriptorLimitTests.cpuTicks(pid) - ticksBefore
        print(
            "3 greedy trials of a \(Self.greedy.count >> 10) KiB trace from one address, 2 taken and abandoned: "
                + "another address answered after \(waited); RSS \(rssBefore >> 20) → \(peak >> 20) MiB; "
                + "CPU a second later: \(idleTicks) ticks in 1 s")
        let bound: Duration = ServerProcess.isSanitized ? .seconds(20) : .seconds(5)
        #expect(waited < bound)
        #expect(idleTicks <= 20, "the server still works on trials nobody waits for")
    }

    /// A trial that takes longer than `--hello-timeout` (its connection says no hello: it only tries a hand) is
    /// answered: the timeout waits while the server works for the connection, as for a fork's rebuild. On a
    /// busy machine the greedy trial below took longer than the default 10 s and was closed as helloless.
    @Test func aTrialLongerThanTheHelloTimeoutIsAnswered() throws {
        // Twice the greedy hand (2.4 s of work alone, near --max-fork-lines) against a 1.5 s timeout: the trial
        // outlasts the timeout (more so on a busy machine), and the gaps between the upload's pieces, each
        // restarting it, stay within it.
        let server = try ServerProcess(["--max-session-items", "2000", "--hello-timeout", "1.5"])
        let page = try Self.uploaded(HostileHandTrialTests.greedy(seconds: 96), port: server.port)
        let started = ContinuousClock.now
        try page.send(#"{"type":"tryHand"}"#)
        let answer = try Self.answer(page)
        print("a trial against --hello-timeout 1.5 answered after \(ContinuousClock.now - started)")
        #expect(answer["type"] == "handResult", "\(answer["message"] ?? .null)")
        #expect(ContinuousClock.now - started > .seconds(1.5), "the trial no longer outlasts the hello timeout")
    }

    /// A trace sent slower than `--hello-timeout` in all, each piece within it (a big trace over a slow link), is
    /// kept and tried: the timeout counts from the last piece.
    @Test func anUploadSlowerThanTheHelloTimeoutIsKept() throws {
        let server = try ServerProcess(["--hello-timeout", "1"])
        let socket = try RawWebSocket(port: server.port, timeout: .seconds(30))
        let pieces = Self.frames(HandTrialTests.trace, pieceBytes: HandTrialTests.trace.count / 5 + 1)
        let started = ContinuousClock.now
        for piece in pieces {
            try socket.sendFrame(piece)
            // A slow link: the next piece comes 0.4 s later.
            Thread.sleep(forTimeInterval: 0.4)
        }
        #expect(ContinuousClock.now - started > .seconds(1.5))
        try socket.send(#"{"type":"tryHand"}"#)
        let answer = try Self.answer(socket)
        #expect(answer["type"] == "handResult", "\(answer["message"] ?? .null)")
    }

    /// Unabandoned, a greedy trial is bounded too: its items (`--max-session-items`) and seconds (120).
    @Test func aGreedyTrialIsAnsweredWithinItsBounds() throws {
        let server = try ServerProcess(["--max-session-items", "2000"])
        let rssBefore = server.residentBytes
        let page = try Self.uploaded(Self.greedy, port: server.port)
        let started = ContinuousClock.now
        try page.send(#"{"type":"tryHand"}"#)
        let answer = try Self.answer(page)
        let took = ContinuousClock.now - started
        let items = answer["report"]?["items"]?.number ?? .infinity
        print(
            "a greedy trial of \(Self.greedy.count >> 10) KiB under --max-session-items 2000: \(items) items, "
                + "answered after \(took), RSS \(rssBefore >> 20) → \(server.residentBytes >> 20) MiB")
        #expect(answer["type"] == "handResult", "\(answer["message"] ?? .null)")
        #expect(items <= 2000)
    }
}

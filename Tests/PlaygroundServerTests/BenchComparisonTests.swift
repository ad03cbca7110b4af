import CommandLineOptions
import Foundation
import SystemCalls
import Testing

@testable import scroll_bench

#if canImport(Glibc)
    import Glibc
#endif

/// The pure parts of `scroll-bench floor` and `compare`, and the floor's server answering over a real
/// socket. No figure is measured or asserted here: the bench's numbers are read by people, not tests.
@Suite(.timeLimit(.minutes(10)))
struct BenchComparisonTests {
    @Test func theFloorSendsAGeometryMessageInAMaskedTextFrame() {
        let frame = FloorFrame.bytes
        let payload = Array(frame.dropFirst(8))
        #expect(Array(frame.prefix(4)) == [0x81, 0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        #expect(Array(frame[4..<8]) == [0, 0, 0, 0])
        let text = String(decoding: payload, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"geometry","seq":1000,"#))
        #expect(text.hasSuffix(#""phase":"decelerating"}"#))
        #expect(FloorFrame.webSocketText(Array("hi".utf8)) == [0x81, 0x82, 0, 0, 0, 0, 0x68, 0x69])
    }

    @Test func echoesAnswerFramesInOrderWhateverTheReadsLookLike() {
        var tally = EchoTally(connections: 2, frameSize: 10)
        #expect(tally.received(4, on: 0).isEmpty)
        #expect(tally.received(6, on: 0) == 1..<2)
        #expect(tally.received(25, on: 0) == 2..<4)
        #expect(tally.received(5, on: 0) == 4..<5)
        #expect(tally.received(10, on: 1) == 1..<2)
        #expect(tally.answered(0) == 4)
        #expect(tally.answered(1) == 1)
    }

    @Test func sessionCountsAreReadStrictly() throws {
        #expect(try CompareBench.sessionCounts("20,100,300") == [20, 100, 300])
        #expect(try CompareBench.sessionCounts("100") == [100])
        #expect(try CompareBench.sessionCounts(" 20, 100 ") == [20, 100])
        for bad in ["", "20,,100", "20,x", "0", "60001", "-5"] {
            #expect(throws: UsageError.self, "\(bad)") { try CompareBench.sessionCounts(bad) }
        }
    }

    static func cell(_ server: String, _ sessions: Int, cpu: Double, p99: Double = 2, states: Double = 6000)
        -> ComparisonTable.Cell
    {
        ComparisonTable.Cell(
            server: server, sessions: sessions, cpuPerMessageUs: cpu, userPerMessageUs: cpu / 4,
            kernelPerMessageUs: cpu * 3 / 4, p50Ms: 0.5, p99Ms: p99, statesPerSecond: states, errors: 0,
            unanswered: 0, stealPercent: 0.5, othersPercent: 3)
    }

    @Test func theTableGivesEachServerItsRatioToTheFloorAndJudgesTheTargets() {
        var pingPong = Self.cell("floor", 1, cpu: 10)
        pingPong.pingPong = true
        var table = ComparisonTable(
            rate: 60,
            cells: [
                pingPong,
                Self.cell("floor", 100, cpu: 20),
                Self.cell("scroll-playground", 100, cpu: 22),
                Self.cell("goref", 100, cpu: 40),
                Self.cell("floor", 300, cpu: 10, states: 18000),
                Self.cell("scroll-playground", 300, cpu: 16, p99: 12, states: 18000),
                Self.cell("goref", 300, cpu: 20, states: 18000),
                ComparisonTable.Cell(server: "pyref", sessions: 300, failure: "did not start"),
            ])
        table.cells[5].errorCodes = ["rate_limited": 3, "closed 1008": 1]
        table.cells[6].notSent = 1200
        #expect(table.floorMessagesPerCoreSecond == 100_000)
        #expect(table.ratio("scroll-playground", to: "floor", sessions: 100) == 1.1)
        #expect(
            table.targets.map(\.ratio) == [1.1, 0.55, 0.8, 0.06],
            "22/20, 22/40, 16/20; 6,000 states/s (p99 under 10 ms only at 100) per 100,000 messages per core-second")
        let lines = table.lines
        #expect(
            lines.contains(
                "| 100 × 60 | scroll-playground | 22.0 µs (5.50 + 16.5) | 1.10× | 0.500 ms / 2.00 ms | 6,000 | 0 | 0 | 0.50 % | 3.0 % |"
            ))
        #expect(
            lines.contains(
                "| 1, ping-pong | floor | 10.0 µs (2.50 + 7.50) | 1.00× | 0.500 ms / 2.00 ms | 6,000 | 0 | 0 | 0.50 % | 3.0 % |"
            ))
        #expect(lines.contains("| 300 × 60 | pyref | failed: did not start | | | | | | | |"))
        #expect(lines.contains("| scroll-playground CPU/message ≤ 1.2 × the floor's at 100 × 60 Hz | 1.10× | met |"))
        #expect(lines.contains("| scroll-playground CPU/message ≤ 0.7 × goref's at 100 × 60 Hz | 0.550× | met |"))
        #expect(lines.contains("| scroll-playground CPU/message ≤ 0.7 × goref's at 300 × 60 Hz | 0.800× | missed |"))
        #expect(lines.contains("Errors (all rounds): scroll-playground at 300: closed 1008 × 1, rate_limited × 3."))
        #expect(
            lines.contains(
                "Frames not sent (the bench's driver over a frame late, or 120 unanswered; median of the rounds): "
                    + "goref at 300: 1,200."))
        #expect(lines.last == "The floor's ping-pong pair: 100,000 messages per core-second of its server.")
    }

    @Test func aTargetWithoutItsCountIsNotMeasured() {
        let table = ComparisonTable(
            rate: 60, cells: [Self.cell("floor", 20, cpu: 20), Self.cell("scroll-playground", 20, cpu: 30)])
        #expect(table.targets.map(\.ratio) == [nil, nil, nil, nil])
        #expect(
            table.lines.contains(
                "| scroll-playground CPU/message ≤ 1.2 × the floor's at 100 × 60 Hz | not measured |  |"))
    }

    /// The floor's server side, as `floor` starts it, echoes what it is sent.
    @Test func theFloorServerEchoesEachFrame() throws {
        let bench = ServerProcess.executable.deletingLastPathComponent().appendingPathComponent("scroll-bench").path
        let server = try scroll_bench.ServerProcess(
            command: [bench, FloorServer.modeName], announcement: FloorServer.announcement)
        defer { server.terminate() }
        let fd = try Syscall.connectToLoopback(port: UInt16(server.port))
        defer { Syscall.close(fd) }
        let frames = FloorFrame.bytes + FloorFrame.bytes
        #expect(frames.withUnsafeBytes { Syscall.sendAll(fd, $0) } == .bytes(frames.count))
        var echoed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while echoed.count < frames.count, Date() < deadline {
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            _ = Syscall.poll(&descriptors, timeoutMilliseconds: 100)
            if case .bytes(let count) = buffer.withUnsafeMutableBytes({ Syscall.receive(fd, into: $0) }) {
                echoed += buffer[..<count]
            }
        }
        #expect(echoed == frames)
    }
}

import Foundation
import LWSClient
import Testing

/// Under a low open-file limit the server refuses WebSockets it cannot hold with 503, keeps answering
/// plain HTTP, and never spins on EMFILE (which made libwebsockets log "accept: errno 24" in a loop).
@Suite(.timeLimit(.minutes(10)))
struct FileDescriptorLimitTests {
    /// utime + stime of `pid` in clock ticks, from /proc.
    static func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which is in parentheses and may hold spaces).
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return try #require(Int(fields[11])) + (try #require(Int(fields[12])))
    }

    @Test func pastTheLimitUpgradesGet503HealthzAnswersAndNothingSpins() throws {
        let server = try ServerProcess(launcher: ["/usr/bin/prlimit", "--nofile=64:64", "--"])
        let pid = server.process.processIdentifier
        let before = try Self.cpuTicks(pid)
        var open: [RawWebSocket] = []
        var refused = 0
        for _ in 0..<60 {
            do {
                open.append(try RawWebSocket(port: server.port, timeout: .seconds(5)))
            } catch RawWebSocket.Failure.refused(let status) {
                #expect(status == 503)
                refused += 1
            }
        }
        #expect(!open.isEmpty)
        #expect(refused > 0, "all 60 WebSockets were accepted under a limit of 64 descriptors")
        #expect(open.count + refused == 60)
        for _ in 0..<5 {
            #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200)
        }
        // The WebSockets that were let in still work.
        try open[0].send(#"{"type":"hello","version":1}"#)
        _ = try open[0].receive(until: { $0.contains("\"welcome\"") })
        let used = try Self.cpuTicks(pid) - before
        // A spinning accept loop burns the whole time (several seconds of ticks); serving 60 handshakes
        // takes a small fraction of a second even in a debug build.
        #expect(used < 300, "\(used) ticks of CPU")
        let lines = server.stderrText.split(separator: "\n")
        #expect(lines.count < 20, "\(lines.count) lines on stderr: \(lines.prefix(5))")
        #expect(!server.stderrText.contains("errno 24"))
    }

    /// At start the soft limit goes up to the hard one, and the session caps come down to what it holds,
    /// with one warning.
    @Test func theSoftLimitIsRaisedAndTheCapsFitUnderIt() throws {
        let folder = LogFolder()
        let server = try ServerProcess(
            ["--log-dir", folder.path], launcher: ["/usr/bin/prlimit", "--nofile=100:400", "--"])
        let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
        let openFiles = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(
            openFiles.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["400", "400"])
        // 400 descriptors, 64 kept back: 42 connecting WebSockets and (336 − 42) / 2 recorded sessions.
        let warning = try #require(server.waitForStderr { $0.contains("open-file limit") })
        #expect(warning.contains("holds 147 sessions and 42 connecting WebSockets, not 1024 and 64"))
        #expect(warning.split(separator: "\n").filter { $0.contains("open-file limit") }.count == 1)
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
    }
}

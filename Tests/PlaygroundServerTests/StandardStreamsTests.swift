import Foundation
import ScrollCore
import Testing

/// The server meets its standard descriptors as a shell leaves them: closed, a pipe whose reader has gone, a
/// terminal that closes. None of that may stop it or send notices into its files.
@Suite(.timeLimit(.minutes(10)))
struct StandardStreamsTests {
    /// Runs the executable through `sh`, which applies `redirections` (e.g. `>&-`) and then execs it.
    static func shell(_ redirections: String) -> [String] {
        ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirections)"]
    }

    /// The server is serving: a page gets its welcome and `/healthz` answers.
    static func expectServing(_ server: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let page = try PlaygroundConnection(port: server.port)
        #expect(try page.hello().welcome["session"]?.string != nil, sourceLocation: sourceLocation)
        #expect(server.process.isRunning, sourceLocation: sourceLocation)
    }

    @Test func aClosedStandardOutputNeverStopsTheServer() throws {
        // Today's failure: the start line, written under `try!`, raises SIGILL (exit 132).
        let server = try ServerProcess(launcher: Self.shell(">&-"), fixedPort: ServerProcess.freePort())
        try Self.expectServing(server)
        #expect(server.stop(signal: SIGTERM) == 0)
    }

    @Test func aStandardOutputWhoseReaderHasGoneNeverStopsTheServer() throws {
        let server = try ServerProcess(output: .pipeWithoutReader, fixedPort: ServerProcess.freePort())
        try Self.expectServing(server)
        #expect(server.stop(signal: SIGTERM) == 0)
    }

    @Test func closedStandardDescriptorsAreHeldOnDevNull() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path], launcher: Self.shell("<&- 2>&-"))
        try Self.expectServing(server)
        // Otherwise the event log (or a trace) takes a free standard number, and notices meant for the
        // terminal land in it as plain text.
        for descriptor in [0, 2] {
            let target = try FileManager.default.destinationOfSymbolicLink(
                atPath: "/proc/\(server.process.processIdentifier)/fd/\(descriptor)")
            #expect(target == "/dev/null", "fd \(descriptor) is \(target)")
        }
        #expect(server.stop(signal: SIGTERM) == 0)
    }

    @Test func sighupShutsDownLikeSigterm() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        try page.geometry(seq: 1, offsetY: 100)
        _ = try page.next("state", where: { $0["ack"] == 1 })
        #expect(server.stop(signal: SIGHUP) == 0)
        #expect(try page.client.waitForClose() == 1001)
        #expect(server.waitForLine { $0.contains("\(session) sessionClosed code=1001 resumable=false") } != nil)
        // The trace holds the last geometry and the close.
        let trace = LogFolder.jsonLines(try String(contentsOfFile: folder.trace(session), encoding: .utf8))
        #expect(trace.first?["kind"] == "header")
        #expect(trace.contains { $0["kind"] == "input" && $0["message"]?["type"] == "geometry" })
        #expect(trace.contains { $0["kind"] == "closed" && $0["code"] == 1001 })
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// The disk under `--log-dir` fills, or the folder goes, while the server runs: a trace still ends at its
/// last whole line and replays, no trace is ever left empty or without its header, the page is told
/// (`recordingStopped`) and standard error says it once.
@Suite(.timeLimit(.minutes(10)))
struct DiskTroubleTests {
    static let bigPing = #"{"type":"ping","id":""# + String(repeating: "p", count: 4_000) + #""}"#

    /// Sends big pings (recorded whole) until a `state` says the recording stopped.
    static func fillUntilStopped(_ page: PlaygroundConnection, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> JSONValue
    {
        // Traces are written each second: a few seconds of pings reach any small limit.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            for _ in 0..<8 { try page.client.send(bigPing) }
            if let state = page.drain(timeout: .milliseconds(100)).first(where: {
                $0["type"] == "state" && $0["recordingStopped"] != nil
            }) {
                return state
            }
        }
        return try #require(nil as JSONValue?, "no state said the recording stopped", sourceLocation: sourceLocation)
    }

    /// The number of times `needle` occurs in `text`.
    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    // TSan's runtime dies of SIGBUS under any RLIMIT_FSIZE this small, in its own shadow memory, before the
    // server serves (seen without --log-dir too); the test runs in `make test` and `make test-asan`.
    @Test(.disabled(if: ServerProcess.isThreadSanitized, "TSan's runtime cannot start under RLIMIT_FSIZE"))
    func aWriteTheDiskRefusesEndsTheTraceAtItsLastWholeLine() throws {
        // A per-file size limit (RLIMIT_FSIZE, no root needed) refuses writes the way a full disk does:
        // the write that crosses it is partial, the next fails.
        let limit = 48 * 1024
        let folder = LogFolder()
        let server = try ServerProcess(
            ["--log-dir", folder.path, "--max-log-bytes", "0"],
            launcher: ["/usr/bin/prlimit", "--fsize=\(limit)", "--"])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        for seq in 1...3 { try page.geometry(seq: seq, offsetY: Double(seq * 10)) }
        _ = folder.waitForFile(folder.trace(session)) { $0.contains("\"seq\":3") }
        let state = try Self.fillUntilStopped(page)
        #expect(state["recordingStopped"]?.string?.contains("could not be written") == true, "\(state)")
        #expect(server.process.isRunning, "the server must outlive a refused write")

        let stderr = try #require(server.waitForStderr { $0.contains("could not be written") })
        // More refused writes: still one line.
        for _ in 0..<8 { try page.client.send(Self.bigPing) }
        try page.settle()
        #expect(Self.count("could not be written", in: server.stderrText) == 1, "\(stderr)")

        let text = try String(contentsOfFile: folder.trace(session), encoding: .utf8)
        let lines = LogFolder.jsonLines(text)
        #expect(lines.first?["kind"] == "header")
        // What was written before the refused write is all there.
        #expect(lines.filter { $0["message"]?["type"] == "geometry" }.count == 3)
        #expect(text.utf8.count <= limit)
        print("trace left on a refused write: \(text.utf8.count) bytes (limit \(limit))")
        let replay = try runToCompletion(["replay", folder.trace(session), "--diff"])
        #expect(replay.status == 0, "\(replay.stdout.prefix(300)) \(replay.stderr.prefix(300))")
        #expect(server.stop() == 0)
    }

    /// Whether this process may mount a tmpfs (root on Linux); the full-disk test needs one.
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("sp-mount-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil,
            let status = try? runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]), status == 0
        else { return false }
        _ = try? runProgram("/bin/umount", [probe])
        return true
    }()

    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
    func aSessionOpenedOnAFullDiskLeavesNoEmptyTrace() throws {
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        #expect(try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", folder.path]) == 0)
        defer { _ = try? runProgram("/bin/umount", ["-l", folder.path]) }
        let server = try ServerProcess(["--log-dir", folder.path, "--max-log-bytes", "0"])
        let first = try PlaygroundConnection(port: server.port)
        let firstSession = try #require(try first.hello().welcome["session"]?.string)
        let state = try Self.fillUntilStopped(first)
        #expect(state["recordingStopped"]?.string?.contains("No space left on device") == true, "\(state)")
        // Whatever room the cut-back write freed is taken too: the disk is full.
        if let filler = fopen("\(folder.path)/filler", "w") {
            let block = [UInt8](repeating: 0x66, count: 512)
            while fwrite(block, 1, block.count, filler) == block.count {}
            while fwrite(block, 1, 1, filler) == 1 {}
            fclose(filler)
        }

        let second = try PlaygroundConnection(port: server.port)
        // The welcome has gone out when the file fails; the state after it (the first the page gets) says so.
        let (welcome, _, told) = try second.hello()
        let secondSession = try #require(welcome["session"]?.string)
        #expect(told["recordingStopped"]?.string?.contains("not recorded") == true, "\(told)")
        #expect(!FileManager.default.fileExists(atPath: folder.trace(secondSession)), "an empty trace was left")
        #expect(try HTTPProbe.get(port: server.port, path: "/api/sessions/\(secondSession)/trace").status == 404)

        let text = try String(contentsOfFile: folder.trace(firstSession), encoding: .utf8)
        #expect(LogFolder.jsonLines(text).first?["kind"] == "header")
        print("full 256 KiB tmpfs: the stopped trace holds \(text.utf8.count) bytes")
        #expect(server.stop() == 0)
        let replay = try runToCompletion(["replay", folder.trace(firstSession), "--diff"])
        #expect(replay.status == 0, "\(replay.stdout.prefix(300))")
    }

    @Test func aDeletedLogFolderNeverGetsAHeaderlessTrace() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path, "--log-format", "json"])
        let live = try PlaygroundConnection(port: server.port)
        _ = try #require(try live.hello().welcome["session"]?.string)
        let held = try PlaygroundConnection(port: server.port)
        let heldWelcome = try held.hello().welcome
        let heldSession = try #require(heldWelcome["session"]?.string)
        let token = try #require(heldWelcome["resume"]?.string)
        held.client.close()
        _ = try #require(server.waitForEvent("sessionClosed", of: heldSession))

        try FileManager.default.removeItem(atPath: folder.path)

        // The live session's trace is gone: its page is told within the next flush (each second).
        try live.geometry(seq: 1, offsetY: 100)
        let stopped = try live.next("state", timeout: .seconds(5), where: { $0["recordingStopped"] != nil })
        #expect(stopped["recordingStopped"]?.string?.contains("removed") == true, "\(stopped)")

        // The held session resumes, and its trace is not begun again without its header.
        let resumed = try PlaygroundConnection(port: server.port)
        try resumed.send(["type": "hello", "version": 1, "resume": .string(token)])
        _ = try resumed.next("welcome")
        try resumed.geometry(seq: 1, offsetY: 50)
        _ = try resumed.next("state", timeout: .seconds(5), where: { $0["recordingStopped"] != nil })
        let heldTrace = folder.trace(heldSession)
        if let text = try? String(contentsOfFile: heldTrace, encoding: .utf8) {
            Issue.record("the held session's trace was recreated: \(text.prefix(200))")
        }
        #expect(try HTTPProbe.get(port: server.port, path: "/api/sessions/\(heldSession)/trace").status == 404)

        // Standard error says it once; events go on in a new events.jsonl; a new session is recorded in full.
        let stderr = try #require(server.waitForStderr { $0.contains("was removed") })
        #expect(Self.count("trace of session", in: stderr) == 1, "\(stderr)")
        let fresh = try PlaygroundConnection(port: server.port)
        let freshSession = try #require(try fresh.hello().welcome["session"]?.string)
        fresh.client.close()
        let events = try #require(folder.waitForFile(folder.eventsFile) { $0.contains("\"\(freshSession)\"") })
        #expect(!LogFolder.jsonLines(events).isEmpty)
        #expect(server.stop() == 0)
        let trace = LogFolder.jsonLines(try String(contentsOfFile: folder.trace(freshSession), encoding: .utf8))
        #expect(trace.first?["kind"] == "header")
    }

    @Test func aTracesFolderThatCannotBeMadeIsSaidOnceAndInEveryWelcome() throws {
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: "\(folder.path)/traces", contents: Data("x".utf8)))
        let server = try ServerProcess(["--log-dir", folder.path])
        // Said at start, before any session.
        let atStart = try #require(server.waitForStderr { $0.contains("not recorded") })
        for _ in 0..<30 {
            let page = try PlaygroundConnection(port: server.port)
            let welcome = try page.hello().welcome
            #expect(welcome["recordingStopped"]?.string?.contains("cannot create") == true, "\(welcome)")
            page.client.close()
        }
        #expect(Self.count("not recorded", in: server.stderrText) == 1, "\(atStart)")
        #expect(server.stop() == 0)
    }
}

/// Runs `program` to completion; its exit status.
func runProgram(_ program: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

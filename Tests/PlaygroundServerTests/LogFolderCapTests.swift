import Foundation
import LWSClient
import ScrollCore
import Synchronization
import Testing

/// `--max-log-bytes`: whatever a client sends, the log folder stays under its cap; the oldest closed traces
/// go first, a live or resumable session's trace never goes, and what is recorded still replays exactly.
@Suite(.timeLimit(.minutes(10)))
struct LogFolderCapTests {
    /// A ping whose frame is just under the default `--max-message` (65536).
    static let bigPing = #"{"type":"ping","id":""# + String(repeating: "p", count: 64_000) + #""}"#
    /// Text that is not JSON and that JSON escaping would make six times larger.
    static let controlText = String(repeating: "\u{01}", count: 64_000)

    /// Bytes of every file under `path`, and the names of the trace files.
    static func folder(_ path: String) -> (bytes: Int, traces: [String]) {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var total = 0
        var traces: [String] = []
        while let name = enumerator?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: "\(path)/\(name)")
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            total += (attributes?[.size] as? Int) ?? 0
            if name.hasPrefix("traces/") { traces.append(String(name.dropFirst("traces/".count))) }
        }
        return (total, traces.sorted())
    }

    /// Every regular file under `path`: its inode and size.
    static func files(_ path: String) -> [String: (inode: Int, size: Int)] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String: (inode: Int, size: Int)] = [:]
        while let name = enumerator?.nextObject() as? String {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: "\(path)/\(name)"),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            files[name] = ((attributes[.systemFileNumber] as? Int) ?? 0, (attributes[.size] as? Int) ?? 0)
        }
        return files
    }

    /// The folder's size at one moment while the server writes and removes files in it, never more: the
    /// files of a first listing that a second one still finds (same inode), at their first sizes. Each of
    /// them existed from its first look to its second, so all of them between the two listings, at least
    /// that large (files only grow). Summing a single listing would count a trace removed during the
    /// listing together with the lines written in its place.
    static func bytesAtOneMoment(_ path: String) -> Int {
        let first = files(path)
        let second = files(path)
        return first.reduce(0) { total, file in
            second[file.key]?.inode == file.value.inode ? total + file.value.size : total
        }
    }

    /// Measures the folder every few milliseconds on its own thread until stopped; the largest size seen.
    final class FolderWatch {
        /// What the thread and the test share (the thread holds this, not the watch, so the watch can go).
        private final class Shared: Sendable {
            let state = Mutex((largest: 0, stopped: false))
        }
        private let shared = Shared()
        private let thread: Thread

        init(_ path: String) {
            let shared = shared
            thread = Thread {
                while !shared.state.withLock({ $0.stopped }) {
                    let bytes = LogFolderCapTests.bytesAtOneMoment(path)
                    shared.state.withLock { $0.largest = max($0.largest, bytes) }
                    usleep(5_000)
                }
            }
            thread.start()
        }

        deinit {
            shared.state.withLock { $0.stopped = true }
        }

        /// Stops watching (after one last measurement) and returns the largest size seen.
        func stop() -> Int {
            shared.state.withLock { $0.stopped = true }
            while !thread.isFinished { usleep(1_000) }
            return shared.state.withLock { $0.largest }
        }
    }

    /// Replays a trace with `--diff`: its first line of output.
    static func replayDiff(_ path: String) throws -> String {
        let replay = try runToCompletion(["replay", path, "--diff"])
        return String(replay.stdout.prefix(300))
    }

    @Test func aTenSecondFloodLeavesTheFolderUnderTheCapAndEveryTraceReplays() throws {
        let cap = 512 * 1024
        let folder = LogFolder()
        let server = try ServerProcess([
            "--log-dir", folder.path, "--log-format", "json", "--max-log-bytes", "\(cap)", "--resume-grace", "0.5",
        ])
        let watch = FolderWatch(folder.path)
        let ping = RawWebSocket.frame(opcode: 0x1, payload: Array(Self.bigPing.utf8))
        let control = RawWebSocket.frame(opcode: 0x1, payload: Array(Self.controlText.utf8))
        let hello = RawWebSocket.frame(opcode: 0x1, payload: Array(#"{"type":"hello","version":1}"#.utf8))
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        var sessions = 0
        var sentBytes = 0
        while ContinuousClock.now < deadline {
            guard let socket = try? RawWebSocket(port: server.port) else { continue }
            sessions += 1
            // Short sessions, and every other one floods big pings and text that is not JSON.
            var frames = [hello]
            if sessions % 2 == 0 { frames += [ping, control, ping, control] }
            for frame in frames {
                guard (try? socket.sendFrame(frame)) != nil else { break }
                sentBytes += frame.count
            }
            // The server's close comes after it has handled (and answered) everything sent before.
            try? socket.sendClose()
            _ = try? socket.receiveClose()
            socket.drop()
        }
        // Every session has been closed and expired, and its trace written, once the server has stopped.
        #expect(server.stop() == 0)
        let largest = watch.stop()
        let (bytes, traces) = Self.folder(folder.path)
        print(
            "10 s flood: \(sessions) sessions, \(sentBytes >> 20) MiB sent; log folder at most \(largest) bytes "
                + "(cap \(cap)), \(bytes) bytes and \(traces.count) traces at the end")
        #expect(largest <= cap)
        #expect(bytes <= cap)
        // A sanitizer build of the server handles far fewer.
        #expect(sessions > 20)
        // Recording stopped and went on many times; standard error said it once.
        #expect(server.stderrText.components(separatedBy: "the log folder is full").count <= 2, "\(server.stderrText)")
        // The oldest traces went, and each removal was logged.
        #expect(!traces.contains("s1.jsonl"))
        let removed = server.outputLines.compactMap { try? JSONParser.parse($0) }.filter {
            $0["name"] == "traceRemoved"
        }
        #expect(removed.first?["session"] == "s1")
        #expect(removed.first?["data"]?["reason"] == "maxLogBytes")
        // events.jsonl rotates within its share of the same budget.
        let share = cap / 16
        let logged = server.outputLines.filter { $0.hasPrefix("{") }.reduce(0) { $0 + $1.utf8.count + 1 }
        let eventFiles = ["events.jsonl", "events.1.jsonl"].map { "\(folder.path)/\($0)" }
        for file in eventFiles {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            #expect(size <= share, "\(file): \(size) bytes")
        }
        if logged > share { #expect(FileManager.default.fileExists(atPath: eventFiles[1])) }
        print("events logged: \(logged) bytes, each file's share \(share)")
        #expect(!traces.isEmpty)
        let flooded = traces.filter {
            let text = (try? String(contentsOfFile: "\(folder.path)/traces/\($0)", encoding: .utf8)) ?? ""
            return text.contains(#""type":"ping""#) && text.contains(#""text":"\u0001","bytes":64000"#)
        }
        print("\(flooded.count) of the traces left hold the big pings and the control characters")
        #expect(!flooded.isEmpty)
        // Replayed two at a time (the machine has two cores).
        let failures = Mutex<[String]>([])
        let directory = "\(folder.path)/traces"
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for trace in traces.enumerated().filter({ $0.offset % 2 == worker }).map(\.element) {
                let output = (try? Self.replayDiff("\(directory)/\(trace)")) ?? "replay did not run"
                if !output.hasPrefix("no differences") { failures.withLock { $0.append("\(trace): \(output)") } }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test func liveAndResumableTracesAreKeptAndRecordingStopsWithItsReason() throws {
        let cap = 1024 * 1024
        let folder = LogFolder()
        let server = try ServerProcess([
            "--log-dir", folder.path, "--log-format", "json", "--max-log-bytes", "\(cap)",
        ])
        let watch = FolderWatch(folder.path)
        let live = try PlaygroundConnection(port: server.port)
        let liveSession = try #require(try live.hello().welcome["session"]?.string)
        let held = try PlaygroundConnection(port: server.port)
        let heldWelcome = try held.hello().welcome
        let heldSession = try #require(heldWelcome["session"]?.string)
        held.client.close()
        _ = try #require(server.waitForEvent("sessionClosed", of: heldSession))

        // Sessions that fill the folder and stay resumable, until a new one is told it is not recorded.
        var recorded: [String] = [liveSession, heldSession]
        var refusedWelcome: JSONValue?
        for _ in 0..<200 {
            let page = try PlaygroundConnection(port: server.port)
            let welcome = try page.hello().welcome
            if welcome["recordingStopped"] != nil {
                refusedWelcome = welcome
                break
            }
            recorded.append(try #require(welcome["session"]?.string))
            for _ in 0..<4 { try page.client.send(Self.bigPing) }
            try page.settle()
            page.client.close()
        }
        let welcome = try #require(refusedWelcome, "no welcome said the session is not recorded")
        let reason = try #require(welcome["recordingStopped"]?.string)
        #expect(reason.contains("--max-log-bytes"))
        let notRecorded = try #require(welcome["session"]?.string)
        let stderr = try #require(server.waitForStderr { $0.contains("--max-log-bytes") })
        #expect(stderr.components(separatedBy: "--max-log-bytes").count == 2, "\(stderr)")

        // The live session's own lines stop next, and its page is told in `state`.
        var stopped: JSONValue?
        for _ in 0..<40 where stopped == nil {
            for _ in 0..<4 { try live.client.send(Self.bigPing) }
            stopped = try? live.next("state", timeout: .seconds(2)) { $0["recordingStopped"] != nil }
        }
        let state = try #require(stopped, "the live page was not told its recording stopped")
        #expect(state["recordingStopped"]?.string?.contains("--max-log-bytes") == true)

        // Nothing a resume needs was removed, and the held session still resumes.
        let (bytes, traces) = Self.folder(folder.path)
        #expect(traces == recorded.map { "\($0).jsonl" }.sorted())
        #expect(!traces.contains("\(notRecorded).jsonl"))
        let resumed = try PlaygroundConnection(port: server.port)
        #expect(try resumed.hello(resume: heldWelcome["resume"]?.string).welcome["session"]?.string == heldSession)
        #expect(server.stop() == 0)
        let largest = watch.stop()
        print(
            "recording stopped: log folder at most \(largest) bytes (cap \(cap)), \(bytes) bytes of \(traces.count) traces"
        )
        #expect(largest <= cap)
        for session in [liveSession, heldSession] {
            let output = try Self.replayDiff(folder.trace(session))
            #expect(output.hasPrefix("no differences"), "\(session): \(output)")
        }
    }

    @Test func anEarlierRunsTracesPastTheCapGoAtStart() throws {
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: "\(folder.path)/traces", withIntermediateDirectories: true)
        for (session, bytes) in [("s1", 600_000), ("s2", 600_000), ("s3", 100)] {
            try Data(count: bytes).write(to: URL(fileURLWithPath: folder.trace(session)))
        }
        let server = try ServerProcess([
            "--log-dir", folder.path, "--log-format", "json", "--max-log-bytes", "\(1024 * 1024)",
        ])
        let removed = try #require(server.waitForEvent("traceRemoved"))
        #expect(removed["session"] == "s1")
        #expect(removed["data"] == ["reason": "maxLogBytes", "bytes": 600_000, "maxLogBytes": 1_048_576])
        // Session ids still go on from the traces that are left.
        let page = try PlaygroundConnection(port: server.port)
        let welcome = try page.hello().welcome
        #expect(welcome["session"] == "s4")
        #expect(welcome["recordingStopped"] == nil)
        #expect(Self.folder(folder.path).traces == ["s2.jsonl", "s3.jsonl", "s4.jsonl"])
    }

    @Test func textThatIsNotJSONIsRecordedEscapedOnceNotExpanded() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        try page.client.send(Self.controlText)
        #expect(try page.next("error")["code"] == "bad_json")
        // Not JSON late in the text: everything before the offending byte is kept.
        let late = #"{"type":"ping","id":""# + String(repeating: "a", count: 1000) + "\u{01}" + "\u{02}"
        try page.client.send(late)
        #expect(try page.next("error")["code"] == "bad_json")
        page.client.close()
        let trace = try #require(
            folder.waitForFile(folder.trace(session)) { $0.contains(#""kind":"closed""#) })
        print("64,000 control characters sent, trace \(trace.utf8.count) bytes")
        #expect(trace.utf8.count < 8 * 1024)
        let texts = LogFolder.jsonLines(trace).compactMap { $0["text"]?.string }
        // Compared by size: a failure must not print 64,000 escapes.
        #expect(texts.map(\.utf8.count) == [1, late.utf8.count - 1])
        #expect(texts.first == "\u{01}" && texts.last == String(late.dropLast()))
        let output = try Self.replayDiff(folder.trace(session))
        #expect(output.hasPrefix("no differences"), "\(output)")
        _ = server
    }
}

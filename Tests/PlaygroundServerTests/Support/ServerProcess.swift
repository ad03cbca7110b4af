import Foundation
import LWSClient
import ScrollCore
import SocketTestSupport
import SystemCalls
import Testing

/// The real `scroll-playground` executable, started on a free port for one test.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `port` is set once in init; what the server wrote is guarded by `condition`.
    let process = Process()
    private(set) var port = 0
    private let condition = NSCondition()
    private var lines: [String] = []
    private var errorText = ""
    private var finished = false
    private var outputClosed = false
    private var outputPaused = false

    /// The built executable next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("scroll-playground")
    }

    /// Set by `make test-asan` / `make test-tsan`: the executable is sanitized and several times slower.
    static let isSanitized = ProcessInfo.processInfo.environment["SCROLL_PLAYGROUND_SANITIZER"] != nil
    static let isThreadSanitized = ProcessInfo.processInfo.environment["SCROLL_PLAYGROUND_SANITIZER"] == "thread"

    /// The package root, for `Public/`.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// What the server's standard output is.
    enum Output {
        /// A pipe the test reads: the start line tells the port.
        case pipe
        /// A pipe whose reader has already gone: every write fails with EPIPE.
        case pipeWithoutReader
    }

    /// Starts the server with `arguments` and waits (bounded) for its start line.
    /// `launcher` runs the executable through another program, e.g. `["/usr/bin/prlimit", "--nofile=64:64", "--"]`
    /// (which execs it, so ``process``'s pid is the server's). With an `output` that shows no start line
    /// (or a launcher that closes stdout, `fixedPort` set), the server listens on `fixedPort` and is ready
    /// once `/healthz` answers there.
    init(
        _ arguments: [String] = [], launcher: [String] = [], output outputKind: Output = .pipe, fixedPort: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let serverArguments =
            ["--port", String(fixedPort ?? 0), "--public", Self.packageRoot.appendingPathComponent("Public").path]
            + arguments
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [Self.executable.path] + serverArguments
        } else {
            process.executableURL = Self.executable
            process.arguments = serverArguments
        }
        let output = Pipe()
        let errors = Pipe()
        switch outputKind {
        case .pipe:
            process.standardOutput = output
            Self.readToEnd(output.fileHandleForReading) { [weak self] data in
                guard let self else { return false }
                self.append(data)
                return true
            }
        case .pipeWithoutReader:
            try output.fileHandleForReading.close()
            process.standardOutput = output.fileHandleForWriting
        }
        process.standardError = errors
        Self.readToEnd(errors.fileHandleForReading) { [weak self] data in
            guard let self else { return false }
            self.condition.lock()
            self.errorText += String(decoding: data, as: UTF8.self)
            self.condition.broadcast()
            self.condition.unlock()
            return true
        }
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            self.condition.lock()
            self.finished = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
        if case .pipeWithoutReader = outputKind { try output.fileHandleForWriting.close() }
        if let fixedPort {
            port = fixedPort
            try #require(
                Self.waitForHealth(port: fixedPort, while: { self.process.isRunning }),
                "no answer on port \(fixedPort); stderr: \(stderrText)", sourceLocation: sourceLocation)
            return
        }
        let startLine = try #require(
            waitForLine(where: { $0.hasPrefix("Scroll Playground on http://") }),
            "no start line; stderr: \(stderrText)", sourceLocation: sourceLocation)
        port = try #require(Int(startLine.split(separator: ":").last ?? ""), sourceLocation: sourceLocation)
    }

    /// A port that was free a moment ago, for a server that cannot say which one it took.
    static func freePort() throws -> Int {
        try LoopbackSocket.freePort()
    }

    /// Waits (at most 20 s, while `alive`) until `/healthz` answers 200 on `port`.
    static func waitForHealth(port: Int, while alive: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline && alive() {
            if (try? HTTPProbe.get(port: port, path: "/healthz", timeout: .seconds(1)).status) == 200 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    private var pending = ""

    /// Reads `handle` to its end on a thread of its own, handing each chunk to `take` (an empty one at the end)
    /// until it returns false. Not `readabilityHandler`: its dispatch source on a pipe can crash libdispatch's
    /// event loop on Linux (`_dispatch_event_loop_drain`, swift-corelibs-foundation #3276), taking the whole
    /// test run down with it.
    static func readToEnd(_ handle: FileHandle, take: @escaping @Sendable (Data) -> Bool) {
        Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { bytes in
                    (try? Syscall.read(handle.fileDescriptor, into: bytes).get()) ?? 0
                }
                guard take(Data(buffer[..<count])), count > 0 else { return }
            }
        }.start()
    }

    /// Stops reading the server's standard output: it becomes a pipe nobody drains, like a paused terminal.
    /// (A read already waiting takes one more chunk.)
    func stopReadingOutput() {
        condition.lock()
        outputPaused = true
        condition.unlock()
    }

    /// Reads the server's standard output again.
    func resumeReadingOutput() {
        condition.lock()
        outputPaused = false
        condition.broadcast()
        condition.unlock()
    }

    /// The server's resident memory, from /proc.
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The server's open file descriptors, from /proc.
    var openDescriptorCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count) ?? 0
    }

    /// Takes a chunk of standard output, and waits before the next read while reading is stopped.
    private func append(_ data: Data) {
        condition.lock()
        defer { condition.unlock() }
        if data.isEmpty { outputClosed = true }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
            lines.append(String(pending[..<newline]))
            pending = String(pending[pending.index(after: newline)...])
        }
        condition.broadcast()
        while outputPaused && !finished { condition.wait() }
    }

    /// Everything the server wrote to stderr so far.
    var stderrText: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    /// Waits up to `timeout` for stderr to satisfy `predicate`; the stderr text then, or nil.
    func waitForStderr(timeout: TimeInterval = 10, where predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(errorText) {
            guard condition.wait(until: deadline) else { return predicate(errorText) ? errorText : nil }
        }
        return errorText
    }

    /// Standard output lines so far.
    var outputLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// The first stdout line matching `predicate`, waiting up to `timeout`.
    func waitForLine(timeout: TimeInterval = 10, where predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: predicate) { return line }
            if outputClosed { return nil }
            guard condition.wait(until: deadline) else { return lines.first(where: predicate) }
        }
    }

    /// The first event named `name` (of `session`, matching `predicate`) on standard output, for a server
    /// started with `--log-format json`.
    func waitForEvent(
        _ name: String, of session: String? = nil, timeout: TimeInterval = 10,
        where predicate: (JSONValue) -> Bool = { _ in true }
    ) -> JSONValue? {
        func matches(_ event: JSONValue) -> Bool {
            event["name"]?.string == name && (session == nil || event["session"]?.string == session) && predicate(event)
        }
        return waitForLine(timeout: timeout) { line in (try? JSONParser.parse(line)).map(matches) ?? false }
            .flatMap { try? JSONParser.parse($0) }
    }

    /// Sends `signal` and waits (bounded) for the exit status.
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !finished {
            guard condition.wait(until: deadline) else { break }
        }
        let done = finished
        condition.unlock()
        guard done else {
            process.terminate()
            return nil
        }
        // The termination handler can run before the last output is read; drain it.
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // Under `make test-asan`/`test-tsan` the executable is instrumented too; its reports go to stderr.
        if let report = stderrText.range(of: "Sanitizer") {
            Issue.record("the server reported a sanitizer finding:\n\(stderrText[report.lowerBound...].prefix(4000))")
        }
    }
}

/// Runs the executable to completion (for flag errors and --help): its exit code, stdout and stderr. Past
/// `timeout` it is stopped, and what it wrote by then is returned.
func runToCompletion(
    _ arguments: [String], in directory: URL = ServerProcess.packageRoot, timeout: TimeInterval = 20
) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    let process = Process()
    process.executableURL = ServerProcess.executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let written = ChildOutput(output, errors)
    if !written.waitForEnds(until: Date(timeIntervalSinceNow: timeout)) {
        process.terminate()
        _ = written.waitForEnds(until: Date(timeIntervalSinceNow: 5))  // what it wrote before it stopped
    }
    process.waitUntilExit()
    return (process.terminationStatus, written.text(0), written.text(1))
}

/// What a child writes to its pipes, each read to its end on a thread of its own: read one after the other,
/// a child that fills the second pipe (64 KiB) while the first is read never finishes.
private final class ChildOutput: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: [Data]
    private var open: Int

    init(_ pipes: Pipe...) {
        data = Array(repeating: Data(), count: pipes.count)
        open = pipes.count
        for (index, pipe) in pipes.enumerated() {
            ServerProcess.readToEnd(pipe.fileHandleForReading) { chunk in
                self.condition.lock()
                defer { self.condition.unlock() }
                if chunk.isEmpty {
                    self.open -= 1
                    self.condition.broadcast()
                } else {
                    self.data[index].append(chunk)
                }
                return true
            }
        }
    }

    /// Waits until every pipe has ended (the child closed them, by exiting) or `deadline`: whether they ended.
    func waitForEnds(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while open > 0 {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    func text(_ index: Int) -> String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data[index], as: UTF8.self)
    }
}

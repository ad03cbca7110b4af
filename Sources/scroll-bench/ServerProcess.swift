import Foundation
import LWSTransport
import Synchronization
import SystemCalls

/// A `scroll-playground` the bench started: its pid and port. Its standard output (the start line, then
/// one JSON line per event) is read and discarded on a thread of its own, so the server never blocks
/// on a full pipe; the tail of its standard error is kept to explain a failure.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `pid`, `port` and the times are set in init; `errorTail` sits behind a mutex.
    let pid: ProcessID
    let port: Int
    /// Monotonic time just before `posix_spawn`, and when the start line was read.
    let spawnedAt: UInt64
    let announcedAt: UInt64
    private var drainThread: ServiceThread?
    private let tap = OutputTap()
    private var exited = false

    /// The server next to this executable (both live in `.build/<configuration>/`).
    static var defaultExecutable: String {
        guard let path = selfExecutable else { return ".build/release/scroll-playground" }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/scroll-playground"
    }

    /// This executable's path (to start the floor's server side), nil if /proc cannot tell.
    static var selfExecutable: String? {
        Syscall.linkTarget("/proc/self/exe")
    }

    /// Whether `executable --help` names `flag`: an older build, measured against a newer one, may not know
    /// a flag the bench would pass.
    static func knows(_ flag: String, executable: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let help = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: help, as: UTF8.self).contains(flag)
    }

    /// Starts `executable --port 0 --log-format json` plus `arguments`, and waits for its start line.
    convenience init(executable: String, arguments: [String], timeoutSeconds: Double = 20) throws(BenchError) {
        try self.init(
            command: [executable, "--port", "0", "--log-format", "json"] + arguments,
            announcement: "Scroll Playground on ", timeoutSeconds: timeoutSeconds)
    }

    /// Starts `command` (an executable and its arguments) and waits for its start line: `announcement`,
    /// then anything ending in `:PORT` (`goref on http://127.0.0.1:8292`).
    init(command: [String], announcement: String, timeoutSeconds: Double = 20) throws(BenchError) {
        let executable = command[0]
        let output: (read: Int32, write: Int32)
        let errors: (read: Int32, write: Int32)
        switch (Syscall.pipe(), Syscall.pipe()) {
        case (.success(let first), .success(let second)):
            (output, errors) = (first, second)
        case (.failure(let error), _), (_, .failure(let error)):
            throw BenchError("pipe: \(error.message)")
        }
        // Every pipe end closes at exec but the child's 1 and 2 (spawn's dup2 clears the flag on those).
        for fd in [output.read, output.write, errors.read, errors.write] { Syscall.setCloseOnExec(fd) }
        spawnedAt = Monotonic.now()
        let spawned = Syscall.spawn(command, output: output.write, errors: errors.write)
        Syscall.close(output.write)
        Syscall.close(errors.write)
        let child: ProcessID
        switch spawned {
        case .success(let spawnedPID):
            child = spawnedPID
        case .failure(let error):
            Syscall.close(output.read)
            Syscall.close(errors.read)
            throw BenchError("cannot start \(executable): \(error.message)")
        }
        pid = child
        ServerProcess.register(child)

        // The start line, e.g. "Scroll Playground on http://127.0.0.1:PORT".
        var line: [UInt8] = []
        var leftover: [UInt8] = []
        let deadline = spawnedAt + UInt64(timeoutSeconds * 1e9)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !line.contains(0x0A) {
            let remaining = deadline > Monotonic.now() ? Int32((deadline - Monotonic.now()) / 1_000_000) : 0
            var descriptors = [pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)]
            let ready = Syscall.poll(&descriptors, timeoutMilliseconds: max(1, remaining))
            if (try? ready.get()) ?? 0 <= 0, Monotonic.now() >= deadline { break }
            let read = buffer.withUnsafeMutableBytes { Syscall.read(output.read, into: $0) }
            guard case .success(let count) = read, count > 0 else { break }
            line += buffer[..<count]
        }
        announcedAt = Monotonic.now()
        if let newline = line.firstIndex(of: 0x0A) {
            leftover = Array(line[(newline + 1)...])
            line = Array(line[..<newline])
        }
        let text = String(decoding: line, as: UTF8.self)
        let port = text.split(separator: ":").last.flatMap { Int($0.trimmingSpaces) }
        let tap = self.tap
        tap.outputBytes.store(leftover.count, ordering: .relaxed)
        let descriptors = (output.read, errors.read)
        drainThread = ServiceThread { tap.drain(output: descriptors.0, errors: descriptors.1) }
        guard text.hasPrefix(announcement), let port else {
            self.port = 0
            terminate()
            throw BenchError(
                "\(executable) did not start: \(text.isEmpty ? "no start line" : text) \(standardErrorTail)")
        }
        self.port = port
    }

    /// What the server wrote to standard error lately (at most 2 KiB).
    var standardErrorTail: String {
        String(decoding: tap.errorTail.withLock { $0 }, as: UTF8.self)
    }

    /// Bytes of terminal output (event lines) the server wrote.
    var terminalOutputBytes: Int { tap.outputBytes.load(ordering: .relaxed) }

    /// SIGTERM, then SIGKILL after `graceSeconds`; waits for the exit and the output drain.
    func terminate(graceSeconds: Double = 10) {
        guard !exited else { return }
        exited = true
        Syscall.signal(pid, SIGTERM)
        let deadline = Monotonic.now() + UInt64(graceSeconds * 1e9)
        while !Syscall.reap(pid, blocking: false) {
            if Monotonic.now() > deadline {
                Syscall.signal(pid, SIGKILL)
                Syscall.reap(pid, blocking: true)
                break
            }
            Monotonic.sleep(seconds: 0.005)
        }
        ServerProcess.unregister(pid)
        drainThread?.join()
        drainThread = nil
    }

    deinit {
        terminate()
    }

    // MARK: Cleanup on Ctrl-C

    /// Servers to end if the bench is interrupted (read by the signal handler).
    nonisolated(unsafe) private static var running: (ProcessID, ProcessID) = (0, 0)

    private static func register(_ pid: ProcessID) {
        if running.0 == 0 { running.0 = pid } else { running.1 = pid }
        installSignalHandlers()
    }

    private static func unregister(_ pid: ProcessID) {
        if running.0 == pid { running.0 = 0 }
        if running.1 == pid { running.1 = 0 }
    }

    nonisolated(unsafe) private static var handlersInstalled = false

    private static func installSignalHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        for signalNumber in [SIGINT, SIGTERM] {
            // Only async-signal-safe calls here: kill and _exit.
            Syscall.handle(signalNumber) { number in
                if ServerProcess.running.0 > 0 { Syscall.signal(ServerProcess.running.0, SIGKILL) }
                if ServerProcess.running.1 > 0 { Syscall.signal(ServerProcess.running.1, SIGKILL) }
                Syscall.exitImmediately(128 + number)
            }
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.last == " " || text.last == "\r" { text.removeLast() }
        return text
    }
}

/// The server's output, read on a thread of its own: standard output is counted and dropped, the
/// tail of standard error is kept.
final class OutputTap: Sendable {
    let errorTail = Mutex<[UInt8]>([])
    let outputBytes = Atomic<Int>(0)

    func drain(output: Int32, errors: Int32) {
        var descriptors = [
            pollfd(fd: output, events: Int16(POLLIN), revents: 0),
            pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var open = 2
        while open > 0 {
            guard case .success = Syscall.poll(&descriptors, timeoutMilliseconds: -1) else { break }
            for index in 0..<2 where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let read = buffer.withUnsafeMutableBytes { Syscall.read(descriptors[index].fd, into: $0) }
                let count = (try? read.get()) ?? 0
                if count <= 0 {
                    Syscall.close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                } else if index == 0 {
                    outputBytes.add(count, ordering: .relaxed)
                } else {
                    errorTail.withLock { tail in
                        tail.append(contentsOf: buffer[..<count])
                        if tail.count > 2048 { tail.removeFirst(tail.count - 2048) }
                    }
                }
            }
        }
    }
}

/// A bench that could not run (the server did not start, a connection could not be made, …).
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// What `/proc` tells about a process: CPU time and memory.
struct ProcessSample {
    /// User + system CPU seconds so far.
    var cpuSeconds: Double { userSeconds + systemSeconds }
    /// CPU seconds in the process itself, and in the kernel on its behalf (system calls: socket I/O, poll).
    var userSeconds: Double
    var systemSeconds: Double
    /// Resident set now, in KiB (`VmRSS`).
    var rssKiB: Int
    /// Peak resident set, in KiB (`VmHWM`).
    var peakRSSKiB: Int

    /// Reads `/proc/PID/stat` and `/proc/PID/status`; nil if the process is gone.
    init?(pid: ProcessID) {
        guard let stat = Self.read("/proc/\(pid)/stat"), let status = Self.read("/proc/\(pid)/status") else {
            return nil
        }
        // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 2)...].split(separator: UInt8(ascii: " "))
        // Fields 14 and 15 (utime, stime) are the 12th and 13th after the parenthesis.
        guard fields.count > 13, let user = Int(String(decoding: fields[11], as: UTF8.self)),
            let system = Int(String(decoding: fields[12], as: UTF8.self))
        else { return nil }
        let ticks = Double(Syscall.clockTicksPerSecond)
        userSeconds = Double(user) / ticks
        systemSeconds = Double(system) / ticks
        let text = String(decoding: status, as: UTF8.self)
        func kibibytes(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }
        rssKiB = kibibytes("VmRSS")
        peakRSSKiB = kibibytes("VmHWM")
    }

    /// The whole of a (small) file, nil if it cannot be opened.
    static func read(_ path: String) -> [UInt8]? {
        guard case .success(let fd) = Syscall.openForReading(path) else { return nil }
        defer { Syscall.close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let read = buffer.withUnsafeMutableBytes { Syscall.read(fd, into: $0) }
            guard case .success(let count) = read, count > 0 else { break }
            result += buffer[..<count]
        }
        return result
    }
}

/// Raises the open-file limit to its hard maximum (the server the bench spawns inherits it) and checks it leaves room for `sessions` sockets (plus the server's own files).
func ensureFileLimit(for sessions: Int) throws {
    let fileLimit = FileDescriptorLimit.raiseSoftLimitToHard()
    guard sessions + 64 <= fileLimit else {
        throw BenchError("\(sessions) sessions need more open files than the limit of \(fileLimit) (ulimit -n)")
    }
}

/// The 1-minute load average, to show how busy the machine was.
func loadAverage() -> Double {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) > 0 ? loads[0] : -1
}

/// The whole machine's CPU time from `/proc/stat`, in seconds summed over every core.
struct MachineSample {
    var busySeconds: Double
    var idleSeconds: Double
    /// Time a hypervisor gave this machine's virtual CPUs to someone else.
    var stealSeconds: Double

    init?() {
        guard let bytes = ProcessSample.read("/proc/stat"),
            let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 8 else { return nil }
        let ticks = Double(Syscall.clockTicksPerSecond)
        // user nice system idle iowait irq softirq steal
        busySeconds = (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / ticks
        idleSeconds = (fields[3] + fields[4]) / ticks
        stealSeconds = fields[7] / ticks
    }
}

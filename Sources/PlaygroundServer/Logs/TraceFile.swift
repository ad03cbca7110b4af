import Foundation
import ScrollCore
import SystemCalls

/// `traces/SESSION.jsonl` under `--log-dir`: the session's `Trace` (format in docs/traces.md), written
/// as it happens so `scroll-playground replay` can run it through ScrollCore again.
///
/// The file is created only once the session is accepted (a refused `hello` leaves none), always new (one
/// session per file, ever), and held open only while the session's page is connected, so sessions held
/// for resume take no descriptor. Every write is taken from the log folder's ``LogBudget`` first: one that
/// does not fit stops the trace for good, so it ends after a whole input, as after a crash, and replays.
/// A write the disk refuses (full, gone) is undone to the last whole line and stops the trace the same way;
/// a file that was removed is never created again, since it would lack its header.
final class TraceFile {
    /// Why a trace stopped before its session ended.
    enum StopReason: Equatable {
        /// The log folder reached `--max-log-bytes` with only live or resumable sessions' traces.
        case logFolderFull
        /// The disk refused a write (`strerror`'s text, e.g. "No space left on device").
        case writeFailed(String)
        /// The file (or the whole log folder) was removed while the session went on.
        case removed
    }

    let path: String
    /// Open while the session's page is connected.
    private var descriptor: Int32?
    /// Lines not yet written. Written in whole with one `write(2)` between inputs, so even a `kill -9`
    /// leaves a trace that ends after a complete input and all of its decisions: it replays exactly.
    private var pending: [UInt8] = []
    private var created = false
    private var budget: LogBudget?
    /// Bytes written to the file.
    private(set) var writtenBytes = 0
    /// Why nothing more is recorded, when the trace stopped before its session ended.
    private(set) var stopReason: StopReason?
    /// The trace stopped before its session ended: nothing more is recorded.
    var isStopped: Bool { stopReason != nil }
    /// The session has ended: nothing more is recorded, and the file may be removed.
    private var isFinished = false

    /// Bytes recorded and not yet written.
    var pendingBytes: Int { pending.count }

    init(directory: String, header: Trace.Header) {
        path = "\(directory)/traces/\(header.session).jsonl"
        pending = header.jsonLine(adding: ["time": .string(WallClock.iso8601Now())])
    }

    deinit {
        close()
    }

    /// Whether lines are still recorded.
    private var isRecording: Bool { !isStopped && !isFinished }

    func record(_ line: Trace.Line) {
        guard isRecording else { return }
        pending += line.jsonLine
    }

    /// An input line around the message's bytes as received, so a replay decodes exactly what the server
    /// did. Newlines in JSON can only be whitespace between tokens; they become spaces to keep one line.
    /// Text that is not JSON is kept only up to where it stops being JSON (``RefusedText``), with `bytes`
    /// saying how long it was: JSON escaping would make control characters six times larger.
    func recordInput(_ bytes: [UInt8], isJSON: Bool, at time: Int64) {
        guard isRecording else { return }
        pending += #"{"kind":"input","t":"#.utf8
        pending += String(time).utf8
        if isJSON {
            pending += #","message":"#.utf8
            Self.appendOnOneLine(bytes, to: &pending)
        } else {
            let kept = RefusedText.decidingPart(of: bytes)
            var writer = JSONWriter(capacity: kept.count + 16)
            writer.string(String(decoding: kept, as: UTF8.self))
            pending += #","text":"#.utf8
            pending += writer.bytes
            if kept.count < bytes.count {
                pending += #","bytes":"#.utf8
                pending += String(bytes.count).utf8
            }
        }
        pending += "}\n".utf8
    }

    /// Appends `bytes` with each newline (LF or CR) made a space. A page's messages hold none: `memchr` finds
    /// that at memory speed and the bytes go over in one copy (a per-byte `map` was a sixth of a geometry
    /// message's cost when recording).
    private static func appendOnOneLine(_ bytes: [UInt8], to pending: inout [UInt8]) {
        let start = pending.count
        pending += bytes
        let hasNewline = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            return memchr(base, 0x0A, raw.count) != nil || memchr(base, 0x0D, raw.count) != nil
        }
        guard hasNewline else { return }
        for index in start..<pending.count where pending[index] == 0x0A || pending[index] == 0x0D {
            pending[index] = 0x20
        }
    }

    /// Lines encoded elsewhere (a fork's, off the service thread), each ending with a newline.
    func recordEncoded(_ lines: [UInt8]) {
        pending += lines
    }

    /// A decision line around the event record's bytes, as the event log encoded them.
    func recordDecision(_ recordBytes: [UInt8], at time: Int64) {
        guard isRecording else { return }
        pending += #"{"kind":"decision","t":"#.utf8
        pending += String(time).utf8
        pending += #","event":"#.utf8
        pending += recordBytes
        pending += "}\n".utf8
    }

    /// Creates the file with what was recorded so far and keeps it open, if the budget admits a new trace
    /// (false, and no file, if not). Fails if the file exists: a trace never mixes two sessions.
    func create(within budget: LogBudget?) throws -> Bool {
        if let budget, !budget.admitsNewTrace(bytes: pending.count) { return false }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        descriptor = try Self.open(path, create: true)
        created = true
        self.budget = budget
        flush()
        if case .writeFailed(let reason) = stopReason {
            // Not even the header fits: no empty or headerless trace is left behind.
            if let descriptor { Syscall.close(descriptor) }
            descriptor = nil
            Syscall.removeFile(path)
            throw ServerStartError("cannot write \(path): \(reason)")
        }
        return true
    }

    /// Opens the file again: the page resumed. A file that is gone stops the trace.
    func reopen() {
        guard created, descriptor == nil, isRecording else { return }
        do {
            descriptor = try Self.open(path, create: false)
        } catch {
            if error.code == ENOENT { stop(.removed) }
        }
    }

    /// Writes everything out and records nothing more: the session has ended. Its size, for the budget.
    func finish() -> Int {
        close()
        isFinished = true
        return writtenBytes
    }

    /// Writes everything out and releases the descriptor; later lines wait in memory until the next flush.
    func close() {
        flush()
        if let descriptor { Syscall.close(descriptor) }
        descriptor = nil
    }

    /// Writes everything recorded so far to the file, open or not; if the budget has no room for it, the
    /// trace stops here instead. A write the disk refuses is cut back to the last whole line, and the trace
    /// stops there too: a torn line would make the whole trace unreadable.
    func flush() {
        guard created, isRecording, !pending.isEmpty else { return }
        // A held session's trace is opened just for the write (never created: it would lack its header);
        // if that fails for another reason the lines wait for the next flush.
        let target: Int32
        if let descriptor {
            target = descriptor
        } else {
            do {
                target = try Self.open(path, create: false)
            } catch {
                if error.code == ENOENT { stop(.removed) }
                return
            }
        }
        defer { if descriptor == nil { Syscall.close(target) } }
        guard case .success(let status) = Syscall.status(target), status.st_nlink > 0 else {
            stop(.removed)
            return
        }
        guard budget?.take(pending.count) ?? true else {
            stop(.logFolderFull)
            return
        }
        if case .failure(let error) = writeAll(pending, to: target) {
            let reason = error.message
            // Appending only, so the file ended at the last whole line before this write.
            Syscall.truncate(target, to: Int(status.st_size))
            budget?.giveBack(pending.count)
            stop(.writeFailed(reason))
            return
        }
        writtenBytes += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    private func stop(_ reason: StopReason) {
        stopReason = reason
        pending = []
    }

    /// Why a trace file could not be opened.
    struct OpenError: Error, CustomStringConvertible {
        let path: String
        /// The `errno` of `open(2)`.
        let code: Int32
        var description: String { "cannot write \(path): \(Errno(code: code).message)" }
    }

    /// Opens the trace for appending: created new (never an existing one: a trace never mixes two
    /// sessions), or only if it still exists.
    private static func open(_ path: String, create: Bool) throws(OpenError) -> Int32 {
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0)
        switch Syscall.open(path, flags: flags) {
        case .success(let descriptor): return descriptor
        case .failure(let error): throw OpenError(path: path, code: error.code)
        }
    }
}

import Foundation
import ScrollCore

/// Stamps the core's log entries into event records and fans them out: the terminal, a bounded
/// in-memory ring for `/api/events`, and `events.jsonl` under `--log-dir`. Each record is encoded once
/// and its bytes shared by every sink.
///
/// Confined to the service thread.
final class EventLog {
    /// Bytes of encoded records the ring keeps at most, besides its count limit (events are at most about
    /// 4.5 KiB each, ``LogEntry/maxDataBytes`` of data and the record's own fields).
    static let defaultRingBytes = 16 * 1024 * 1024

    /// A record as the ring keeps it: what `/api/events` filters on, and its encoding.
    struct Stored {
        let seq: Int
        let session: String
        let bytes: [UInt8]
    }

    private let terminal: (format: LogFormat, writer: TerminalWriter)?
    private let ringCapacity: Int
    private let ringByteCapacity: Int
    private var ring: [Stored] = []
    private var ringStart = 0
    private var ringBytes = 0
    private var nextSeq = 1
    private let eventsFile: LogFile?

    /// - Parameters:
    ///   - terminal: the format of standard output lines, or nil for none (tests, benchmarks).
    ///   - logDirectory: where `events.jsonl` goes, if anywhere. An existing file is continued: `seq`
    ///     goes on from its last record, and a last line cut off by a crash is removed first.
    init(terminal: LogFormat?, ringCapacity: Int, ringByteCapacity: Int = defaultRingBytes, logDirectory: String?) throws {
        self.terminal = terminal.map { ($0, TerminalWriter()) }
        self.ringCapacity = max(1, ringCapacity)
        self.ringByteCapacity = max(1, ringByteCapacity)
        guard let directory = logDirectory else {
            eventsFile = nil
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ServerStartError("cannot create \(directory): \(error.localizedDescription)")
        }
        let path = "\(directory)/events.jsonl"
        let tail = try EventsFileTail.prepare(path: path)
        if tail.cutBytes > 0 {
            StandardError.writeLine(
                "scroll-playground: \(path): removed a last line cut off by a crash (\(tail.cutBytes) bytes)")
        }
        nextSeq = tail.lastSeq + 1
        eventsFile = try LogFile(path: path, lineBuffered: true)
    }

    /// Stamps `entry` with the next server-wide seq and the wall-clock time, and writes it everywhere.
    /// Returns the record's encoding, for the other places it goes (the trace, the page).
    @discardableResult
    func record(_ entry: LogEntry, session: String) -> [UInt8] {
        let record = EventRecord(seq: nextSeq, time: WallClock.iso8601Now(), session: session, entry: entry.asLogged)
        nextSeq += 1
        let bytes = record.encoded()
        append(Stored(seq: record.seq, session: session, bytes: bytes))
        eventsFile?.writeLine(bytes)
        switch terminal {
        case (.text, let writer)?: writer.writeLine(Array(TextLogFormatter.line(for: record).utf8))
        case (.json, let writer)?: writer.writeLine(bytes)
        case nil: break
        }
        return bytes
    }

    private func append(_ stored: Stored) {
        ring.append(stored)
        ringBytes += stored.bytes.count
        // The oldest go until both the count and the bytes fit (the newest record always stays).
        while ring.count - ringStart > ringCapacity || (ringBytes > ringByteCapacity && ring.count - ringStart > 1) {
            ringBytes -= ring[ringStart].bytes.count
            ringStart += 1
        }
        // Evicted records are dropped in batches, so eviction stays O(1) on average.
        if ringStart >= 1024, ringStart * 2 >= ring.count {
            ring.removeFirst(ringStart)
            ringStart = 0
        }
    }

    /// One answer of `/api/events`: records oldest first, and whether more matched than it holds.
    struct Page {
        var records: [[UInt8]] = []
        var byteCount = 0
        /// The `seq` of the last record in the answer: where the next request continues (`after`).
        var lastSeq: Int?
        /// More records matched than `limit` or `maxBytes` let in.
        var hasMore = false
    }

    /// The ring's records filtered by session and by `seq > after`, oldest first: at most `limit` of them
    /// and at most `maxBytes` of encoded records (but always at least one), so one answer cannot hold the
    /// service thread for long.
    func events(session: String?, after: Int, limit: Int, maxBytes: Int) -> Page {
        var page = Page()
        for stored in ring[ringStart...] {
            guard stored.seq > after, session == nil || stored.session == session else { continue }
            guard page.records.count < limit, page.records.isEmpty || page.byteCount + stored.bytes.count <= maxBytes else {
                page.hasMore = true
                break
            }
            page.records.append(stored.bytes)
            page.byteCount += stored.bytes.count
            page.lastSeq = stored.seq
        }
        return page
    }

    /// Writes buffered lines out.
    func flush() {
        eventsFile?.flush()
    }

    /// Waits a little for the terminal to show the last events (at exit); a terminal that does not read
    /// does not hold the exit up.
    func drainTerminal(timeout: TimeInterval) {
        terminal?.writer.drain(timeout: timeout)
    }
}

/// The end of an existing `events.jsonl`, read before a run appends to it.
enum EventsFileTail {
    /// Cuts off a last line without its newline (a crash cut it off mid-write), so the run's first record
    /// starts a line of its own, and finds the `seq` of the last record (0 for an empty or new file).
    static func prepare(path: String) throws -> (lastSeq: Int, cutBytes: Int) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ServerStartError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let size = Int(lseek(descriptor, 0, SEEK_END))
        var window = min(size, 64 * 1024)
        while window > 0 {
            var bytes = [UInt8](repeating: 0, count: window)
            let read = pread(descriptor, &bytes, window, off_t(size - window))
            guard read == window else { throw ServerStartError("cannot read \(path): \(String(cString: strerror(errno)))") }
            let wholeFile = window == size
            if let found = scan(bytes, fileSize: size, wholeFile: wholeFile) {
                if found.cutBytes > 0 { _ = ftruncate(descriptor, off_t(size - found.cutBytes)) }
                return found
            }
            guard !wholeFile else { break }
            window = min(size, window * 4)
        }
        return (0, 0)
    }

    /// The cut and the last seq, from the last `bytes.count` bytes of the file; nil when these bytes do not
    /// settle it (no newline, or no complete record with a seq) and more of the file must be read.
    private static func scan(_ bytes: [UInt8], fileSize: Int, wholeFile: Bool) -> (lastSeq: Int, cutBytes: Int)? {
        let newline = UInt8(ascii: "\n")
        guard let lastNewline = bytes.lastIndex(of: newline) else {
            return wholeFile ? (0, fileSize) : nil
        }
        let cutBytes = bytes.count - lastNewline - 1
        // Complete lines, newest first; the first line of a partial window may itself be partial.
        var lines = bytes[..<lastNewline].split(separator: newline, omittingEmptySubsequences: true)
        if !wholeFile, !lines.isEmpty { lines.removeFirst() }
        for line in lines.reversed() {
            if let seq = (try? JSONParser.parse(Array(line)))?["seq"]?.number, seq >= 0, seq < 1e15 {
                return (Int(seq), cutBytes)
            }
        }
        return wholeFile ? (0, cutBytes) : nil
    }
}

/// How the terminal shows events (`--log-format`).
public enum LogFormat: String, CaseIterable, Sendable {
    /// One readable line per event.
    case text
    /// One JSON record per line.
    case json
}

/// Formats an event record as one readable terminal line, e.g.
/// `04:12:09.331 s3 loadMoreStarted page=2 distanceToBottom=41`.
enum TextLogFormatter {
    /// Data keys shown first, in this order, when present; the rest follow alphabetically.
    private static let leadingKeys = ["page", "trigger", "distanceToBottom", "distance", "added", "total", "about"]

    static func line(for record: EventRecord) -> String {
        // The ISO time is "YYYY-MM-DDTHH:MM:SS.mmmZ"; the terminal shows the time of day.
        line(time: String(record.time.dropFirst(11).prefix(12)), session: record.session, entry: record.entry)
    }

    static func line(time: String, session: String, entry: LogEntry) -> String {
        var line = "\(time) \(session) \(entry.name.rawValue)"
        let data = entry.data
        let keys = leadingKeys.filter { data[$0] != nil } + data.keys.filter { !leadingKeys.contains($0) }.sorted()
        for key in keys {
            line += " \(key)=\(format(data[key]!))"
        }
        return line
    }

    private static func roundedForReading(_ number: Double) -> String {
        let rounded = (number * 10).rounded() / 10
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }

    private static func format(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number):
            // One decimal is enough to read a pixel position; whole numbers print without one.
            roundedForReading(number)
        case .array(let elements): elements.map(format).joined(separator: ",")
        default: value.jsonString
        }
    }
}

/// An append-only text file of lines.
final class LogFile {
    private let file: UnsafeMutablePointer<FILE>

    init(path: String, lineBuffered: Bool) throws {
        guard let file = fopen(path, "ae") else {
            throw ServerStartError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
        if lineBuffered { setvbuf(file, nil, _IOLBF, 0) }
    }

    func writeLine(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fputc(0x0A, file)
    }

    func flush() {
        fflush(file)
    }

    deinit {
        fclose(file)
    }
}

/// Standard error, for the server's own notices (not events): one `write(2)` per line.
enum StandardError {
    static func writeLine(_ text: String) {
        let line = Array((text + "\n").utf8)
        line.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// The wall clock, for event times (the core itself never reads a clock).
enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func epochMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Now as ISO-8601 UTC with milliseconds, e.g. `2026-11-30T04:12:09.331Z`.
    static func iso8601Now() -> String {
        iso8601(epochMilliseconds: epochMilliseconds())
    }

    /// Formats a Unix time in milliseconds as ISO-8601 UTC with milliseconds.
    static func iso8601(epochMilliseconds: Int64) -> String {
        let milliseconds = Int(epochMilliseconds % 1000)
        var seconds = time_t(epochMilliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }
}

/// A reason the server cannot start, shown as one line.
public struct ServerStartError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

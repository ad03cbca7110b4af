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
    ///   - maxFileBytes: past this, `events.jsonl` rotates to `events.1.jsonl` (``LogFile``); 0 = never.
    init(
        terminal: LogFormat?, ringCapacity: Int, ringByteCapacity: Int = defaultRingBytes, logDirectory: String?,
        maxFileBytes: Int = 0
    ) throws {
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
        let rotatedPath = "\(directory)/events.1.jsonl"
        let tail = try EventsFileTail.prepare(path: path)
        if tail.cutBytes > 0 {
            StandardError.writeLine(
                "scroll-playground: \(path): removed a last line cut off by a crash (\(tail.cutBytes) bytes)")
        }
        var lastSeq = tail.lastSeq
        // Just after a rotation the last record is in the rotated file.
        if lastSeq == 0, FileManager.default.fileExists(atPath: rotatedPath) {
            lastSeq = try EventsFileTail.prepare(path: rotatedPath).lastSeq
        }
        nextSeq = lastSeq + 1
        eventsFile =
            maxFileBytes > 0
            ? try LogFile(path: path, rotatingTo: rotatedPath, maxBytes: maxFileBytes) : try LogFile(path: path)
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
            guard page.records.count < limit, page.records.isEmpty || page.byteCount + stored.bytes.count <= maxBytes
            else {
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

    /// Starts `events.jsonl` again if it was removed (the log folder deleted while the server runs).
    func reopenIfRemoved() {
        eventsFile?.reopenIfRemoved()
    }

    /// Waits a little for the terminal to show the last events (at exit); a terminal that does not read
    /// does not hold the exit up.
    func drainTerminal(timeout: TimeInterval) {
        terminal?.writer.drain(timeout: timeout)
    }
}

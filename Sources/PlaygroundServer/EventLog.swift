import Foundation
import ScrollCore

/// Stamps the core's log entries into §7 event records and fans them out: the terminal, a bounded
/// in-memory ring for `/api/events`, and `events.jsonl` under `--log-dir`.
///
/// Confined to the service thread.
final class EventLog {
    private let terminal: LogFormat?
    private let ringCapacity: Int
    private var ring: [EventRecord] = []
    private var ringStart = 0
    private var nextSeq = 1
    private let eventsFile: LogFile?

    /// - Parameters:
    ///   - terminal: the format of standard output lines, or nil for none (tests, benchmarks).
    ///   - logDirectory: where `events.jsonl` goes, if anywhere.
    init(terminal: LogFormat?, ringCapacity: Int, logDirectory: String?) throws {
        self.terminal = terminal
        self.ringCapacity = max(1, ringCapacity)
        eventsFile = try logDirectory.map { directory in
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw ServerStartError("cannot create \(directory): \(error.localizedDescription)")
            }
            return try LogFile(path: "\(directory)/events.jsonl", lineBuffered: true)
        }
    }

    /// Stamps `entry` with the next server-wide seq and the wall-clock time, and writes it everywhere.
    func record(_ entry: LogEntry, session: String) -> EventRecord {
        let record = EventRecord(seq: nextSeq, time: WallClock.iso8601Now(), session: session, entry: entry)
        nextSeq += 1
        append(record)
        let json = record.encoded()
        eventsFile?.writeLine(json)
        switch terminal {
        case .text?: StandardOutput.writeLine(Array(TextLogFormatter.line(for: record).utf8))
        case .json?: StandardOutput.writeLine(json)
        case nil: break
        }
        return record
    }

    private func append(_ record: EventRecord) {
        if ring.count < ringCapacity {
            ring.append(record)
        } else {
            ring[ringStart] = record
            ringStart = (ringStart + 1) % ringCapacity
        }
    }

    /// The ring's records, oldest first, filtered by session and by `seq > after`, at most `limit`.
    func events(session: String?, after: Int, limit: Int) -> [EventRecord] {
        var result: [EventRecord] = []
        for offset in 0..<ring.count where result.count < limit {
            let record = ring[(ringStart + offset) % ring.count]
            guard record.seq > after, session == nil || record.session == session else { continue }
            result.append(record)
        }
        return result
    }

    /// Writes buffered lines out.
    func flush() {
        eventsFile?.flush()
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
        guard let file = fopen(path, "a") else {
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

/// Standard output, one `write(2)` per line so pipes see whole lines at once and nothing waits in a buffer.
enum StandardOutput {
    static func writeLine(_ bytes: [UInt8]) {
        var line = bytes
        line.append(0x0A)
        line.withUnsafeBufferPointer { buffer in
            var written = 0
            while written < buffer.count {
                let result = write(STDOUT_FILENO, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    return  // stdout closed: the log still goes to its other sinks
                }
            }
        }
    }

    static func writeLine(_ text: String) {
        writeLine(Array(text.utf8))
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

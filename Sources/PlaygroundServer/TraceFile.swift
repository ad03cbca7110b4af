import Foundation
import ScrollCore

/// `traces/SESSION.jsonl` under `--log-dir`: a header, then every input message with its receive time
/// and every decision, one JSON object per line, so a session can be replayed through ScrollCore.
///
/// Lines (`t` is milliseconds since the server started, on a monotonic clock):
/// - `{"kind":"header","format":1,"server":…,"session":…,"preset":…,"config":{…},"seed":N,"source":…,"time":ISO}`
/// - `{"kind":"input","t":T,"message":{…}}` — a received text message (`"text":"…"` when it is not JSON)
/// - `{"kind":"timer","t":T,"timer":NAME}` — a timer the core had scheduled fired
/// - `{"kind":"closed","t":T,"code":N}` — the page disconnected (close code, or null for a drop)
/// - `{"kind":"decision","t":T,"event":{…}}` — an event record
final class TraceFile {
    /// The version of the line format above.
    static let formatVersion = 1

    private let file: LogFile

    init(directory: String, session: String, defaults: ScrollConfig, source: FeedSource) throws {
        let tracesDirectory = "\(directory)/traces"
        try FileManager.default.createDirectory(atPath: tracesDirectory, withIntermediateDirectories: true)
        file = try LogFile(path: "\(tracesDirectory)/\(session).jsonl", lineBuffered: false)
        let sourceName: JSONValue =
            switch source {
            case .synthetic: "synthetic"
            case .list(let items): .string("list of \(items.count)")
            }
        let header: JSONValue = [
            "kind": "header", "format": .int(Self.formatVersion), "server": .string(PlaygroundServer.version),
            "session": .string(session), "preset": .string(defaults.preset.rawValue), "config": defaults.json,
            "seed": .number(Double(defaults.seed)), "source": sourceName, "time": .string(WallClock.iso8601Now()),
        ]
        file.writeLine(header.jsonBytes)
    }

    func recordInput(_ text: [UInt8], at time: Int64) {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string("input")
        writer.key("t")
        writer.number(Int(time))
        // Re-written compactly so a message with newlines still takes one line.
        if let message = try? JSONParser.parse(text) {
            writer.key("message")
            writer.value(message)
        } else {
            writer.key("text")
            writer.string(String(decoding: text, as: UTF8.self))
        }
        writer.endObject()
        file.writeLine(writer.bytes)
    }

    func recordTimer(_ timer: TimerID, at time: Int64) {
        file.writeLine(JSONValue.object(["kind": "timer", "t": .int(Int(time)), "timer": .string(timer.description)]).jsonBytes)
    }

    func recordClosed(code: UInt16?, resumable: Bool, at time: Int64) {
        let line: JSONValue = [
            "kind": "closed", "t": .int(Int(time)), "code": code.map { .int(Int($0)) } ?? .null, "resumable": .bool(resumable),
        ]
        file.writeLine(line.jsonBytes)
    }

    func recordViolation(_ kind: InboundViolationKind, at time: Int64) {
        file.writeLine(JSONValue.object(["kind": "violation", "t": .int(Int(time)), "violation": .string(kind.rawValue)]).jsonBytes)
    }

    func recordDecision(_ record: EventRecord, at time: Int64) {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("kind")
        writer.string("decision")
        writer.key("t")
        writer.number(Int(time))
        writer.key("event")
        writer.raw(record.encoded())
        writer.endObject()
        file.writeLine(writer.bytes)
    }

    func flush() {
        file.flush()
    }

    func close() {
        file.flush()
    }
}

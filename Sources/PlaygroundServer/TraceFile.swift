import Foundation
import ScrollCore

/// `traces/SESSION.jsonl` under `--log-dir`: the session's `Trace` (format in docs/traces.md), written
/// as it happens so `scroll-playground replay` can run it through ScrollCore again.
final class TraceFile {
    private let file: LogFile
    /// Where the file is, for `GET /api/sessions/ID/trace`.
    let path: String

    init(directory: String, header: Trace.Header) throws {
        let tracesDirectory = "\(directory)/traces"
        try FileManager.default.createDirectory(atPath: tracesDirectory, withIntermediateDirectories: true)
        path = "\(tracesDirectory)/\(header.session).jsonl"
        file = try LogFile(path: path, lineBuffered: false)
        guard case .object(var members) = header.json else { return }
        members["time"] = .string(WallClock.iso8601Now())
        file.writeLine(JSONValue.object(members).jsonBytes)
    }

    func record(_ line: Trace.Line) {
        file.writeLine(line.json.jsonBytes)
    }

    func recordDecision(_ record: EventRecord, at time: Int64) {
        file.writeLine(Trace.Line.decisionJSON(t: time, record: record))
    }

    func flush() {
        file.flush()
    }
}

import Foundation
import ScrollCore
import Testing

/// A temporary `--log-dir` for one test, removed when it goes.
final class LogFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString)").path

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func trace(_ session: String) -> String { "\(path)/traces/\(session).jsonl" }

    var eventsFile: String { "\(path)/events.jsonl" }

    /// The file's text once it satisfies `predicate`, waiting up to `timeout` (traces are written at most a
    /// second behind, and a closing session's trace just after its `sessionClosed` is logged).
    func waitForFile(
        _ file: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: (String) -> Bool
    ) -> String? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            if predicate(text) { return text }
            guard ContinuousClock.now < deadline else {
                Issue.record("\(file) did not get there within \(timeout)", sourceLocation: sourceLocation)
                return nil
            }
            usleep(20_000)
        }
    }

    /// Every line of a JSON-lines file, parsed; a line that is not JSON, an empty line or a missing last
    /// newline fails the test.
    /// `killed`: the writer was killed, so a last line without its newline is what a write cut short by
    /// SIGKILL leaves (and what `Trace.parse` leaves out): it is dropped rather than an issue.
    static func jsonLines(
        _ text: String, killed: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [JSONValue] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" || killed {
            lines.removeLast()
        } else {
            Issue.record(
                "the last line has no newline: \(lines.last?.prefix(200) ?? "")", sourceLocation: sourceLocation)
        }
        return lines.enumerated().compactMap { index, line in
            do {
                return try JSONParser.parse(String(line))
            } catch {
                Issue.record("line \(index + 1) is not JSON: \(line.prefix(200))", sourceLocation: sourceLocation)
                return nil
            }
        }
    }
}

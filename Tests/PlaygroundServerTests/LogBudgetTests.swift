import Foundation
import ScrollCore
import Testing

@testable import PlaygroundServer

/// The log folder's cap in process, over real files: what goes first, what never goes, when recording
/// stops and starts again, the events file's rotation, and what a trace keeps of text that is not JSON.
struct LogBudgetTests {
    /// A folder holding `traces` (session number → bytes) and `others` bytes in a file the server did not write.
    static func folder(traces: [Int: Int], others: Int = 0) throws -> LogFolder {
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: "\(folder.path)/traces", withIntermediateDirectories: true)
        for (number, bytes) in traces {
            try Data(count: bytes).write(to: URL(fileURLWithPath: folder.trace("s\(number)")))
        }
        if others > 0 { try Data(count: others).write(to: URL(fileURLWithPath: "\(folder.path)/notes.txt")) }
        return folder
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func theRoomIsTheCapLessTheEventsShareAndOtherFiles() throws {
        let folder = try Self.folder(traces: [1: 100], others: 1000)
        let budget = LogBudget(directory: folder.path, maxBytes: 16_000)
        #expect(budget.eventsFileBytes == 1000)
        #expect(budget.traceRoom == 16_000 - 2 * 1000 - 1000)
        #expect(budget.traceBytes == 100)
    }

    @Test func atStartTheOldestTracesGoUntilTheRestFit() throws {
        let folder = try Self.folder(traces: [3: 5000, 10: 5000, 2: 5000, 7: 5000])
        let budget = LogBudget(directory: folder.path, maxBytes: 16_000)
        var removed: [String] = []
        budget.removed = { session, bytes in removed.append("\(session) \(bytes)") }
        budget.enforce()
        // The room is 14,000 bytes: two of the four go, lowest session numbers first (not names: s10 > s7).
        #expect(removed == ["s2 5000", "s3 5000"])
        #expect(!Self.exists(folder.trace("s2")) && !Self.exists(folder.trace("s3")))
        #expect(Self.exists(folder.trace("s7")) && Self.exists(folder.trace("s10")))
        #expect(budget.traceBytes == 10_000)
    }

    @Test func onlyEndedSessionsTracesGoAndRecordingStopsWhenNoneAreLeft() throws {
        let folder = try Self.folder(traces: [:])
        let budget = LogBudget(directory: folder.path, maxBytes: 16_000)
        var removed: [SessionID] = []
        budget.removed = { session, _ in removed.append(session) }
        // Room 14,000: new traces below seven eighths of it (12,250).
        #expect(budget.admitsNewTrace(bytes: 4000) && budget.take(4000))
        #expect(budget.admitsNewTrace(bytes: 4000) && budget.take(4000))
        #expect(budget.admitsNewTrace(bytes: 4000) && budget.take(4000))
        #expect(!budget.admitsNewTrace(bytes: 1000))
        #expect(budget.isFull)
        // A live trace still grows into the last eighth, never past the room.
        #expect(budget.take(1500))
        #expect(!budget.take(1000))
        #expect(removed.isEmpty)
        // The second session ends: its trace goes for the next one, and recording starts again once a
        // quarter of the room is free.
        try Data(count: 4000).write(to: URL(fileURLWithPath: folder.trace("s2")))
        budget.ended(SessionID(number: 2), path: folder.trace("s2"), bytes: 4000)
        #expect(!budget.admitsNewTrace(bytes: 1500))
        #expect(removed == [SessionID(number: 2)])
        #expect(!Self.exists(folder.trace("s2")))
        #expect(budget.traceBytes == 9500)
        budget.ended(SessionID(number: 1), path: folder.trace("s1"), bytes: 4000)
        #expect(budget.admitsNewTrace(bytes: 1500))
        #expect(!budget.isFull)
        #expect(removed == [SessionID(number: 2), SessionID(number: 1)])
    }

    @Test func standardErrorHearsOfAStopOnceAndOfRecordingAgainAfterAQuietMinute() throws {
        let folder = try Self.folder(traces: [:])
        var now: Int64 = 0
        let budget = LogBudget(directory: folder.path, maxBytes: 16_000, clock: { now })
        var notices: [String] = []
        budget.notify = { notices.append($0) }
        var session = 0
        var held: [Int] = []
        /// Two held sessions end: their traces make room again.
        func endTwo() {
            for number in held.prefix(2) {
                budget.ended(SessionID(number: number), path: folder.trace("s\(number)"), bytes: 3000)
            }
            held.removeFirst(2)
        }
        // A folder that fills with held sessions and frees in turns, a second apart: one notice.
        for _ in 0..<30 {
            while budget.admitsNewTrace(bytes: 3000) {
                session += 1
                #expect(budget.take(3000))
                held.append(session)
            }
            #expect(budget.isFull)
            endTwo()
            now += 1_000_000_000
        }
        #expect(session > 30)
        #expect(notices.count == 1)
        #expect(notices.first?.contains("--max-log-bytes 16000") == true)
        // Nothing stops for a minute: the next session recorded is said.
        now += LogBudget.quietBeforeNotice
        #expect(budget.admitsNewTrace(bytes: 3000))
        #expect(notices.count == 2)
        #expect(notices.last?.contains("recorded again") == true)
    }

    @Test func sessionsEndingOutOfOrderStillGoOldestFirst() throws {
        let folder = try Self.folder(traces: [:])
        let budget = LogBudget(directory: folder.path, maxBytes: 16_000)
        var removed: [Int] = []
        budget.removed = { session, _ in removed.append(session.number) }
        for number in [5, 2, 9, 1, 7] {
            #expect(budget.take(2000))
            budget.ended(SessionID(number: number), path: folder.trace("s\(number)"), bytes: 2000)
        }
        #expect(budget.take(10_000))
        #expect(removed == [1, 2, 5])
    }

    @Test func theEventsFileRotatesWithinItsShare() throws {
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let rotated = "\(folder.path)/events.1.jsonl"
        // From a run without a cap: both files are past the share.
        try Data(String(repeating: "x\n", count: 3000).utf8).write(to: URL(fileURLWithPath: folder.eventsFile))
        try Data(String(repeating: "y\n", count: 3000).utf8).write(to: URL(fileURLWithPath: rotated))
        do {
            let log = try EventLog(terminal: nil, ringCapacity: 10, logDirectory: folder.path, maxFileBytes: 4000)
            for _ in 0..<100 { log.record(EventLogTests.entry(100), session: "s1") }
            log.flush()
        }
        let sizes = [folder.eventsFile, rotated].map {
            (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? nil
        }
        #expect(sizes.allSatisfy { ($0 ?? .max) <= 4000 }, "\(sizes)")
        // The newest records are in events.jsonl, the ones before them in events.1.jsonl, none lost between.
        let newest = LogFolder.jsonLines(try String(contentsOfFile: folder.eventsFile, encoding: .utf8))
        let older = LogFolder.jsonLines(try String(contentsOfFile: rotated, encoding: .utf8))
        let seqs = (older + newest).compactMap { $0["seq"]?.number }
        #expect(seqs.last == 100)
        #expect(seqs == Array(stride(from: seqs[0], through: 100, by: 1)))
        // A restart just after a rotation continues from the rotated file.
        _ = rename(folder.eventsFile, rotated)
        try Data().write(to: URL(fileURLWithPath: folder.eventsFile))
        let log = try EventLog(terminal: nil, ringCapacity: 10, logDirectory: folder.path, maxFileBytes: 4000)
        #expect(try JSONParser.parse(log.record(EventLogTests.entry(10), session: "s2"))["seq"] == 101)
    }

    @Test func refusedTextIsKeptUpToWhereItStopsBeingJSON() {
        func kept(_ text: String) -> String {
            String(decoding: RefusedText.decidingPart(of: Array(text.utf8)), as: UTF8.self)
        }
        #expect(kept(String(repeating: "\u{01}", count: 1000)) == "\u{01}")
        #expect(kept(#"{"type":"ping","id":"abc"# + "\u{07}tail") == #"{"type":"ping","id":"abc"# + "\u{07}")
        // A character of several bytes is kept whole.
        #expect(kept("é and more") == "é")
        #expect(kept(#"{"a":1}}}}"#) == #"{"a":1}}"#)
        // Where the refusal is the text's end, or would change, all of it is kept.
        #expect(kept(#"{"type":"ping","id":"abc"#) == #"{"type":"ping","id":"abc"#)
        #expect(kept("nulx") == "nulx")
        // Cut only where the refusal stays the same ("truncated literal at byte 0" for both).
        #expect(kept("nul") == "n")
        #expect(kept(#"{"type":"ping"}"#) == #"{"type":"ping"}"#)
    }
}

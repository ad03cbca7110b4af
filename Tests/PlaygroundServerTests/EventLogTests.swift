import Foundation
import ScrollCore
import Testing

@testable import PlaygroundServer

/// The event log's bounds and its file's continuation, in process.
struct EventLogTests {
    static func entry(_ padding: Int) -> LogEntry {
        LogEntry(.configChanged, ["changed": ["note": .string(String(repeating: "a", count: padding))]])
    }

    @Test func theRingIsBoundedByBytesAsWellAsCount() throws {
        let log = try EventLog(terminal: nil, ringCapacity: 100, ringByteCapacity: 10_000, logDirectory: nil)
        var sizes: [Int] = []
        for _ in 0..<50 { sizes.append(log.record(Self.entry(900), session: "s1").count) }
        let kept = log.events(session: nil, after: 0, limit: 100, maxBytes: .max)
        #expect(kept.byteCount <= 10_000)
        #expect(kept.records.count == 10_000 / sizes[0])
        #expect(kept.lastSeq == 50)
        #expect(!kept.hasMore)
    }

    @Test func anAnswerIsBoundedByBytesAndSaysWhereToContinue() throws {
        let log = try EventLog(terminal: nil, ringCapacity: 100, logDirectory: nil)
        for _ in 0..<10 { _ = log.record(Self.entry(100), session: "s1") }
        let size = log.events(session: nil, after: 0, limit: 1, maxBytes: .max).byteCount
        let first = log.events(session: nil, after: 0, limit: 100, maxBytes: size * 3 + 1)
        #expect(first.records.count == 3)
        #expect(first.hasMore)
        #expect(first.lastSeq == 3)
        let rest = log.events(session: nil, after: 3, limit: 100, maxBytes: .max)
        #expect(rest.records.count == 7)
        #expect(!rest.hasMore)
        // One record larger than the bound is still served, alone.
        #expect(log.events(session: nil, after: 0, limit: 100, maxBytes: 1).records.count == 1)
    }

    @Test func anOversizedEventIsCut() throws {
        let log = try EventLog(terminal: nil, ringCapacity: 10, logDirectory: nil)
        let bytes = log.record(Self.entry(10_000), session: "s1")
        let record = try JSONParser.parse(bytes)
        #expect(record["data"] == ["cut": true, "bytes": .int(10_000 + #"{"changed":{"note":""}}"#.utf8.count)])
        #expect(bytes.count < 200)
    }

    @Test func theEventsFileContinuesItsSeqAfterATornLine() throws {
        let folder = LogFolder()
        do {
            let log = try EventLog(terminal: nil, ringCapacity: 10, logDirectory: folder.path)
            for _ in 0..<3 { _ = log.record(Self.entry(10), session: "s1") }
            log.flush()
        }
        let torn = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.eventsFile))
        torn.seekToEndOfFile()
        torn.write(Data(#"{"seq":4,"time":"#.utf8))
        try torn.close()

        let log = try EventLog(terminal: nil, ringCapacity: 10, logDirectory: folder.path)
        #expect(try JSONParser.parse(log.record(Self.entry(10), session: "s2"))["seq"] == 4)
        log.flush()
        let lines = LogFolder.jsonLines(try String(contentsOfFile: folder.eventsFile, encoding: .utf8))
        #expect(lines.compactMap { $0["seq"]?.number } == [1, 2, 3, 4])
    }

    @Test func aFileThatIsOneTornLineStartsOver() throws {
        let folder = LogFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        try Data(String(repeating: "x", count: 200_000).utf8).write(to: URL(fileURLWithPath: folder.eventsFile))
        #expect(try EventsFileTail.prepare(path: folder.eventsFile) == (lastSeq: 0, cutBytes: 200_000))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.eventsFile)).isEmpty)
    }
}

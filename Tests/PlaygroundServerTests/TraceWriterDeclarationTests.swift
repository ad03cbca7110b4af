import Foundation
import ScrollRulesUI
import Testing

@testable import PlaygroundServer
@testable import ScrollCore

/// The trace writers outside ScrollCore, checked against the trace's declaration (`Trace.Header.members`,
/// `Trace.LineKind.members`) as `TraceDeclarationTests` checks ScrollCore's: the server's `TraceFile` (its
/// header with `time`, its own input and decision lines around the bytes it received and logged, and the
/// general lines) and the app's `TraceRecorder` (ScrollRulesUI, which cannot link ScrollCore and writes its
/// JSON by hand). Each member, given a value of its own, must come back through `Trace.parse` with nothing
/// else changed; a member the recorder cannot write must be named as such here.
@Suite struct TraceWriterDeclarationTests {
    // MARK: the server's trace file

    /// The trace as the server's `TraceFile` writes it: the header at creation, each line by the call the
    /// server makes for it (an input around the bytes received, a decision around the event log's record).
    static func serverFile(_ trace: Trace) throws -> [UInt8] {
        let folder = LogFolder()
        let file = TraceFile(directory: folder.path, header: trace.header)
        #expect(try file.create(within: nil))
        let log = try EventLog(terminal: nil, ringCapacity: 16, logDirectory: nil)
        for line in trace.lines {
            switch line {
            case .input(let t, let text):
                file.recordInput(text, isJSON: (try? JSONParser.parse(text)) != nil, at: t)
            case .decision(let t, let entry):
                file.recordDecision(log.record(entry, session: trace.header.session), at: t)
            case .timer, .violation, .closed:
                file.record(line)
            }
        }
        _ = file.finish()
        #expect(file.stopReason == nil)
        return Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
    }

    @Test(arguments: Trace.Header.members.indices)
    func eachHeaderMemberComesBackThroughTheServersFile(index: Int) throws {
        let member = Trace.Header.members[index]
        var header = Trace.Header.full
        member.write(&header, member.sample)
        let bytes = try Self.serverFile(Trace(header: header, lines: []))
        let read = try Trace.parse(bytes: bytes).header
        #expect(
            member.read(read) == member.sample,
            "the server's file loses \(member.name): \(String(decoding: bytes, as: UTF8.self))")
        #expect(read == header, "the server's file changes another member than \(member.name)")
        let written = try JSONParser.parse(Array(bytes.dropLast()))
        expectDeclared(written, members: Trace.Header.members.map(\.path), writtenOnly: Trace.Header.writtenOnly)
    }

    static let lineMembers: [(kind: Trace.LineKind, index: Int)] = Trace.LineKind.allCases.flatMap { kind in
        kind.members.indices.map { (kind, $0) }
    }

    @Test(arguments: lineMembers.indices)
    func eachLineMemberComesBackThroughTheServersFile(index: Int) throws {
        let (kind, memberIndex) = Self.lineMembers[index]
        let member = kind.members[memberIndex]
        var line = kind.full
        member.write(&line, member.sample)
        let bytes = try Self.serverFile(Trace(header: Trace.Header.full, lines: [line]))
        let read = try Trace.parse(bytes: bytes).lines
        #expect(
            read.first.flatMap(member.read) == member.sample,
            "the server's file loses \(kind.rawValue).\(member.name): \(String(decoding: bytes, as: UTF8.self))")
        #expect(read == [line], "the server's file changes another member than \(kind.rawValue).\(member.name)")
        let lineText = bytes.split(separator: 0x0A).dropFirst().first.map(Array.init) ?? []
        let written = try JSONParser.parse(lineText)
        let present = kind.members.filter { $0.read(line) != nil }
        expectDeclared(written, members: present.map(\.path), writtenOnly: kind.writtenOnly)
    }

    // MARK: the app's recorder

    /// What the recorder does with each header member: it writes the rules' settings as set, names the
    /// session and the recording after its app and device, writes `format` and `server` itself, and has no
    /// source, limits, fork or playground settings to write.
    enum RecorderHeader: Equatable {
        case ruleSetting
        case fromAppAndDevice
        case fixed
        case notWritten
    }

    static func recorderHeader(_ member: WireMember<Trace.Header>) -> RecorderHeader? {
        if member.path.first == "config" {
            let setting = ScrollConfig.settings.first { $0.name == member.path.last }
            return setting?.role == .rule ? .ruleSetting : .notWritten
        }
        switch member.name {
        case "session", "recorder.page", "recorder.name": return .fromAppAndDevice
        case "format", "server": return .fixed
        case "source", "maxMessageBytes", "itemCap", "fork.parent", "fork.parentSession", "fork.at": return .notWritten
        default: return nil
        }
    }

    @Test func theRecorderSaysWhatItWritesOfEveryHeaderMember() {
        for member in Trace.Header.members {
            #expect(
                Self.recorderHeader(member) != nil,
                "the header declares \(member.name): say whether ScrollRulesUI's TraceRecorder writes it")
        }
    }

    @Test(arguments: Trace.Header.members.indices.filter { recorderHeader(Trace.Header.members[$0]) == .ruleSetting })
    func eachRuleSettingComesBackThroughTheRecorder(index: Int) throws {
        let member = Trace.Header.members[index]
        var header = Trace.Header.full
        header.config = ScrollConfig()
        member.write(&header, member.sample)
        let recorder = TraceRecorder(app: "com.example.feed", device: "iPhone", settings: header.config.rules)
        let text = recorder.trace()
        let read = try Trace.parse(text).header
        #expect(member.read(read) == member.sample, "the recorder loses \(member.name): \(text)")
        #expect(read.config.rules == header.config.rules, "the recorder changes another setting than \(member.name)")
    }

    @Test func theRecorderNamesTheSessionAndTheRecordingAfterItsAppAndDevice() throws {
        let recorder = TraceRecorder(
            app: "com.example.declared", device: "iPad Pro, iOS 18.2", settings: FeedSettings())
        let header = try Trace.parse(recorder.trace()).header
        #expect(header.format == Trace.formatVersion)
        #expect(header.server == "ScrollRulesUI")
        #expect(header.session == "com.example.declared")
        #expect(
            header.recorder
                == RecordingSource(page: "app:com.example.declared", name: "com.example.declared on iPad Pro, iOS 18.2")
        )
    }

    /// What the recorder writes of a `geometry` message: the geometry and the phase as given; it numbers the
    /// frames itself (`seq`) and stamps them with its clock (`t`), and knows no items (`rev`, `anchor`).
    static let recorderGeometry = GeometryReport.members.indices.filter { index in
        let storage = GeometryReport.members[index].storage
        return storage.hasPrefix("geometry.") || storage == "phase"
    }
    static let notFromTheRecorder: Set = ["seq", "t", "rev", "anchor.id", "anchor.offset"]

    @Test func theRecorderSaysWhatItWritesOfEveryGeometryMember() {
        let written = Set(Self.recorderGeometry.map { GeometryReport.members[$0].storage })
        for member in GeometryReport.members {
            #expect(
                written.contains(member.storage) != Self.notFromTheRecorder.contains(member.storage),
                "geometry declares \(member.storage): say whether ScrollRulesUI's TraceRecorder writes it")
        }
    }

    @Test(arguments: recorderGeometry)
    func eachGeometryMemberComesBackThroughTheRecordersInput(index: Int) throws {
        let member = GeometryReport.members[index]
        var report = GeometryReport(
            seq: 1, t: 250,
            geometry: FeedGeometry(
                contentOffset: ScrollPoint(x: 0, y: 100), contentSize: ScrollSize(width: 390, height: 3000),
                containerSize: ScrollSize(width: 390, height: 700), contentInsets: ScrollInsets()),
            phase: .idle)
        member.write(&report, member.sample)
        var recorder = TraceRecorder(app: "app", device: "device", settings: FeedSettings(), at: 200)
        let frame = recorder.frame(report.geometry, phase: report.phase, at: 250)
        let message = try #require(frame)
        let trace = try Trace.parse(recorder.trace(closedAt: 300))
        #expect(
            trace.lines.map(\.kind) == [.input, .input, .closed] && trace.lines.map(\.t) == [200, 250, 300],
            "the recorder's lines: \(recorder.trace(closedAt: 300))")
        guard case .input(_, let text) = trace.lines[1], case .geometry(let read) = try ClientMessage.decode(text)
        else {
            Issue.record("the recorder's second line is not its geometry: \(message)")
            return
        }
        #expect(member.read(read) == member.sample, "the recorder loses \(member.storage): \(message)")
        #expect(read == report, "the recorder changes another member than \(member.storage): \(message)")
    }

    /// The recorder's lines: an `input` per message, and a `closed` at the end with a normal close, not
    /// resumable (the app's recording is over); it writes no timer, violation or decision.
    @Test func theRecordersClosedLineIsANormalCloseAtTheEnd() throws {
        let recorder = TraceRecorder(app: "app", device: "device", settings: FeedSettings(), at: 7)
        let trace = try Trace.parse(recorder.trace(closedAt: 4242))
        #expect(trace.lines.last == .closed(t: 4242, code: 1000, resumable: false))
        let written = Set(trace.lines.map(\.kind))
        #expect(written == [.input, .closed])
    }

    /// Every key the recorder writes is declared, in the header and in each line.
    @Test func theRecorderWritesOnlyDeclaredKeys() throws {
        var settings = FeedSettings(preset: .chat)
        settings.bottomThreshold = 900
        var recorder = TraceRecorder(app: "app", device: "device", settings: settings, at: 7)
        _ = recorder.frame(
            FeedGeometry(
                contentOffset: ScrollPoint(x: 0, y: 10), contentSize: ScrollSize(width: 390, height: 3000),
                containerSize: ScrollSize(width: 390, height: 700), contentInsets: ScrollInsets()),
            phase: .interacting, at: 20)
        let lines = try recorder.trace(closedAt: 30).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        let header = Trace.declarationGaps(
            of: lines[0], members: Trace.Header.members.map(\.path), writtenOnly: Trace.Header.writtenOnly)
        #expect(header.undeclared.isEmpty, "the recorder's header writes undeclared \(header.undeclared)")
        for line in lines.dropFirst() {
            let kind = try #require(line["kind"]?.string.flatMap(Trace.LineKind.init(rawValue:)))
            let gaps = Trace.declarationGaps(
                of: line, members: kind.members.map(\.path), writtenOnly: kind.writtenOnly)
            #expect(
                gaps.undeclared.isEmpty, "the recorder's \(kind.rawValue) line writes undeclared \(gaps.undeclared)")
        }
    }
}

/// Checks a writer's record against its declaration (``Trace/declarationGaps(of:members:writtenOnly:)``).
private func expectDeclared(
    _ written: JSONValue, members: [[String]], writtenOnly: [[String]],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let gaps = Trace.declarationGaps(of: written, members: members, writtenOnly: writtenOnly)
    #expect(gaps.undeclared.isEmpty, "written but not declared: \(gaps.undeclared)", sourceLocation: sourceLocation)
    #expect(gaps.unwritten.isEmpty, "declared but not written: \(gaps.unwritten)", sourceLocation: sourceLocation)
}

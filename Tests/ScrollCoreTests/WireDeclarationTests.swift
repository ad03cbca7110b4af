import Testing

@testable import ScrollCore

/// Each wire message's members are declared once (`GeometryReport.members`, `StateMessage.members`), and every
/// path that reads or writes the message is checked against the declaration: each member, given a value of its
/// own, comes back unchanged through every decoder (geometry) or is written the same by every encoder (state),
/// and the declaration names everything the message keeps or writes. A member left out of one path fails here
/// (docs/decisions.md, issue 41, shows the failure), beside the fuzzing that compares the paths on random input.
@Suite struct WireDeclarationTests {
    // MARK: geometry: three decoders

    /// A report with every member present: each member's own value is set on it.
    static let fullReport = GeometryReport(
        seq: 1, t: 2,
        geometry: FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: 100), contentSize: ScrollSize(width: 390, height: 3000),
            containerSize: ScrollSize(width: 390, height: 700), contentInsets: ScrollInsets()),
        phase: .idle, anchor: ItemAnchor(id: "item-1", offset: 0), rev: 3)

    /// Every decoder of a `geometry` message: the fixed-shape one, the fast one and the general one.
    static let decoders: [(name: String, decode: @Sendable ([UInt8]) -> GeometryReport?)] = [
        ("fixed", { bytes in bytes.withUnsafeBufferPointer { JSONParser.parseFixedGeometryMessage($0) } }),
        ("fast", { bytes in bytes.withUnsafeBufferPointer { JSONParser.parseGeometryMessage($0) } }),
        (
            "general",
            { bytes in
                guard case .geometry(let report)? = try? ClientMessage.decodeGenerally(bytes) else { return nil }
                return report
            }
        ),
    ]

    @Test(arguments: GeometryReport.members.indices)
    func eachGeometryMemberComesBackThroughEveryDecoder(index: Int) {
        let member = GeometryReport.members[index]
        var report = Self.fullReport
        member.write(&report, member.sample)
        #expect(member.read(report) == member.sample)
        let text = report.pageText()
        for decoder in Self.decoders {
            let decoded = decoder.decode(text)
            #expect(
                decoded.flatMap(member.read) == member.sample,
                "the \(decoder.name) decoder loses \(member.path.joined(separator: ".")): \(String(decoding: text, as: UTF8.self))"
            )
            #expect(decoded == report, "the \(decoder.name) decoder changes another member")
        }
    }

    @Test func theGeometryDeclarationNamesEverythingAReportKeeps() {
        #expect(storedLeaves(of: Self.fullReport).sorted() == GeometryReport.members.map(\.storage).sorted())
        #expect(Set(GeometryReport.members.map(\.path)).count == GeometryReport.members.count)
        #expect(Set(GeometryReport.members.map(\.sample)).count == GeometryReport.members.count)
    }

    // MARK: state: two encoders

    /// A full state the direct writer writes: without the members only the general writer writes.
    static let directBase: StateMessage = {
        var state = StateMessage.full
        state.loadFailure = nil
        state.topEdge?.loadFailure = nil
        state.recordingStopped = nil
        return state
    }()

    @Test(arguments: StateMessage.members.indices)
    func eachStateMemberIsWrittenAsSetByBothEncoders(index: Int) throws {
        let member = StateMessage.members[index]
        let rare =
            ["loadFailure", "recordingStopped"].contains(member.path[0])
            || member.path.dropFirst().first == "loadFailure"
        for (base, direct) in [(StateMessage.full, false), (Self.directBase, !rare)] {
            var state = base
            member.write(&state, member.sample)
            #expect(member.read(state) == member.sample)
            let general = StateEncodingTests.general(.state(state))
            let json = try JSONParser.parse(general)
            #expect(
                member.path.reduce(Optional(json)) { $0?[$1] } == member.sample,
                "the general writer loses \(member.path.joined(separator: "."))")
            let written = state.encodedDirectly()
            #expect(
                written != nil || !direct,
                "the direct writer leaves \(member.path.joined(separator: ".")) to the general one")
            if let written {
                #expect(
                    String(decoding: written, as: UTF8.self) == String(decoding: general, as: UTF8.self),
                    "the direct writer differs from the general one with \(member.path.joined(separator: ".")) set")
            }
        }
    }

    @Test func theStateDeclarationNamesEveryMemberTheGeneralWriterWrites() throws {
        let written = try JSONParser.parse(StateEncodingTests.general(.state(StateMessage.full)))
        let paths = jsonLeaves(of: written).filter { $0 != ["type"] }.map { $0.joined(separator: ".") }
        #expect(paths.sorted() == StateMessage.members.map { $0.path.joined(separator: ".") }.sorted())
    }
}

/// The paths of a JSON value's leaves (anything but an object).
func jsonLeaves(of value: JSONValue, prefix: [String] = []) -> [[String]] {
    guard case .object(let members) = value else { return [prefix] }
    return members.flatMap { jsonLeaves(of: $0.value, prefix: prefix + [$0.key]) }
}

/// The dotted names of the stored values a value keeps, down to its numbers, strings and enums; an optional
/// counts as what it holds.
func storedLeaves(of value: Any, prefix: String = "") -> [String] {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
        guard let wrapped = mirror.children.first else { return [prefix] }
        return storedLeaves(of: wrapped.value, prefix: prefix)
    }
    if mirror.children.isEmpty || mirror.displayStyle == .enum { return [prefix] }
    return mirror.children.flatMap { child in
        let label = child.label ?? "?"
        return storedLeaves(of: child.value, prefix: prefix.isEmpty ? label : "\(prefix).\(label)")
    }
}

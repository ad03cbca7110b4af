import Testing

@testable import ScrollCore

/// The trace's records are declared once (`Trace.Header.members`, `Trace.LineKind.members`, in
/// Trace+Members.swift), and ScrollCore's writer (`Trace.fileBytes`, which the lab, `check`, forks and the
/// server's header and timer lines use) and the reader (`Trace.parse`, text and bytes) are checked against the
/// declaration: each member, given a value of its own, comes back unchanged with nothing else changed, and the
/// declaration names everything a header or a line keeps and every key the writer writes. The server's own line
/// writers and the app's recorder are checked against the same lists in `TraceWriterDeclarationTests`.
@Suite struct TraceDeclarationTests {
    /// Every way to read a trace's bytes.
    static let readers: [(name: String, read: @Sendable ([UInt8]) throws -> Trace)] = [
        ("text", { bytes in try Trace.parse(String(decoding: bytes, as: UTF8.self)) }),
        ("bytes", { bytes in try Trace.parse(bytes: bytes) }),
    ]

    // MARK: the header

    @Test(arguments: Trace.Header.members.indices)
    func eachHeaderMemberComesBackThroughTheWriterAndEveryReader(index: Int) throws {
        let member = Trace.Header.members[index]
        var header = Trace.Header.full
        member.write(&header, member.sample)
        #expect(member.read(header) == member.sample, "the declaration cannot set \(member.name)")
        let bytes = Trace(header: header, lines: []).fileBytes()
        for reader in Self.readers {
            let read = try reader.read(bytes).header
            #expect(
                member.read(read) == member.sample,
                "the \(reader.name) reader loses \(member.name): \(String(decoding: bytes, as: UTF8.self))")
            #expect(read == header, "the \(reader.name) reader changes another member than \(member.name)")
        }
    }

    @Test func eachHeaderSampleDiffersFromTheFullHeader() {
        // `format` has one value a reader accepts: its sample is that value.
        for member in Trace.Header.members where member.path != ["format"] {
            #expect(member.read(Trace.Header.full) != member.sample, "\(member.name)'s sample is the base's value")
        }
        #expect(Set(Trace.Header.members.map(\.path)).count == Trace.Header.members.count)
    }

    @Test func theHeaderDeclarationNamesEverythingAHeaderKeeps() {
        // `config` is declared by `ScrollConfig.settings` (one member each), so it counts as one leaf here.
        let stored = traceLeaves(of: Trace.Header.full, stoppingAt: ["config"])
        #expect(stored.sorted() == Set(Trace.Header.members.map(\.storage)).sorted())
    }

    @Test func theHeaderDeclarationNamesEveryKeyTheWriterWrites() throws {
        let written = try JSONParser.parse(Array(Trace.Header.full.jsonLine().dropLast()))
        expectDeclared(written, members: Trace.Header.members.map(\.path), writtenOnly: Trace.Header.writtenOnly)
    }

    // MARK: the lines

    static let lineMembers: [(kind: Trace.LineKind, index: Int)] = Trace.LineKind.allCases.flatMap { kind in
        kind.members.indices.map { (kind, $0) }
    }

    @Test(arguments: lineMembers.indices)
    func eachLineMemberComesBackThroughTheWriterAndEveryReader(index: Int) throws {
        let (kind, memberIndex) = Self.lineMembers[index]
        let member = kind.members[memberIndex]
        var line = kind.full
        member.write(&line, member.sample)
        #expect(member.read(line) == member.sample, "the declaration cannot set \(kind.rawValue).\(member.name)")
        #expect(member.read(kind.full) != member.sample, "\(kind.rawValue).\(member.name)'s sample is the base's value")
        let bytes = Trace(header: Trace.Header.full, lines: [line]).fileBytes()
        for reader in Self.readers {
            let read = try reader.read(bytes).lines
            #expect(
                read.first.flatMap(member.read) == member.sample,
                "the \(reader.name) reader loses \(kind.rawValue).\(member.name): \(String(decoding: bytes, as: UTF8.self))"
            )
            #expect(
                read == [line], "the \(reader.name) reader changes another member than \(kind.rawValue).\(member.name)")
        }
    }

    @Test(arguments: Trace.LineKind.allCases)
    func theLineDeclarationNamesEverythingALineKeeps(kind: Trace.LineKind) {
        #expect(kind.full.kind == kind)
        let stored = traceLeaves(of: kind.full)
        #expect(stored.sorted() == Set(kind.members.map(\.storage)).sorted())
    }

    @Test(arguments: Trace.LineKind.allCases)
    func theLineDeclarationNamesEveryKeyTheWriterWrites(kind: Trace.LineKind) throws {
        let written = try JSONParser.parse(Array(kind.full.jsonLine.dropLast()))
        #expect(written["kind"] == .string(kind.rawValue))
        // An input holds `message` or `text`, never both: only the members the line has must be written.
        let present = kind.members.filter { $0.read(kind.full) != nil }
        expectDeclared(written, members: present.map(\.path), writtenOnly: kind.writtenOnly)
    }

    // MARK: the specification

    /// docs/traces.md's table has a row per kind, and each row names every key the kind's declaration has (a
    /// setting of `config` is README's), so a field added to the format cannot be left out of its specification.
    @Test func docsTracesNamesEveryDeclaredKeyInItsKindsRow() {
        let rows = ArchitectureDocumentTests.read("docs/traces.md").split(separator: "\n").filter {
            $0.hasPrefix("| `")
        }
        let kinds = rows.compactMap { $0.firstMatch(of: /^\| `([a-z]+)`/).map { String($0.output.1) } }
        #expect(kinds == ["header"] + Trace.LineKind.allCases.map(\.rawValue))
        func expectNamed(_ paths: [[String]], in kind: String) {
            let row = rows.first { $0.hasPrefix("| `\(kind)`") } ?? ""
            for path in paths {
                for key in path.first == "config" ? ["config"] : path {
                    #expect(
                        row.contains("`\(key)`") || row.contains("\"\(key)\""),
                        "docs/traces.md's \(kind) row does not name \(path.joined(separator: "."))")
                }
            }
        }
        expectNamed(Trace.Header.members.map(\.path) + Trace.Header.writtenOnly.filter { $0 != ["kind"] }, in: "header")
        for kind in Trace.LineKind.allCases {
            let paths = kind.members.map(\.path) + kind.writtenOnly
            expectNamed(paths.filter { $0 != ["t"] && $0 != ["kind"] }, in: kind.rawValue)
        }
    }
}

/// Checks a writer's record against its declaration (``Trace/declarationGaps(of:members:writtenOnly:)``).
func expectDeclared(
    _ written: JSONValue, members: [[String]], writtenOnly: [[String]],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let gaps = Trace.declarationGaps(of: written, members: members, writtenOnly: writtenOnly)
    #expect(gaps.undeclared.isEmpty, "written but not declared: \(gaps.undeclared)", sourceLocation: sourceLocation)
    #expect(gaps.unwritten.isEmpty, "declared but not written: \(gaps.unwritten)", sourceLocation: sourceLocation)
}

/// The dotted names of what a trace value keeps, as `Mirror` sees them: an enum case's associated values under
/// its name (`closed.code`; an unlabelled one by its position, `timer.1`), a struct's stored properties, down to
/// numbers, strings, enums, collections and dictionaries; an optional counts as what it holds; names in
/// `stoppingAt` count as leaves.
func traceLeaves(of value: Any, prefix: String = "", stoppingAt stops: Set<String> = []) -> [String] {
    if stops.contains(prefix) { return [prefix] }
    let mirror = Mirror(reflecting: value)
    let style = mirror.displayStyle
    if style == .optional {
        guard let wrapped = mirror.children.first else { return [prefix] }
        return traceLeaves(of: wrapped.value, prefix: prefix, stoppingAt: stops)
    }
    if style == .enum, prefix.isEmpty {
        // The top value is a line: its case, then its associated values.
        guard let payload = mirror.children.first else { return [] }
        return traceLeaves(of: payload.value, prefix: payload.label ?? "?", stoppingAt: stops)
    }
    if mirror.children.isEmpty || [.enum, .collection, .dictionary, .set].contains(style) { return [prefix] }
    return mirror.children.enumerated().flatMap { offset, child in
        var label = child.label ?? "\(offset)"
        if label.hasPrefix(".") { label = String(offset) }
        return traceLeaves(of: child.value, prefix: prefix.isEmpty ? label : "\(prefix).\(label)", stoppingAt: stops)
    }
}

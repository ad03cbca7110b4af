/// The `geometry` message's members, once, in the order the page writes them (`geometryOf` in
/// Public/recorder.js): the order the fixed decoder (JSONParser+FixedGeometry.swift) reads. The decoders are
/// checked against this list (`WireDeclarationTests`), and ``pageText()`` writes a report from it.
extension GeometryReport {
    static let members: [WireMember<GeometryReport>] = [
        .integer(["seq"], \.seq, storage: "seq", sample: 4711),
        .number(["t"], \.t, storage: "t", sample: 98_765.25),
        .number(["contentOffset", "x"], \.geometry.contentOffset.x, storage: "geometry.contentOffset.x", sample: 1.5),
        .number(["contentOffset", "y"], \.geometry.contentOffset.y, storage: "geometry.contentOffset.y", sample: 2.5),
        .number(
            ["contentSize", "width"], \.geometry.contentSize.width, storage: "geometry.contentSize.width", sample: 3.5),
        .number(
            ["contentSize", "height"], \.geometry.contentSize.height, storage: "geometry.contentSize.height",
            sample: 4.5),
        .number(
            ["containerSize", "width"], \.geometry.containerSize.width, storage: "geometry.containerSize.width",
            sample: 5.5),
        .number(
            ["containerSize", "height"], \.geometry.containerSize.height, storage: "geometry.containerSize.height",
            sample: 6.5),
        .number(
            ["contentInsets", "top"], \.geometry.contentInsets.top, storage: "geometry.contentInsets.top", sample: 7.5),
        .number(
            ["contentInsets", "leading"], \.geometry.contentInsets.leading, storage: "geometry.contentInsets.leading",
            sample: 8.5),
        .number(
            ["contentInsets", "bottom"], \.geometry.contentInsets.bottom, storage: "geometry.contentInsets.bottom",
            sample: 9.5),
        .number(
            ["contentInsets", "trailing"], \.geometry.contentInsets.trailing,
            storage: "geometry.contentInsets.trailing", sample: 10.5),
        WireMember(
            ["phase"], storage: "phase", sample: .string(FeedScrollPhase.decelerating.rawValue),
            read: { .string($0.phase.rawValue) },
            write: { $0.phase = $1.string.flatMap(FeedScrollPhase.init(rawValue:)) ?? .idle }),
        WireMember(
            ["rev"], storage: "rev", sample: .int(31), read: { $0.rev.map(JSONValue.int) },
            write: { $0.rev = $1.number.flatMap { Int(exactly: $0) } }),
        WireMember(
            ["anchor", "id"], storage: "anchor.id", sample: "item-77", read: { $0.anchor.map { .string($0.id) } },
            write: { $0.anchor = ItemAnchor(id: $1.string ?? "", offset: $0.anchor?.offset ?? 0) }),
        WireMember(
            ["anchor", "offset"], storage: "anchor.offset", sample: .number(-11.25),
            read: { $0.anchor.map { .number($0.offset) } },
            write: { $0.anchor = ItemAnchor(id: $0.anchor?.id ?? "item-1", offset: $1.number ?? 0) }),
    ]

    /// The message as the page writes it: `type` first, then ``members`` in order, nested objects where their
    /// paths share a first name, a member the report leaves out (no `rev`, no `anchor`) left out.
    func pageText() -> [UInt8] {
        var writer = JSONWriter(capacity: 320)
        writer.beginObject()
        writer.key("type")
        writer.string("geometry")
        var open: String?
        for member in Self.members {
            guard let value = member.read(self) else { continue }
            let outer = member.path.count > 1 ? member.path[0] : nil
            if open != outer {
                if open != nil { writer.endObject() }
                if let outer {
                    writer.key(outer)
                    writer.beginObject()
                }
                open = outer
            }
            writer.key(member.path[member.path.count - 1])
            writer.value(value)
        }
        if open != nil { writer.endObject() }
        writer.endObject()
        return writer.bytes
    }
}

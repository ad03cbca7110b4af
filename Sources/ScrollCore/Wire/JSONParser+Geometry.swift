extension JSONParser {
    /// Reads a well-formed `geometry` message straight into a `GeometryReport`, without building a
    /// `JSONValue` tree: the per-frame hot path.
    ///
    /// Returns nil for anything it does not expect (an escape in a name, an unknown member, a wrong type,
    /// bad JSON); the caller then takes the general path, which accepts the same messages and names the
    /// problem precisely. So this only ever speeds up, never changes, what is accepted.
    static func parseGeometryMessage(_ bytes: UnsafeBufferPointer<UInt8>) -> GeometryReport? {
        var parser = JSONParser(bytes)
        var seq: Int?
        var t: Double?
        var offset: ScrollPoint?
        var contentSize: ScrollSize?
        var containerSize: ScrollSize?
        var insets = ScrollInsets.zero
        var phase: FeedScrollPhase?
        var anchor: ItemAnchor?
        var rev: Int?
        var isGeometry = false
        // Names are matched as bytes: making a String of each of the ~20 names and values in a message
        // and comparing Strings was most of the decoding cost.
        let complete = parser.readObject { parser, name in
            if spells(name, "type") {
                guard let value = parser.readName(), spells(value, "geometry") else { return false }
                isGeometry = true
            } else if spells(name, "seq") {
                guard let number = parser.readNumber(), number >= 0, number == number.rounded(),
                    number < 9_007_199_254_740_992
                else { return false }
                seq = Int(number)
            } else if spells(name, "t") {
                guard let number = parser.readNumber() else { return false }
                t = number
            } else if spells(name, "contentOffset") {
                guard let point = parser.readPair("x", "y") else { return false }
                offset = ScrollPoint(x: point.0, y: point.1)
            } else if spells(name, "contentSize") || spells(name, "containerSize") {
                guard let pair = parser.readPair("width", "height"), pair.0 >= 0, pair.1 >= 0 else { return false }
                if spells(name, "contentSize") {
                    contentSize = ScrollSize(width: pair.0, height: pair.1)
                } else {
                    containerSize = ScrollSize(width: pair.0, height: pair.1)
                }
            } else if spells(name, "contentInsets") {
                var edges = ScrollInsets.zero
                let ok = parser.readObject { parser, edge in
                    guard let value = parser.readNumber() else { return false }
                    if spells(edge, "top") {
                        edges.top = value
                    } else if spells(edge, "leading") {
                        edges.leading = value
                    } else if spells(edge, "bottom") {
                        edges.bottom = value
                    } else if spells(edge, "trailing") {
                        edges.trailing = value
                    } else {
                        return false
                    }
                    return true
                }
                guard ok else { return false }
                insets = edges
            } else if spells(name, "phase") {
                guard let name = parser.readName(),
                    let value = FeedScrollPhase(rawValue: String(decoding: name, as: UTF8.self))
                else { return false }
                phase = value
            } else if spells(name, "rev") {
                guard let number = parser.readNumber(), number >= 0, number == number.rounded(),
                    number < 9_007_199_254_740_992
                else { return false }
                rev = Int(number)
            } else if spells(name, "anchor") {
                var id: String?
                var offset: Double?
                let ok = parser.readObject { parser, member in
                    if spells(member, "id") {
                        guard let text = parser.readName(), text.count > 0, text.count <= ItemAnchor.maxIDBytes else {
                            return false
                        }
                        id = String(decoding: text, as: UTF8.self)
                    } else if spells(member, "offset") {
                        guard let value = parser.readNumber() else { return false }
                        offset = value
                    } else {
                        return false
                    }
                    return true
                }
                guard ok, let id, let offset else { return false }
                anchor = ItemAnchor(id: id, offset: offset)
            } else {
                return false
            }
            return true
        }
        parser.skipWhitespace()
        guard complete, parser.index == bytes.count, isGeometry, let seq, let t, let offset, let contentSize,
            let containerSize, let phase
        else { return nil }
        return GeometryReport(
            seq: seq, t: t,
            geometry: FeedGeometry(
                contentOffset: offset, contentSize: contentSize, containerSize: containerSize, contentInsets: insets),
            phase: phase, anchor: anchor, rev: rev)
    }

    /// Whether the bytes of a name spell `literal` exactly.
    private static func spells(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard name.count == count else { return false }
        let expected = literal.utf8Start
        for index in 0..<count where name[index] != expected[index] { return false }
        return true
    }

    /// Reads `{"name": value, …}`, handing each member name (its bytes) to `member`, which reads the value.
    private mutating func readObject(_ member: (inout JSONParser, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { return false }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard let name = readName() else { return false }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard member(&self, name) else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return true
            default: return false
            }
        }
    }

    /// Reads a short string without escapes (member names, `type`, `phase`): the bytes between the quotes.
    private mutating func readName() -> UnsafeBufferPointer<UInt8>? {
        guard current == UInt8(ascii: "\"") else { return nil }
        index += 1
        return plainText()
    }

    /// The bytes of a string of printable ASCII without escapes, from here (past its opening quote) up to its
    /// closing quote (stepped over); nil for anything else. Both geometry fast paths read strings with it.
    mutating func plainText() -> UnsafeBufferPointer<UInt8>? {
        let start = index
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20, bytes[end] < 0x80 else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        index = end + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private mutating func readNumber() -> Double? {
        guard let byte = current, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        else { return nil }
        return try? parseNumber()
    }

    /// Reads `{"first": number, "second": number}` in any order, both required.
    private mutating func readPair(_ first: StaticString, _ second: StaticString) -> (Double, Double)? {
        var a: Double?
        var b: Double?
        let ok = readObject { parser, name in
            guard let value = parser.readNumber() else { return false }
            if Self.spells(name, first) {
                a = value
            } else if Self.spells(name, second) {
                b = value
            } else {
                return false
            }
            return true
        }
        guard ok, let a, let b else { return nil }
        return (a, b)
    }
}

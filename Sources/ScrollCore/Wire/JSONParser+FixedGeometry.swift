extension JSONParser {
    /// Reads a `geometry` message in the exact shape the page and `scroll-bench` send: no whitespace, the
    /// members in the order `geometryOf` (Public/recorder.js) writes them, then `rev` and `anchor` if present.
    /// The text between the values is fixed, so it is compared in runs instead of read name by name.
    ///
    /// Returns nil for anything else (another order, whitespace, an escape, a missing or extra member, a
    /// wrong type); the caller then tries ``parseGeometryMessage(_:)`` and the general decoder, which accept
    /// the same messages. Its numbers are read by the general ``parseNumber()`` and checked as the general
    /// decoder checks them, so it only ever speeds up, never changes, what is accepted (the fuzz target and
    /// `GeometryDecodingTests` compare it with the general decoder).
    static func parseFixedGeometryMessage(_ bytes: UnsafeBufferPointer<UInt8>) -> GeometryReport? {
        var parser = JSONParser(bytes)
        guard parser.skip(#"{"type":"geometry","seq":"#), let seq = parser.fixedCount(),
            parser.skip(#","t":"#), let t = parser.fixedNumber(),
            parser.skip(#","contentOffset":{"x":"#), let x = parser.fixedNumber(),
            parser.skip(#","y":"#), let y = parser.fixedNumber(),
            parser.skip(#"},"contentSize":{"width":"#), let contentWidth = parser.fixedNumber(), contentWidth >= 0,
            parser.skip(#","height":"#), let contentHeight = parser.fixedNumber(), contentHeight >= 0,
            parser.skip(#"},"containerSize":{"width":"#), let containerWidth = parser.fixedNumber(),
            containerWidth >= 0,
            parser.skip(#","height":"#), let containerHeight = parser.fixedNumber(), containerHeight >= 0,
            parser.skip(#"},"contentInsets":{"top":"#), let top = parser.fixedNumber(),
            parser.skip(#","leading":"#), let leading = parser.fixedNumber(),
            parser.skip(#","bottom":"#), let bottom = parser.fixedNumber(),
            parser.skip(#","trailing":"#), let trailing = parser.fixedNumber(),
            parser.skip(#"},"phase":""#), let phaseName = parser.plainText(),
            let phase = Self.phases.first(where: { $0.name.elementsEqual(phaseName) })?.phase
        else { return nil }
        var rev: Int?
        if parser.skip(#","rev":"#) {
            guard let value = parser.fixedCount() else { return nil }
            rev = value
        }
        var anchor: ItemAnchor?
        if parser.skip(#","anchor":{"id":""#) {
            guard let id = parser.plainText(), id.count > 0, id.count <= ItemAnchor.maxIDBytes,
                parser.skip(#","offset":"#), let offset = parser.fixedNumber(), parser.skip("}")
            else { return nil }
            anchor = ItemAnchor(id: String(decoding: id, as: UTF8.self), offset: offset)
        }
        guard parser.skip("}"), parser.index == bytes.count else { return nil }
        return GeometryReport(
            seq: seq, t: t,
            geometry: FeedGeometry(
                contentOffset: ScrollPoint(x: x, y: y),
                contentSize: ScrollSize(width: contentWidth, height: contentHeight),
                containerSize: ScrollSize(width: containerWidth, height: containerHeight),
                contentInsets: ScrollInsets(top: top, leading: leading, bottom: bottom, trailing: trailing)),
            phase: phase, anchor: anchor, rev: rev)
    }

    /// The phases by the bytes of their names, made once.
    private static let phases: [(name: [UInt8], phase: FeedScrollPhase)] = FeedScrollPhase.allCases.map {
        (Array($0.rawValue.utf8), $0)
    }

    /// Steps over `literal` if the bytes at the current position spell it.
    @inline(__always)
    private mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard count <= bytes.count - index, let base = bytes.baseAddress else { return false }
        // Eight bytes at a time (ScrollCore imports no C, so no memcmp).
        let here = UnsafeRawPointer(base + index)
        let expected = UnsafeRawPointer(literal.utf8Start)
        var offset = 0
        while offset + 8 <= count {
            guard
                here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard
                here.load(fromByteOffset: offset, as: UInt8.self)
                    == expected.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        index += count
        return true
    }

    /// A number, as the general parser reads it. A plain integer of at most 15 digits (most of a page's
    /// numbers) is read here: the general parser gives exactly `Double(digits)` for it, with the sign.
    private mutating func fixedNumber() -> Double? {
        guard let byte = current, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        else { return nil }
        let start = index
        let negative = byte == UInt8(ascii: "-")
        var end = negative ? start + 1 : start
        var mantissa: UInt64 = 0
        let digitsStart = end
        while end < bytes.count, end - digitsStart < 16, bytes[end] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[end] &- UInt8(ascii: "0"))
            end += 1
        }
        let digits = end - digitsStart
        let next = end < bytes.count ? bytes[end] : 0
        // Anything else (a fraction, an exponent, a leading zero before a digit, 16 digits or more, no digit)
        // is left to the general parser.
        let plain =
            digits > 0 && digits <= 15 && !(digits > 1 && bytes[digitsStart] == UInt8(ascii: "0"))
            && next != UInt8(ascii: ".") && next != UInt8(ascii: "e") && next != UInt8(ascii: "E")
            && next &- UInt8(ascii: "0") >= 10
        guard plain else { return try? parseNumber() }
        index = end
        let magnitude = Double(mantissa)
        return negative ? -magnitude : magnitude
    }

    /// A non-negative integer below 2^53 (`seq`, `rev`), as the general decoder requires.
    private mutating func fixedCount() -> Int? {
        guard let number = fixedNumber(), number >= 0, number == number.rounded(), number < 9_007_199_254_740_992
        else { return nil }
        return Int(number)
    }
}

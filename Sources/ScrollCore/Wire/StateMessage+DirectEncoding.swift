/// A `state` written straight into its bytes: the message of every geometry frame.
///
/// ``ServerMessage/write(to:)`` places each member through ``JSONWriter`` (a separator, the quotes, the name,
/// a colon: four appends of a growing array per key). A `state` always has the same members in the same
/// order, so the text between its values is fixed: here each run of it is one copy, and the values go into a
/// buffer of fixed size. The bytes are the general writer's exactly (`StateEncodingTests` and the fuzz target
/// compare the two); a message this cannot write (a load failure, a `recordingStopped` text, a value that
/// would not fit) returns nil and takes the general writer.
extension StateMessage {
    /// Enough for any `state` without the parts left to the general writer (one is about 320 bytes, the
    /// longest well under 900). The buffer is on the stack (up to 1 KiB is), and the message is copied out at
    /// its size: an array of 1,024 elements allocated per message cost about 880 instructions under
    /// callgrind (`Array(unsafeUninitializedCapacity:)` runs unspecialized, with a generic metadata lookup,
    /// and its 1,056 bytes missed glibc's per-thread cache), the copy and an array of its size about 120.
    static let directCapacity = 992

    /// `ServerMessage.state(self).encoded()`, or nil if the general writer must write it.
    func encodedDirectly() -> [UInt8]? {
        if let rare, rare.loadFailure != nil || rare.topLoadFailure != nil || rare.recordingStopped != nil {
            return nil
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.directCapacity) { buffer in
            var out = DirectWriter(buffer)
            out.literal(#"{"type":"state","ack":"#)
            if let ack { out.integer(Int64(ack)) } else { out.literal("null") }
            out.literal(#","preset":""#)
            out.plainText(preset.rawValue)
            out.literal(#"","reachedBottom":"#)
            out.bool(reachedBottom)
            out.literal(#","pull":{"distance":"#)
            out.number(pull.distance)
            out.literal(#","progress":"#)
            out.number(pull.progress)
            out.literal(#","eligible":"#)
            out.bool(pull.eligible)
            out.literal(#"},"refreshing":"#)
            out.bool(refreshing)
            out.literal(#","loadingNextPage":"#)
            out.bool(loadingNextPage)
            out.literal(#","hasMore":"#)
            out.bool(hasMore)
            out.literal(#","itemCount":"#)
            out.integer(Int64(itemCount))
            out.literal(#","indicator":{"top":{"visible":"#)
            out.bool(drawn.topVisible)
            out.literal(#","height":"#)
            out.number(drawn.topHeight)
            out.literal(#","scale":"#)
            out.number(drawn.topScale)
            out.literal(#","opacity":"#)
            out.number(drawn.topOpacity)
            out.literal(#"},"bottom":{"visible":"#)
            out.bool(drawn.bottomVisible)
            out.literal("}}")
            if let origin {
                out.literal(#","origin":{"x":"#)
                out.number(origin.x)
                out.literal(#","y":"#)
                out.number(origin.y)
                out.literal("}")
            }
            out.literal(#","loadFailure":null"#)
            if let top {
                out.literal(#","topEdge":{"reachedTop":"#)
                out.bool(top.reachedTop)
                out.literal(#","hasPrevious":"#)
                out.bool(top.hasPrevious)
                out.literal(#","loadingPreviousPage":"#)
                out.bool(top.loadingPreviousPage)
                out.literal(#","loadFailure":null}"#)
            }
            if let window {
                out.literal(#","window":{"start":"#)
                out.integer(Int64(window.start))
                out.literal(#","count":"#)
                out.integer(Int64(window.count))
                out.literal(#","limit":"#)
                out.integer(Int64(window.limit))
                out.literal("}")
            }
            out.literal("}")
            guard out.fits else { return nil }
            return Array(UnsafeBufferPointer(start: buffer.baseAddress, count: out.position))
        }
    }
}

/// Writes into a buffer of fixed size; a write that would not fit writes nothing and clears `fits`.
private struct DirectWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var position = 0
    private(set) var fits = true

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inline(__always)
    private mutating func room(_ count: Int) -> Bool {
        guard fits, count <= buffer.count - position else {
            fits = false
            return false
        }
        return true
    }

    @inline(__always)
    mutating func literal(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        guard room(count), let base = buffer.baseAddress else { return }
        (base + position).update(from: text.utf8Start, count: count)
        position += count
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        value ? literal("true") : literal("false")
    }

    /// Text the general writer would copy as it is (no byte to escape); anything else clears `fits`.
    mutating func plainText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard room(utf8.count), let base = buffer.baseAddress else { return }
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                fits = false
                return
            }
            if let source = utf8.baseAddress { (base + position).update(from: source, count: utf8.count) }
            position += utf8.count
        }
    }

    /// As ``JSONWriter/number(_:)-(Double)``: integral values without a fraction, others in Swift's shortest
    /// round-trip form (a short decimal's digits written here, any other through `description`), NaN and
    /// infinities as null.
    mutating func number(_ value: Double) {
        if value.isNaN || value.isInfinite {
            literal("null")
        } else if value == value.rounded(.towardZero), abs(value) < 1e15 {
            integer(Int64(value))
        } else if let decimal = value.shortDecimal {
            self.decimal(decimal)
        } else {
            var text = value.description
            text.withUTF8 { utf8 in
                guard room(utf8.count), let base = buffer.baseAddress, let source = utf8.baseAddress else { return }
                (base + position).update(from: source, count: utf8.count)
                position += utf8.count
            }
        }
    }

    /// A short decimal's digits with its point (`-` first if negative), as `description` writes it.
    private mutating func decimal(_ decimal: ShortDecimal) {
        // The sign, at most 13 digits (under 1e9 with four fraction digits) and the point.
        guard room(15), let base = buffer.baseAddress else { return }
        if decimal.negative {
            base[position] = UInt8(ascii: "-")
            position += 1
        }
        var units = decimal.units
        var digits = 1
        var probe = units / 10
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        // `0.0625`: at least one digit before the point.
        let whole = max(1, digits - decimal.fractionDigits)
        var end = position + whole + 1 + decimal.fractionDigits
        let point = position + whole
        position = end
        while end > point + 1 {
            end -= 1
            base[end] = UInt8(ascii: "0") + UInt8(units % 10)
            units /= 10
        }
        base[point] = UInt8(ascii: ".")
        end = point
        while end > point - whole {
            end -= 1
            base[end] = UInt8(ascii: "0") + UInt8(units % 10)
            units /= 10
        }
    }

    /// Decimal digits, `-` first if negative.
    @inline(__always)
    mutating func integer(_ value: Int64) {
        // An Int64 has at most 19 digits and a sign.
        guard room(20), let base = buffer.baseAddress else { return }
        if value == 0 {
            base[position] = UInt8(ascii: "0")
            position += 1
            return
        }
        if value < 0 {
            base[position] = UInt8(ascii: "-")
            position += 1
        }
        var magnitude = value.magnitude
        var digits = 0
        var probe = magnitude
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        var end = position + digits
        position = end
        while magnitude > 0 {
            end -= 1
            base[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        }
    }
}

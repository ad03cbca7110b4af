/// Builds compact JSON text into a byte buffer.
///
/// The server's messages are written field by field through this instead of `JSONEncoder`, which costs
/// several times more on the per-geometry hot path. Callers write objects with `beginObject`, `key`,
/// values and `endObject`; commas are placed automatically.
public struct JSONWriter: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []
    // Whether the next value or key at the current nesting level needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Opens an object (as a value).
    public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array (as a value).
    public mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name; the next call writes its value. The name is written as it is (no
    /// escaping): literal names are plain identifiers.
    public mutating func key(_ name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        literal(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name that is only known at run time.
    // Disfavored so that a literal name (`key("ack")`) takes the StaticString overload above rather
    // than this one: it skips the escaping scan, which the profile showed was most of a `state`'s cost.
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value, escaped.
    public mutating func string(_ value: String) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Most strings need no escaping: copy them in one go.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0..<0x20:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0xF)],
                ])
            }
        default: bytes.append(byte)
        }
    }

    private mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes a number: integral values without a fraction, others in Swift's shortest round-trip form.
    public mutating func number(_ value: Double) {
        separator()
        if value.isNaN || value.isInfinite {
            // JSON has no spelling for these; the core never produces them, this keeps output valid regardless.
            literal("null")
        } else if value == value.rounded(.towardZero), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// Writes an integer.
    public mutating func number(_ value: Int) {
        separator()
        appendInteger(Int64(value))
    }

    private mutating func appendInteger(_ value: Int64) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // Digits are produced last first: fill a stack buffer from its end, then append them at once
        // (reversing a slice of `bytes` in place cost more than writing the whole rest of a `state`).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes; an Int64 has at most 19 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            while magnitude > 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separator()
        literal(value ? "true" : "false")
    }

    /// Writes `null`.
    public mutating func null() {
        separator()
        literal("null")
    }

    /// Writes raw, already-valid JSON as one value.
    public mutating func raw(_ json: [UInt8]) {
        separator()
        bytes.append(contentsOf: json)
    }

    /// Writes any JSON value, object keys sorted.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for name in members.keys.sorted() {
                key(name)
                self.value(members[name]!)
            }
            endObject()
        }
    }
}

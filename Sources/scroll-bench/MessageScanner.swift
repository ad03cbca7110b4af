/// Reads what the bench needs from a server message by scanning its bytes, without parsing the
/// JSON: the `type`, a state's `ack`, a pong's `id`, an items message's `total`, an error's `code`.
///
/// The server writes `type` first (`{"type":"state","ack":12,…}`); anything else counts as `other`.
struct MessageScanner {
    enum Kind: Int, CaseIterable {
        case state, items, event, pong, welcome, command, error, other

        var name: String {
            switch self {
            case .state: "state"
            case .items: "items"
            case .event: "event"
            case .pong: "pong"
            case .welcome: "welcome"
            case .command: "command"
            case .error: "error"
            case .other: "other"
            }
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>

    /// The message type, from the bytes after `{"type":"`.
    var kind: Kind {
        let prefix: StaticString = #"{"type":""#
        guard bytes.count > 12, starts(with: prefix, at: 0) else { return .other }
        switch bytes[9] {
        case UInt8(ascii: "s"): return starts(with: #"state""#, at: 9) ? .state : .other
        case UInt8(ascii: "i"): return starts(with: #"items""#, at: 9) ? .items : .other
        case UInt8(ascii: "e"):
            if starts(with: #"event""#, at: 9) { return .event }
            return starts(with: #"error""#, at: 9) ? .error : .other
        case UInt8(ascii: "p"): return starts(with: #"pong""#, at: 9) ? .pong : .other
        case UInt8(ascii: "w"): return starts(with: #"welcome""#, at: 9) ? .welcome : .other
        case UInt8(ascii: "c"): return starts(with: #"command""#, at: 9) ? .command : .other
        default: return .other
        }
    }

    /// The integer after the first `"name":` (e.g. `"ack":`), nil if absent or not an integer.
    func integer(after key: StaticString, fromEnd: Bool = false) -> Int? {
        guard let start = find(key, fromEnd: fromEnd) else { return nil }
        var index = start
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The string after `"name":"`, up to the next quote.
    func string(after key: StaticString) -> String? {
        guard let start = find(key, fromEnd: false) else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The index just past `needle`, searching forwards (or from the end).
    private func find(_ needle: StaticString, fromEnd: Bool) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard bytes.count >= length else { return nil }
        if fromEnd {
            var position = bytes.count - length
            while position >= 0 {
                if starts(with: needle, at: position) { return position + length }
                position -= 1
            }
            return nil
        }
        let first = needle.utf8Start.pointee
        var position = 0
        while position <= bytes.count - length {
            if bytes[position] == first, starts(with: needle, at: position) { return position + length }
            position += 1
        }
        return nil
    }

    private func starts(with text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset + length <= bytes.count else { return false }
        let pointer = text.utf8Start
        for index in 0..<length where bytes[offset + index] != pointer[index] { return false }
        return true
    }
}

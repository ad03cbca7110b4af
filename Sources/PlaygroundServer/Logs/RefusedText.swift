import ScrollCore

/// What a trace keeps of a text message that is not JSON.
///
/// The server's answer to such text (`bad_json`, "not JSON: … at byte N") depends only on the text up to the
/// character where it stops being JSON, so a trace keeps that much: a replay decodes it to the same refusal.
/// JSON escaping would otherwise write each control character as six bytes (`\u0001`).
enum RefusedText {
    /// The start of `bytes` through the character where they stop being JSON, when the decoder refuses it
    /// exactly as it refuses the whole text; otherwise (or for JSON) all of `bytes`.
    static func decidingPart(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        let offset: Int
        do {
            _ = try JSONParser.parse(bytes)
            return bytes[...]
        } catch {
            offset = error.offset
        }
        guard offset < bytes.count else { return bytes[...] }
        // Through the whole character at the offset, so the part is UTF-8 too.
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        guard end < bytes.count, let whole = refusal(bytes[...]), refusal(bytes[..<end]) == whole else {
            return bytes[...]
        }
        return bytes[..<end]
    }

    /// The decoder's refusal of `text`; nil when it is a message.
    private static func refusal(_ text: ArraySlice<UInt8>) -> ProtocolError? {
        do {
            _ = try ClientMessage.decode(text)
            return nil
        } catch {
            return error
        }
    }
}

/// Text a client sent, quoted in an `error` reply or an event: cut short, so that a hostile message cannot
/// make the log as large as itself.
public enum ClientText {
    /// The most bytes of client text any error or event quotes.
    public static let maxQuotedBytes = 100

    /// `text` itself when it fits in `maxBytes` bytes of UTF-8; otherwise its first bytes, cut on a
    /// character boundary and marked, e.g. `xxxx…(cut: 60000 bytes)`.
    public static func excerpt(_ text: String, maxBytes: Int = maxQuotedBytes) -> String {
        let utf8 = text.utf8
        guard utf8.count > maxBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: maxBytes)
        // Back up to the start of a scalar: a continuation byte is 0b10xxxxxx.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self) + "…(cut: \(utf8.count) bytes)"
    }
}

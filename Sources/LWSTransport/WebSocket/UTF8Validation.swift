/// Whether a text message is UTF-8 (RFC 6455 §8.1), without building a `String` for the common case.
enum UTF8Validation {
    /// True if `bytes` are valid UTF-8. Text that is all ASCII, as every message of the playground's page is,
    /// is checked eight bytes at a time; anything else goes to the standard library's validation.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        let isASCII = bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            var index = 0
            var union: UInt64 = 0
            while index < words {
                union |= raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                index += 1
            }
            var offset = words * 8
            while offset < raw.count {
                union |= UInt64(raw[offset])
                offset += 1
            }
            return union & 0x8080_8080_8080_8080 == 0
        }
        return isASCII || String(validating: bytes, as: UTF8.self) != nil
    }
}

import Testing

@testable import LWSTransport

@Suite struct UTF8ValidationTests {
    /// The ASCII shortcut agrees with the standard library on text around every word boundary: ASCII,
    /// multi-byte characters, and broken sequences (a lone continuation byte, a truncated character, an
    /// overlong encoding, a surrogate) at each position of a message of each length up to three words.
    @Test func agreesWithTheStandardLibrary() {
        let pieces: [[UInt8]] = [
            [0x61], [0x7F], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80],
            [0x80], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF],
        ]
        var checked = 0
        for length in 0...24 {
            for piece in pieces {
                for position in 0...length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    bytes.insert(contentsOf: piece, at: position)
                    #expect(
                        UTF8Validation.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil),
                        "\(bytes)")
                    checked += 1
                }
            }
        }
        #expect(checked > 3_000)
        #expect(UTF8Validation.isValid([]))
    }
}

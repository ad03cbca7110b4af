import Testing

@testable import ScrollCore

/// The hand-written RFC 8259 reader.
struct JSONParserTests {
    func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(text)
    }

    func failure(_ text: String) -> JSONParseError? {
        failure(Array(text.utf8))
    }

    func failure(_ bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func literalsArraysAndObjects() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([:]))
        #expect(try parse(" \t\r\n[ 1 , \"a\" , [ ] , { } ] \n") == [1, "a", [], [:]])
        #expect(try parse(#"{"a":{"b":[true,false,null]},"c":"d"}"#) == ["a": ["b": [true, false, nil]], "c": "d"])
        // A repeated name keeps the last value.
        #expect(try parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func parsesFromAnyByteCollection() throws {
        let bytes = Array(#"{"k":[1]}"#.utf8)
        #expect(try JSONParser.parse(bytes[...]) == ["k": [1]])
        #expect(try JSONParser.parse(ContiguousArray(bytes)) == ["k": [1]])
    }

    @Test func stringEscapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00C9\u4e2d\u0000""#) == .string("éÉ中\u{0}"))
        #expect(try parse(#""plain ünïcödé 😀""#) == .string("plain ünïcödé 😀"))
        #expect(try parse(#""mixed é and \n""#) == .string("mixed é and \n"))
        #expect(try parse(#""""#) == .string(""))
    }

    @Test func surrogatePairsMakeOneScalar() throws {
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""a\uD834\uDD1Eb""#) == .string("a𝄞b"))
    }

    @Test(arguments: [
        #""\ud83d""#, #""\ud83dx""#, #""\ud83d\n""#, #""\ud83d\u0041""#, #""\ud83d\ud83d""#, #""\ude00""#,
        #""\udfff\ud83d""#,
    ])
    func unpairedSurrogatesAreRefused(text: String) {
        #expect(failure(text)?.reason == "unpaired surrogate")
    }

    @Test func numbers() throws {
        #expect(try parse("0") == .number(0))
        #expect(try parse("7") == .number(7))
        #expect(try parse("-12") == .number(-12))
        #expect(try parse("1.5") == .number(1.5))
        #expect(try parse("-12.25") == .number(-12.25))
        #expect(try parse("0.1") == .number(0.1))
        #expect(try parse("123.456") == .number(123.456))
        #expect(try parse("1e3") == .number(1000))
        #expect(try parse("1E3") == .number(1000))
        #expect(try parse("2.5e+1") == .number(25))
        #expect(try parse("25e-2") == .number(0.25))
        #expect(try parse("-1.5E-3") == .number(-0.0015))
        #expect(try parse("9007199254740993") == .number(9_007_199_254_740_992))
        #expect(try parse("12345678901234567890123") == .number(12_345_678_901_234_567_741_440), "the nearest double")
        #expect(try parse("3.14159265358979323846") == .number(3.141592653589793))
        #expect(try parse("0.0000000000000000000000001") == .number(1e-25))
        #expect(try parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
        #expect(try parse("5e-324") == .number(.leastNonzeroMagnitude))
    }

    @Test func negativeZeroKeepsItsSign() throws {
        for text in ["-0", "-0.0", "-0e0"] {
            guard case .number(let value) = try parse(text) else {
                Issue.record("\(text) is not a number")
                continue
            }
            #expect(value == 0 && value.sign == .minus, "\(text)")
        }
        guard case .number(let zero) = try parse("0") else { return }
        #expect(zero.sign == .plus)
    }

    /// Fractions parse to the nearest double, as Swift's own `Double(String)` does.
    @Test func fractionsRoundCorrectly() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            let integer = Int(generator.next() % 100_000) - 50_000
            let fraction = generator.next() % 1_000_000_000
            let digits = Int(generator.next() % 10)
            var text = "\(integer).\(String(fraction).prefix(max(1, digits)))"
            if generator.next() % 4 == 0 { text += "e\(Int(generator.next() % 40) - 20)" }
            #expect(try parse(text) == .number(Double(text)!), "\(text)")
        }
    }

    @Test(
        arguments: [
            ("", "unexpected end of input", 0),
            ("   ", "unexpected end of input", 3),
            ("[1,]", "unexpected character", 3),
            (#"{"a":1,}"#, "expected a member name", 7),
            ("{1:2}", "expected a member name", 1),
            (#"{"a" 1}"#, "expected ':'", 5),
            ("[1 2]", "expected ',' or ']'", 3),
            (#"{"a":1 "b":2}"#, "expected ',' or '}'", 7),
            ("[1", "expected ',' or ']'", 2),
            ("01", "unexpected data after the value", 1),
            ("1 2", "unexpected data after the value", 2),
            ("1.", "invalid number", 2),
            (".5", "unexpected character", 0),
            ("+1", "unexpected character", 0),
            ("-", "invalid number", 1),
            ("-a", "invalid number", 1),
            ("1e", "invalid number", 2),
            ("1e+", "invalid number", 3),
            ("1e400", "number out of range", 0),
            ("-1e400", "number out of range", 0),
            ("NaN", "unexpected character", 0),
            ("Infinity", "unexpected character", 0),
            ("tru", "truncated literal", 0),
            ("trux", "invalid literal", 0),
            ("nul", "truncated literal", 0),
            ("falsy", "invalid literal", 0),
            (#""abc"#, "unterminated string", 4),
            (#""a\"#, "unterminated escape", 3),
            (#""ab\"#, "unterminated escape", 4),
            (#""\x""#, "invalid escape", 3),
            (#""\u12""#, "truncated \\u escape", 3),
            (#""\u12"#, "truncated \\u escape", 3),
            (#""\u12zz""#, "invalid \\u escape", 5),
            (#""\uZZZZ""#, "invalid \\u escape", 3),
            ("\"a\u{01}b\"", "control character in string", 2),
            ("\"a\\n\u{1F}\"", "control character in string", 5),
        ] as [(String, String, Int)])
    func invalidInputNamesTheProblemAndTheOffset(text: String, reason: String, offset: Int) {
        #expect(failure(text) == JSONParseError(reason: reason, offset: offset))
    }

    @Test func invalidUTF8IsRefused() {
        #expect(failure([0x22, 0xFF, 0x22])?.reason == "invalid UTF-8 in string")
        #expect(failure([0x22, 0x5C, 0x6E, 0xC3, 0x22])?.reason == "invalid UTF-8 in string")
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22])?.reason == "invalid UTF-8 in string")
    }

    @Test func nestingIsCappedAt64() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try parse(deepest).array != nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(failure(tooDeep) == JSONParseError(reason: "nesting deeper than 64", offset: 64))
        let objects = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(try parse(objects).object != nil)
        let mixed = String(repeating: #"{"a":["#, count: 33) + String(repeating: "]}", count: 33)
        #expect(failure(mixed)?.reason == "nesting deeper than 64")
        // Hostile depth fails cleanly instead of exhausting the stack.
        #expect(failure(String(repeating: "[", count: 100_000))?.reason == "nesting deeper than 64")
    }

    @Test func errorsDescribeThemselves() {
        #expect(JSONParseError(reason: "invalid number", offset: 3).description == "invalid number at byte 3")
    }
}

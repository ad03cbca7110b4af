import Foundation
import Testing

@testable import ScrollCore

/// The hand-written compact JSON writer.
struct JSONWriterTests {
    func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func number(_ value: Double) -> String { text { $0.number(value) } }

    @Test func placesCommasBetweenMembersAndElements() {
        let json = text { w in
            w.beginObject()
            w.key("a")
            w.number(1)
            w.key("list")
            w.beginArray()
            w.bool(true)
            w.null()
            w.beginObject()
            w.endObject()
            w.beginArray()
            w.endArray()
            w.string("x")
            w.endArray()
            w.key("static" as StaticString)
            w.number(2)
            w.key("dynamic" + "Key")
            w.raw(Array(#"{"pre":"made"}"#.utf8))
            w.endObject()
        }
        #expect(json == #"{"a":1,"list":[true,null,{},[],"x"],"static":2,"dynamicKey":{"pre":"made"}}"#)
    }

    @Test func escapesStrings() {
        #expect(text { $0.string("say \"hi\" \\ now") } == #""say \"hi\" \\ now""#)
        #expect(text { $0.string("a\nb\rc\td") } == #""a\nb\rc\td""#)
        #expect(text { $0.string("\u{0}\u{1}\u{8}\u{C}\u{1F}") } == #""\u0000\u0001\u0008\u000c\u001f""#)
        // Everything else, including `/`, DEL and non-ASCII, is written as UTF-8.
        #expect(text { $0.string("/é😀\u{7F}\u{2028}") } == "\"/é😀\u{7F}\u{2028}\"")
        // Names known only at run time are escaped too (literal names are written as they are).
        let name = "we\"ird"
        #expect(
            text { w in
                w.beginObject()
                w.key(name)
                w.number(1)
                w.endObject()
            } == #"{"we\"ird":1}"#)
    }

    @Test func writesNumbers() {
        #expect(number(0) == "0")
        #expect(number(-0.0) == "0")
        #expect(number(3) == "3")
        #expect(number(-42) == "-42")
        #expect(number(1.5) == "1.5")
        #expect(number(0.1) == "0.1")
        #expect(number(-12.25) == "-12.25")
        #expect(number(999_999_999_999_999) == "999999999999999")
        #expect(text { $0.number(Int.min + 1) } == "-9223372036854775807")
        #expect(text { $0.number(0 as Int) } == "0")
        #expect(text { $0.number(-7 as Int) } == "-7")
        // JSON has no NaN or infinity: they are written as null so the output stays valid.
        #expect(number(.nan) == "null")
        #expect(number(.infinity) == "null")
        #expect(number(-.infinity) == "null")
    }

    /// Every number written reads back as exactly the same double, with our parser and with Foundation's
    /// `JSONDecoder` (`JSONSerialization` is not exact on Linux).
    @Test func numbersRoundTrip() throws {
        var generator = SeededGenerator(seed: 5)
        var values: [Double] = [
            1e15, -1e15, 1e21, 1.5e300, .leastNonzeroMagnitude, 1e-7, .greatestFiniteMagnitude, 0.30000000000000004,
            123456.789, -0.001,
        ]
        for _ in 0..<2000 {
            values.append(Double(bitPattern: generator.next()))
            values.append(Double(Int64(bitPattern: generator.next()) >> 20) / 1000)
        }
        for value in values where value.isFinite {
            let written = number(value)
            #expect(try JSONParser.parse(written) == .number(value), "\(value) → \(written)")
            let foundation = try JSONDecoder().decode([Double].self, from: Data("[\(written)]".utf8))
            #expect(foundation == [value], "\(value) → \(written)")
        }
    }

    @Test func writesAnyValueWithSortedKeys() {
        let value: JSONValue = ["b": [1, "two", nil, false], "a": ["z": 1.25, "y": [:]], "c": ""]
        #expect(value.jsonString == #"{"a":{"y":{},"z":1.25},"b":[1,"two",null,false],"c":""}"#)
        #expect(value.jsonBytes == Array(value.jsonString.utf8))
    }

    @Test func valuesRoundTripThroughTheParser() throws {
        let value: JSONValue = [
            "text": "quote \" backslash \\ newline \n control \u{1} emoji 😀", "n": -0.5, "big": 1e300,
            "list": [[], [:], nil],
        ]
        #expect(try JSONParser.parse(value.jsonBytes) == value)
    }
}

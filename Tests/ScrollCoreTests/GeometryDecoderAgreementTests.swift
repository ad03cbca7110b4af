import Foundation
import Testing

@testable import ScrollCore

/// Property: the hand-written decoder reads geometry messages exactly as Foundation's `JSONDecoder` does.
struct GeometryDecoderAgreementTests {
    /// Writes random but valid geometry messages: varied number spellings, key order, whitespace and
    /// unknown fields. Optionally breaks them in a way any decoder must refuse.
    struct MessageGenerator {
        var random: SeededGenerator

        mutating func below(_ bound: UInt64) -> Int { Int(random.next() % bound) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

        /// A JSON number spelled one of many ways: integers, fractions, exponents, `-0`.
        mutating func number(nonNegative: Bool = false) -> String {
            let sign = !nonNegative && chance(35) ? "-" : ""
            switch below(6) {
            case 0: return sign + String(below(5000))
            case 1: return sign + "\(below(5000)).\(String(below(1_000_000)))"
            case 2: return sign + "\(below(10)).\(below(100_000))e\(chance(50) ? "-" : "+")\(below(4))"
            // Not `0E2`: Foundation refuses a bare 0 with an unsigned exponent, which RFC 8259 allows (and we accept).
            case 3: return sign + "\(1 + below(99))E\(below(3))"
            case 4: return sign + ["0", "0.0", "0e-5", "0.5", "0.25"][below(5)]
            default:
                // Many digits: beyond the fast path of 15.
                return sign + "\(1 + below(9))\(random.next() % 1_000_000_000_000)."
                    + String(random.next() % 10_000_000_000)
            }
        }

        mutating func object(_ members: [(String, String)]) -> String {
            var members = members
            members.shuffle(using: &random)
            let space = [" ", "", "\n ", "\t"][below(4)]
            return "{" + members.map { "\(space)\"\($0.0)\"\(space):\(space)\($0.1)" }.joined(separator: ",") + space
                + "}"
        }

        mutating func message() -> String {
            var members: [(String, String)] = [
                ("type", "\"geometry\""),
                ("seq", String(random.next() % 1_000_000_000)),
                ("t", number(nonNegative: true)),
                ("contentOffset", object([("x", number()), ("y", number())])),
                ("contentSize", object([("width", number(nonNegative: true)), ("height", number(nonNegative: true))])),
                (
                    "containerSize",
                    object([("width", number(nonNegative: true)), ("height", number(nonNegative: true))])
                ),
                ("phase", "\"\(FeedScrollPhase.allCases[below(5)].rawValue)\""),
            ]
            if chance(70) {
                members.append(
                    (
                        "contentInsets",
                        object([("top", number()), ("leading", number()), ("bottom", number()), ("trailing", number())])
                    ))
            }
            if chance(30) { members.append(("velocity", object([("y", number())]))) }
            if chance(20) { members.append(("note", #""esc \" \\ \u00e9 \ud83d\ude00""#)) }
            if chance(10) { members.append(("extra", "[null,true,{\"a\":[]}]")) }
            return object(members)
        }

        /// A message broken so that it cannot decode: a required field missing or of the wrong type, a bad
        /// phase, or text that is not JSON.
        mutating func brokenMessage() -> String {
            let valid = message()
            let required = [
                "\"seq\"", "\"t\"", "\"contentOffset\"", "\"contentSize\"", "\"containerSize\"", "\"phase\"",
            ]
            switch below(4) {
            case 0: return valid.replacingOccurrences(of: required[below(6)], with: "\"renamed\"")
            case 1:
                return valid.replacingOccurrences(of: "\"phase\"", with: "\"phase\":\"sliding\",\"old\"")
            case 2:
                let key = ["\"x\"", "\"y\"", "\"width\"", "\"height\"", "\"seq\"", "\"t\""][below(6)]
                return valid.replacingOccurrences(of: key, with: "\(key):\"1\",\"was\"")
            default: return String(valid.dropLast(1 + below(5)))
            }
        }
    }

    static func foundationDecode(_ text: String) -> GeometryReport? {
        try? JSONDecoder().decode(GeometryReport.self, from: Data(text.utf8))
    }

    static func handDecode(_ text: String) -> GeometryReport? {
        guard case .geometry(let report)? = try? ClientMessage.decode(Array(text.utf8)) else { return nil }
        return report
    }

    /// The hot path alone (nil: it hands the message to the general reader).
    static func fastDecode(_ text: String) -> GeometryReport? {
        Array(text.utf8).withUnsafeBufferPointer(JSONParser.parseGeometryMessage)
    }

    /// Every double compared bit for bit, so even the sign of zero must agree.
    static func bits(_ report: GeometryReport) -> [UInt64] {
        let g = report.geometry
        return [
            report.t, g.contentOffset.x, g.contentOffset.y, g.contentSize.width, g.contentSize.height,
            g.containerSize.width,
            g.containerSize.height, g.contentInsets.top, g.contentInsets.leading, g.contentInsets.bottom,
            g.contentInsets.trailing,
        ].map(\.bitPattern)
    }

    @Test func validMessagesDecodeIdentically() {
        var generator = MessageGenerator(random: SeededGenerator(seed: 2024))
        var fastPathHits = 0
        for _ in 0..<3000 {
            let text = generator.message()
            let foundation = Self.foundationDecode(text)
            let hand = Self.handDecode(text)
            #expect(foundation != nil, "Foundation refused \(text)")
            #expect(hand == foundation, "\(text)")
            if let hand, let foundation {
                #expect(Self.bits(hand) == Self.bits(foundation), "\(text)")
            }
            // The hot path, where it answers, answers the same; it leaves messages with unknown fields to the general reader.
            if let fast = Self.fastDecode(text) {
                fastPathHits += 1
                #expect(fast == foundation && Self.bits(fast) == foundation.map(Self.bits), "\(text)")
                #expect(!text.contains("velocity") && !text.contains("note") && !text.contains("extra"))
            }
        }
        #expect(fastPathHits > 1000)
    }

    @Test func brokenMessagesAreRefusedByBoth() {
        var generator = MessageGenerator(random: SeededGenerator(seed: 77))
        for _ in 0..<1000 {
            let text = generator.brokenMessage()
            #expect(Self.foundationDecode(text) == nil, "Foundation accepted \(text)")
            #expect(Self.handDecode(text) == nil, "accepted \(text)")
            #expect(Self.fastDecode(text) == nil, "hot path accepted \(text)")
        }
    }

    /// What the hot path does not expect goes to the general reader, which accepts it or names the problem.
    @Test(arguments: [
        (#""x":0,"y":-12.25"#, #""x":0,"y":-12.25,"z":9"#),
        (#""top":47"#, #""top":47,"start":1"#),
        (#""phase":"interacting""#, #""phase":"interacting","velocity":3"#),
        (#""seq":7"#, #""s\u0065q":7"#),
        (#""phase":"interacting""#, #""phase":"interactin\u0067""#),
        (#""contentInsets":{"top":47,"leading":0,"bottom":34,"trailing":0},"#, ""),
    ])
    func hotPathHandsUnexpectedShapesToTheGeneralReader(replacing: String, with: String) throws {
        let text = ClientMessageDecodingTests.geometryText.replacingOccurrences(of: replacing, with: with)
        #expect(text != ClientMessageDecodingTests.geometryText)
        let decoded = try ClientMessage.decode(Array(text.utf8))
        var expected = ClientMessageDecodingTests.geometry
        if with.isEmpty { expected.geometry.contentInsets = .zero }
        #expect(decoded == .geometry(expected))
        #expect(Self.foundationDecode(text) == expected)
        if with.isEmpty {
            #expect(Self.fastDecode(text) == expected)
        } else {
            #expect(Self.fastDecode(text) == nil)
        }
    }

    @Test(arguments: [
        (#""top":47"#, #""top":"47""#, #"field "contentInsets.top" must be a number"#),
        (#""y":-12.25"#, #""y":-"#, "not JSON: invalid number at byte 66"),
        (#""type":"geometry""#, #""type":"geometry","type":"ping""#, ""),
    ])
    func hotPathNeverAcceptsWhatTheGeneralReaderRefuses(replacing: String, with: String, message: String) {
        let text = ClientMessageDecodingTests.geometryText.replacingOccurrences(of: replacing, with: with)
        #expect(Self.fastDecode(text) == nil)
        do {
            let decoded = try ClientMessage.decode(Array(text.utf8))
            // A repeated name keeps its last value, on both paths.
            #expect(message.isEmpty && decoded == .ping(id: .null))
        } catch {
            #expect(error.message == message)
        }
    }
}

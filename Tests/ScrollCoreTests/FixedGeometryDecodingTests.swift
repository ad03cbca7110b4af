import Testing

@testable import ScrollCore

/// The fixed-shape geometry reader (JSONParser+FixedGeometry.swift) reads the page's and the bench's
/// messages, and whatever it answers for any text, the general decoder answers the same.
struct FixedGeometryDecodingTests {
    /// As the page sends it: `geometryOf`'s members, then `rev` and `anchor`.
    static let pageText =
        #"{"type":"geometry","seq":41,"t":683.5,"contentOffset":{"x":0,"y":-12.25},"contentSize":{"width":390,"height":2744.5},"containerSize":{"width":390,"height":700},"contentInsets":{"top":47,"leading":0,"bottom":34,"trailing":0},"phase":"interacting","rev":3,"anchor":{"id":"item-12","offset":-8.5}}"#
    /// As `scroll-bench` sends it: no `rev`, no `anchor`.
    static let benchText =
        #"{"type":"geometry","seq":7,"t":116.669,"contentOffset":{"x":0,"y":1e2},"contentSize":{"width":390,"height":3000},"containerSize":{"width":390,"height":844},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"phase":"decelerating"}"#

    static func fixed(_ bytes: [UInt8]) -> GeometryReport? {
        bytes.withUnsafeBufferPointer(JSONParser.parseFixedGeometryMessage)
    }

    /// Every double bit for bit, so even the sign of zero must agree.
    static func bits(_ report: GeometryReport) -> [UInt64] {
        let g = report.geometry
        return [
            report.t, g.contentOffset.x, g.contentOffset.y, g.contentSize.width, g.contentSize.height,
            g.containerSize.width, g.containerSize.height, g.contentInsets.top, g.contentInsets.leading,
            g.contentInsets.bottom, g.contentInsets.trailing, report.anchor?.offset ?? 0,
        ].map(\.bitPattern)
    }

    /// If the fixed reader answers, the general decoder gives the same report.
    static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let fast = fixed(bytes) else { return false }
        let general = Result { () throws(ProtocolError) in try ClientMessage.decodeGenerally(bytes) }
        guard case .success(.geometry(let report)) = general else {
            Issue.record(
                "fixed reader accepted what the general decoder refuses: \(general)", sourceLocation: sourceLocation)
            return true
        }
        #expect(
            report == fast && bits(report) == bits(fast), "\(String(decoding: bytes, as: UTF8.self))",
            sourceLocation: sourceLocation)
        return true
    }

    @Test func readsThePagesAndTheBenchsMessages() throws {
        let page = try #require(Self.fixed(Array(Self.pageText.utf8)))
        #expect(
            page
                == GeometryReport(
                    seq: 41, t: 683.5,
                    geometry: FeedGeometry(
                        contentOffset: ScrollPoint(x: 0, y: -12.25),
                        contentSize: ScrollSize(width: 390, height: 2744.5),
                        containerSize: ScrollSize(width: 390, height: 700),
                        contentInsets: ScrollInsets(top: 47, leading: 0, bottom: 34, trailing: 0)),
                    phase: .interacting, anchor: ItemAnchor(id: "item-12", offset: -8.5), rev: 3))
        #expect(Self.expectAgreement(Array(Self.pageText.utf8)))
        #expect(Self.expectAgreement(Array(Self.benchText.utf8)))
        for phase in FeedScrollPhase.allCases {
            let text = Self.benchText.replacingOccurrences(of: "decelerating", with: phase.rawValue)
            #expect(Self.fixed(Array(text.utf8))?.phase == phase)
        }
    }

    /// Every message one byte away from the page's and the bench's (a byte deleted, replaced or inserted
    /// anywhere): where the fixed reader answers, the general decoder answers the same.
    @Test func agreesWithTheGeneralDecoderOnEveryOneByteChange() {
        let bytesToTry: [UInt8] = Array(#"0 9-.e"\,}{:a"#.utf8) + [0x00, 0x0A, 0x80, 0xC3]
        var answered = 0
        var tried = 0
        for text in [Self.pageText, Self.benchText] {
            let original = Array(text.utf8)
            for position in 0...original.count {
                var variants: [[UInt8]] = []
                if position < original.count {
                    var deleted = original
                    deleted.remove(at: position)
                    variants.append(deleted)
                }
                for byte in bytesToTry {
                    var inserted = original
                    inserted.insert(byte, at: position)
                    variants.append(inserted)
                    if position < original.count {
                        var replaced = original
                        replaced[position] = byte
                        variants.append(replaced)
                    }
                }
                for variant in variants {
                    tried += 1
                    if Self.expectAgreement(variant) { answered += 1 }
                }
            }
        }
        // Numbers changed in place are still read by the fixed reader: the comparison covers it.
        #expect(tried > 10_000)
        #expect(answered > 500)
    }

    /// Integers read by the fixed reader's own digit loop, and spellings around its edges, read as the general
    /// decoder reads them (or left to it).
    @Test(arguments: [
        "0", "-0", "7", "-7", "123456789012345", "-123456789012345", "1234567890123456", "99999999999999999999",
        "007", "-", "0.5", "1e2", "1E2", "-0.0", "12.", "9007199254740993",
    ])
    func integersReadAsTheGeneralDecoderReadsThem(spelling: String) {
        let text = Self.pageText.replacingOccurrences(of: #""y":-12.25"#, with: #""y":"# + spelling)
            .replacingOccurrences(of: #""top":47"#, with: #""top":"# + spelling)
        _ = Self.expectAgreement(Array(text.utf8))
        let general = try? ClientMessage.decodeGenerally(Array(text.utf8))
        if case .geometry(let report)? = general {
            #expect(Self.fixed(Array(text.utf8)).map(Self.bits) == Self.bits(report), "\(spelling)")
        } else {
            #expect(Self.fixed(Array(text.utf8)) == nil, "\(spelling)")
        }
    }

    /// What the fixed reader does not expect goes on to the other readers, which still accept it.
    @Test(arguments: [
        (#""seq":41,"t""#, #""seq": 41,"t""#),
        (#","rev":3,"anchor":{"id":"item-12","offset":-8.5}"#, #","anchor":{"id":"item-12","offset":-8.5},"rev":3"#),
        (#""phase":"interacting""#, #""phase":"interacting","velocity":1"#),
        (#""id":"item-12""#, #""id":"item\u002d12""#),
    ])
    func otherShapesTakeTheOtherReaders(replacing: String, with: String) throws {
        let text = Self.pageText.replacingOccurrences(of: replacing, with: with)
        #expect(text != Self.pageText)
        #expect(Self.fixed(Array(text.utf8)) == nil)
        let expected = try #require(Self.fixed(Array(Self.pageText.utf8)))
        #expect(try ClientMessage.decode(Array(text.utf8)) == .geometry(expected))
    }
}

import Testing

@testable import ScrollCore

/// Decoding client messages, and the error code each kind of bad message maps to.
struct ClientMessageDecodingTests {
    func decode(_ text: String) throws(ProtocolError) -> ClientMessage {
        try ClientMessage.decode(Array(text.utf8))
    }

    /// The error a text is refused with (nil when it decodes).
    func refusal(_ text: String) -> ProtocolError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    static let geometryText = #"""
        {"type":"geometry","seq":7,"t":1234.5,"contentOffset":{"x":0,"y":-12.25},"contentSize":{"width":390,"height":2400},
         "containerSize":{"width":390,"height":844},"contentInsets":{"top":47,"leading":0,"bottom":34,"trailing":0},"phase":"interacting"}
        """#

    static let geometry = GeometryReport(
        seq: 7, t: 1234.5,
        geometry: FeedGeometry(
            contentOffset: ScrollPoint(x: 0, y: -12.25), contentSize: ScrollSize(width: 390, height: 2400),
            containerSize: ScrollSize(width: 390, height: 844),
            contentInsets: ScrollInsets(top: 47, leading: 0, bottom: 34, trailing: 0)),
        phase: .interacting)

    @Test func decodesEveryClientMessage() throws {
        #expect(try decode(Self.geometryText) == .geometry(Self.geometry))
        #expect(
            try decode(
                #"{"type":"hello","version":1,"preset":"refreshable","config":{"pullThreshold":80},"resume":"abc","lastRev":4}"#
            )
                == .hello(
                    Hello(
                        version: 1, config: ["pullThreshold": 80, "preset": "refreshable"], resume: "abc", lastRev: 4)))
        #expect(try decode(#"{"type":"hello"}"#) == .hello(Hello()))
        #expect(try decode(#"{"type":"hello","version":1,"resume":null,"lastRev":null}"#) == .hello(Hello()))
        #expect(
            try decode(#"{"type":"config","bottomThreshold":10,"compare":true}"#)
                == .config(["bottomThreshold": 10, "compare": true]))
        #expect(try decode(#"{"type":"refresh"}"#) == .refresh)
        #expect(try decode(#"{"type":"loadMore"}"#) == .loadMore)
        #expect(try decode(#"{"type":"reset"}"#) == .reset)
        #expect(try decode(#"{"type":"jump","id":"item-500"}"#) == .jump(JumpRequest(id: "item-500", anchor: .top)))
        #expect(
            try decode(#"{"type":"jump","id":"item-5","anchor":"center"}"#)
                == .jump(JumpRequest(id: "item-5", anchor: .center)))
        #expect(try decode(#"{"type":"ping","id":"p-1"}"#) == .ping(id: "p-1"))
        #expect(try decode(#"{"type":"ping","id":{"n":[1,2]}}"#) == .ping(id: ["n": [1, 2]]))
        #expect(try decode(#"{"type":"ping"}"#) == .ping(id: .null))
    }

    @Test func decodesFromAnyByteCollection() throws {
        let bytes = Array(Self.geometryText.utf8)
        #expect(try ClientMessage.decode(bytes[...]) == .geometry(Self.geometry))
        #expect(try ClientMessage.decode(ContiguousArray(#"{"type":"reset"}"#.utf8)) == .reset)
    }

    @Test func contentInsetsAreOptionalAndDefaultToZero() throws {
        let bare =
            #"{"type":"geometry","seq":1,"t":0,"contentOffset":{"x":0,"y":5},"contentSize":{"width":1,"height":2},"containerSize":{"width":1,"height":1},"phase":"idle"}"#
        guard case .geometry(let report) = try decode(bare) else {
            Issue.record("not a geometry")
            return
        }
        #expect(report.geometry.contentInsets == .zero)
        let partial = bare.replacingOccurrences(of: #""phase""#, with: #""contentInsets":{"top":20},"phase""#)
        guard case .geometry(let inset) = try decode(partial) else {
            Issue.record("not a geometry")
            return
        }
        #expect(inset.geometry.contentInsets == ScrollInsets(top: 20))
    }

    @Test func unknownFieldsAreIgnored() throws {
        let extended = Self.geometryText.replacingOccurrences(
            of: #""phase":"interacting""#,
            with: #""phase":"interacting","velocity":{"y":-3.5},"note":"a\"b","list":[1,[2,{}]],"flag":null"#)
        #expect(try decode(extended) == .geometry(Self.geometry))
        let nestedExtra = Self.geometryText.replacingOccurrences(
            of: #""x":0,"y":-12.25"#, with: #""x":0,"y":-12.25,"z":9"#)
        #expect(try decode(nestedExtra) == .geometry(Self.geometry))
        #expect(try decode(#"{"type":"hello","version":1,"client":"test","features":["a"]}"#) == .hello(Hello()))
        #expect(try decode(#"{"type":"refresh","why":"because"}"#) == .refresh)
    }

    @Test(arguments: ["", "{", "not json", #"{"type":"geometry""#, "[1,]", #"{"type":"ping"} x"#])
    func badJSON(text: String) {
        let error = refusal(text)
        #expect(error?.code == .badJSON)
        #expect(error?.message.hasPrefix("not JSON: ") == true)
        #expect(error?.ref == nil)
    }

    @Test(arguments: [
        ("[1]", "a message must be a JSON object"),
        ("\"hello\"", "a message must be a JSON object"),
        ("{}", #"missing field "type""#),
        (#"{"type":3}"#, #"field "type" must be a string"#),
        (#"{"type":"hello","version":2}"#, #"field "version" must be 1"#),
        (#"{"type":"hello","version":"1"}"#, #"field "version" must be a number"#),
        (#"{"type":"hello","config":[]}"#, #"field "config" must be an object"#),
        (#"{"type":"hello","resume":5}"#, #"field "resume" must be a string"#),
        (#"{"type":"hello","lastRev":-1}"#, #"field "lastRev" must be a non-negative integer"#),
        (#"{"type":"hello","lastRev":1.5}"#, #"field "lastRev" must be a non-negative integer"#),
        (#"{"type":"jump"}"#, #"missing field "id""#),
        (#"{"type":"jump","id":""}"#, #"field "id" must be a non-empty string"#),
        (#"{"type":"jump","id":7}"#, #"field "id" must be a non-empty string"#),
        (#"{"type":"jump","id":"item-1","anchor":"middle"}"#, #"field "anchor" must be one of top, center, bottom"#),
    ])
    func badMessageNamesTheField(text: String, message: String) {
        #expect(refusal(text) == ProtocolError(.badMessage, message))
    }

    /// Geometry errors name the field, and once `seq` is known they refer to it.
    @Test(
        arguments: [
            ("\"seq\":7,", "", #"missing field "seq""#, nil),
            ("\"seq\":7", "\"seq\":-7", #"field "seq" must be a non-negative integer"#, nil),
            ("\"seq\":7", "\"seq\":7.5", #"field "seq" must be a non-negative integer"#, nil),
            ("\"seq\":7", "\"seq\":\"7\"", #"field "seq" must be a number"#, nil),
            ("\"t\":1234.5,", "", #"missing field "t""#, 7),
            ("\"contentOffset\":{\"x\":0,\"y\":-12.25},", "", #"missing field "contentOffset""#, 7),
            ("\"y\":-12.25", "\"y\":\"-12\"", #"field "contentOffset.y" must be a number"#, 7),
            ("\"x\":0,\"y\":-12.25", "\"y\":-12.25", #"missing field "contentOffset.x""#, 7),
            (
                "\"width\":390,\"height\":2400", "\"width\":390,\"height\":-1",
                #"field "contentSize.height" must be ≥ 0"#, 7
            ),
            (
                "\"width\":390,\"height\":844", "\"width\":-390,\"height\":844",
                #"field "containerSize.width" must be ≥ 0"#, 7
            ),
            (
                "\"containerSize\":{\"width\":390,\"height\":844}", "\"containerSize\":[390,844]",
                #"field "containerSize" must be an object"#, 7
            ),
            ("\"top\":47", "\"top\":true", #"field "contentInsets.top" must be a number"#, 7),
            (",\"phase\":\"interacting\"", "", #"missing field "phase""#, 7),
            (
                "\"interacting\"", "\"flinging\"",
                #"field "phase" must be one of idle, tracking, interacting, decelerating, animating"#, 7
            ),
            (
                "\"interacting\"", "1",
                #"field "phase" must be one of idle, tracking, interacting, decelerating, animating"#, 7
            ),
        ] as [(String, String, String, Int?)])
    func badGeometryNamesTheField(replacing: String, with: String, message: String, ref: Int?) {
        let text = Self.geometryText.replacingOccurrences(of: replacing, with: with)
        #expect(text != Self.geometryText)
        #expect(refusal(text) == ProtocolError(.badMessage, message, ref: ref))
    }

    @Test func unknownType() {
        #expect(
            refusal(#"{"type":"teleport","to":"top"}"#)
                == ProtocolError(.unknownType, #"unknown message type "teleport""#))
        #expect(refusal(#"{"type":"Geometry"}"#)?.code == .unknownType)
    }

    /// A hostile type of any size is quoted in at most ``ClientText/maxQuotedBytes`` bytes, cut on a
    /// character boundary and marked as cut.
    @Test func unknownTypeQuotesAtMostAHundredBytes() throws {
        let huge = String(repeating: "x", count: 99) + String(repeating: "é", count: 30_000)
        let error = try #require(refusal(#"{"type":""# + huge + #""}"#))
        #expect(error.code == .unknownType)
        #expect(
            error.message == #"unknown message type ""# + String(repeating: "x", count: 99) + #"…(cut: 60099 bytes)""#)
        #expect(ClientText.excerpt("short") == "short")
    }

    /// `not_ready`, `too_large` and `rate_limited` are decided by the server around the decoder (a session's
    /// state, the frame size, the rate); the codes and their wire spelling live here.
    @Test func everyErrorCodeHasItsWireSpelling() {
        #expect(
            ErrorCode.allCases.map(\.rawValue) == [
                "bad_json", "bad_message", "unknown_type", "too_large", "rate_limited", "not_ready", "too_many_errors",
                "server_full", "unknown_item",
            ])
        let refused = ServerMessage.error(ProtocolError(.notReady, "send hello first"))
        #expect(
            String(decoding: refused.encoded(), as: UTF8.self)
                == #"{"type":"error","code":"not_ready","message":"send hello first"}"#)
        #expect(ProtocolError(.tooLarge, "too big").description == "too_large: too big")
    }
}

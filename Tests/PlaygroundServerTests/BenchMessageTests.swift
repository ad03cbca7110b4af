import Testing

@testable import scroll_bench

/// `scroll-bench --url` reads any server of the protocol: the playground's compact messages by scanning,
/// and JSON written another way (spaces, another key order, as Python's `json.dumps` writes it) by parsing.
struct BenchMessageTests {
    static func fields(_ text: String) -> MessageFields {
        var text = text
        return text.withUTF8 { MessageFields($0) }
    }

    @Test func compactMessagesAreScanned() {
        let state = Self.fields(#"{"type":"state","ack":12,"preset":"playground"}"#)
        #expect(state.kind == .state)
        #expect(state.ack == 12)
        #expect(Self.fields(#"{"type":"pong","id":7}"#).id == 7)
        #expect(Self.fields(#"{"type":"items","op":"append","rev":2,"items":[],"total":50}"#).total == 50)
        #expect(Self.fields(#"{"type":"error","code":"bad_json","message":"x"}"#).code == "bad_json")
        #expect(Self.fields(#"{"type":"welcome","session":"s1"}"#).kind == .welcome)
    }

    @Test func otherFormsAreParsed() {
        let spaced = Self.fields(#"{"type": "state", "ack": 12, "preset": "playground"}"#)
        #expect(spaced.kind == .state)
        #expect(spaced.ack == 12)
        let reordered = Self.fields(#"{"ack":3,"type":"state"}"#)
        #expect(reordered.kind == .state)
        #expect(reordered.ack == 3)
        #expect(Self.fields(#"{"id": 9, "type": "pong"}"#).id == 9)
        #expect(Self.fields(#"{"session": "s1", "type": "welcome"}"#).kind == .welcome)
        #expect(Self.fields(#"{"type": "error", "code": "not_ready"}"#).code == "not_ready")
    }

    @Test func aStateBeforeAnyGeometryAcknowledgesNothing() {
        let first = Self.fields(#"{"type":"state","ack":null,"preset":"playground"}"#)
        #expect(first.kind == .state)
        #expect(first.ack == nil)
        #expect(Self.fields("not json").kind == .other)
    }
}

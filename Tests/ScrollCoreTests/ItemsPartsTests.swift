import ScrollCore
import Testing

/// ``ItemsParts``: a list that fits goes as the frame `encoded()` writes; a longer one in parts that each fit
/// and together carry the list, in order (docs/protocol.md, "Messages in parts").
@Suite struct ItemsPartsTests {
    private func items(_ count: Int, from first: Int = 0) -> [FeedItem] {
        (first..<first + count).compactMap { FeedSource.synthetic.item(at: $0, seed: 7) }
    }

    private func frames(_ message: ItemsMessage, maxBytes: Int) -> [[UInt8]] {
        var parts = ItemsParts(message, maxBytes: maxBytes)
        var frames: [[UInt8]] = []
        while let frame = parts.next() { frames.append(frame) }
        return frames
    }

    @Test(arguments: [ItemsMessage.Operation.replace, .append, .prepend])
    func aMessageThatFitsIsTheFrameEncodedWrites(op: ItemsMessage.Operation) {
        for message in [
            ItemsMessage(op: op, rev: 3, items: items(20), total: 40, hasMore: true),
            ItemsMessage(op: op, rev: 4, items: [], total: 40, hasMore: false, older: op == .prepend),
        ] {
            #expect(frames(message, maxBytes: 64 * 1024) == [ServerMessage.items(message).encoded()])
        }
        let trim = ItemsMessage.trim(.top, count: 5, rev: 9, total: 35, hasMore: true)
        #expect(frames(trim, maxBytes: 64) == [ServerMessage.items(trim).encoded()])
    }

    @Test func aLongReplaceGoesInPartsThatFitAndCarryTheListInOrder() throws {
        let list = items(3_000)
        let message = ItemsMessage(op: .replace, rev: 12, items: list, total: 3_000, hasMore: true)
        let whole = ServerMessage.items(message).encoded().count
        let maxBytes = 4 * 1024
        let parts = frames(message, maxBytes: maxBytes)
        #expect(parts.count >= whole / maxBytes)
        var ids: [String] = []
        for (index, frame) in parts.enumerated() {
            #expect(frame.count <= maxBytes)
            let json = try JSONParser.parse(frame)
            #expect(json["type"] == "items" && json["rev"] == 12 && json["total"] == 3_000 && json["hasMore"] == true)
            #expect(json["op"]?.string == (index == 0 ? "replace" : "append"))
            #expect(json["part"] == .int(index + 1))
            #expect((json["more"] == true) == (index < parts.count - 1))
            ids += (json["items"]?.array ?? []).compactMap { $0["id"]?.string }
        }
        #expect(ids == list.map(\.id))
    }

    @Test func aPrependIsNeverSplitAndAnItemLargerThanAPartGoesAlone() throws {
        let prepend = ItemsMessage(op: .prepend, rev: 2, items: items(200), total: 200, hasMore: true, older: true)
        #expect(frames(prepend, maxBytes: 1024) == [ServerMessage.items(prepend).encoded()])
        let append = ItemsMessage(op: .append, rev: 5, items: items(3), total: 3, hasMore: false)
        let parts = frames(append, maxBytes: 64)
        #expect(parts.count == 3)
        #expect(try parts.map { try JSONParser.parse($0).itemCount } == [1, 1, 1])
    }
}

extension JSONValue {
    fileprivate var itemCount: Int { self["items"]?.array?.count ?? 0 }
}

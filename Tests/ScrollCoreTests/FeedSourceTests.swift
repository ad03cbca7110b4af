import Testing

@testable import ScrollCore

/// Item sources: the synthetic feed and `--items` lists.
struct FeedSourceTests {
    func parse(_ text: String) -> Result<FeedSource, FeedFileError> {
        do {
            return .success(try FeedSource.parseList(Array(text.utf8)))
        } catch {
            return .failure(error)
        }
    }

    func failure(_ text: String) -> String? {
        if case .failure(let error) = parse(text) { return error.description }
        return nil
    }

    @Test func syntheticFeedIsDeterministicBySeed() {
        let first = (0..<100).map { FeedSource.synthetic.item(at: $0, seed: 1)! }
        let again = (0..<100).map { FeedSource.synthetic.item(at: $0, seed: 1)! }
        let other = (0..<100).map { FeedSource.synthetic.item(at: $0, seed: 2)! }
        #expect(first == again)
        #expect(first.map(\.id) == (1...100).map { "item-\($0)" })
        #expect(first.map(\.title) == (1...100).map { "Item \($0)" })
        #expect(other.map(\.id) == first.map(\.id))
        // The seed decides subtitles and heights.
        #expect(other.map(\.subtitle) != first.map(\.subtitle))
        #expect(other.map(\.height) != first.map(\.height))
        // Heights vary within 56…120 px; subtitles are two words.
        #expect(first.allSatisfy { (56...120).contains($0.height!) })
        #expect(Set(first.map(\.height)).count > 20)
        #expect(first.allSatisfy { $0.subtitle!.split(separator: " ").count == 2 && $0.extra.isEmpty })
        // An item does not depend on which others were asked for first.
        #expect(FeedSource.synthetic.item(at: 57, seed: 1) == first[57])
    }

    @Test func refreshedItemsHaveFreshIdsAndAreDeterministic() {
        let items = (1...50).map { FeedSource.refreshedItem($0, seed: 1) }
        #expect(Set(items.map(\.id)).count == 50)
        #expect(items.map(\.id) == (1...50).map { "new-\($0)" })
        #expect(items == (1...50).map { FeedSource.refreshedItem($0, seed: 1) })
        #expect(items.allSatisfy { (56...120).contains($0.height!) })
    }

    @Test func maxItemsCapsTheFeed() {
        #expect(FeedSource.synthetic.available(maxItems: 200) == 200)
        #expect(FeedSource.synthetic.available(maxItems: 0) == nil)
        let list = FeedSource.list((1...5).map { FeedItem(id: "\($0)", title: "t\($0)") })
        #expect(list.available(maxItems: 3) == 3)
        #expect(list.available(maxItems: 10) == 5)
        #expect(list.available(maxItems: 0) == 5)
        #expect(list.item(at: 4, seed: 1)?.id == "5")
        #expect(list.item(at: 5, seed: 1) == nil)
    }

    @Test func parsesAListKeepingExtraFields() throws {
        let source = try parse(
            #"""
            [{"id":"a","title":"First","subtitle":"sub","height":80,"tags":["x"],"author":{"name":"Ann"}},
             {"id":7,"title":"Second","subtitle":null},
             {"id":"c","title":"Third","height":null}]
            """#
        ).get()
        #expect(
            source
                == .list([
                    FeedItem(
                        id: "a", title: "First", subtitle: "sub", height: 80,
                        extra: ["tags": ["x"], "author": ["name": "Ann"]]),
                    FeedItem(id: "7", title: "Second"),
                    FeedItem(id: "c", title: "Third"),
                ]))
        guard case .list(let items) = source else { return }
        #expect(
            items[0].json == [
                "id": "a", "title": "First", "subtitle": "sub", "height": 80, "tags": ["x"], "author": ["name": "Ann"],
            ])
    }

    @Test(arguments: [
        ("[1,", "not JSON: "),
        (#"{"id":"a","title":"t"}"#, "expected a JSON array of items"),
        ("[3]", "item 0 is not an object"),
        (#"[{"id":7,"title":"t","subtitle":5}]"#, #"item 0: "subtitle" must be a string"#),
        (#"[{"id":7,"title":"t","height":-3}]"#, #"item 0: "height" must be a positive number (px)"#),
        (#"[{"id":"c","title":"t","height":"tall"}]"#, #"item 0: "height" must be a positive number (px)"#),
        (#"[{"id":"a","title":"t"},{"title":"t"}]"#, #"item 1 needs an "id" (string or integer)"#),
        (#"[{"id":1.5,"title":"t"}]"#, #"item 0 needs an "id" (string or integer)"#),
        (#"[{"id":null,"title":"t"}]"#, #"item 0 needs an "id" (string or integer)"#),
        (#"[{"id":"a"}]"#, #"item 0 needs a string "title""#),
        (#"[{"id":"a","title":3}]"#, #"item 0 needs a string "title""#),
        (#"[{"id":"a","title":"t"},{"id":"b","title":"u"},{"id":"a","title":"v"}]"#, #"item 2 repeats id "a""#),
        (#"[{"id":1,"title":"t"},{"id":"1","title":"u"}]"#, #"item 1 repeats id "1""#),
    ])
    func badListsAreRefusedWithTheReason(text: String, reason: String) {
        let message = failure(text)
        #expect(message?.hasPrefix(reason) == true, "\(message ?? "accepted")")
    }

    @Test func aSessionPagesThroughAListAndStopsAtItsEnd() throws {
        let entries = (1...7).map { #"{"id":"e\#($0)","title":"Entry \#($0)"}"# }.joined(separator: ",")
        let source = try parse("[\(entries)]").get()
        var h = Harness(["initialCount": 3, "pageSize": 3], source: source)
        #expect(h.session.window.items.map(\.id) == ["e1", "e2", "e3"])
        h.send(.loadMoreRequested)
        h.advance(by: 600)
        h.send(.loadMoreRequested)
        let last = h.advance(by: 600).itemsMessages
        #expect(
            last == [
                ItemsMessage(
                    op: .append, rev: 3, items: [FeedItem(id: "e7", title: "Entry 7")], total: 7, hasMore: false)
            ])
        h.send(.loadMoreRequested)
        #expect(h.loggedNames.last == .feedExhausted)
        // maxItems caps a list as well.
        let capped = Harness(["initialCount": 30, "maxItems": 5], source: source)
        #expect(capped.session.window.items.count == 5)
        #expect(capped.lastState.hasMore == false)
    }

    @Test func seededGeneratorIsReproducible() {
        var a = SeededGenerator(seed: 99)
        var b = SeededGenerator(seed: 99)
        var c = SeededGenerator(seed: 100)
        let first = (0..<10).map { _ in a.next() }
        #expect(first == (0..<10).map { _ in b.next() })
        #expect(first != (0..<10).map { _ in c.next() })
        #expect(SeededGenerator.mix(1, 5) == SeededGenerator.mix(1, 5))
        #expect(SeededGenerator.mix(1, 5) != SeededGenerator.mix(1, 6))
    }
}

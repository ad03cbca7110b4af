import Testing

@testable import LWSTransport

@Suite struct OutboundQueueTests {
    private func drain(_ queue: inout OutboundQueue, maxBytes: Int = 1024) -> [String] {
        var out: [String] = []
        while let fragment = queue.nextFragment(maxBytes: maxBytes) {
            out.append(String(decoding: fragment.bytes, as: UTF8.self))
        }
        return out
    }

    /// The newest keyed message goes last, so a `state` never overtakes `items` queued before it.
    @Test func keyedMessageReplacesTheOlderOneAndGoesLast() {
        var queue = OutboundQueue()
        queue.enqueue(Array("a".utf8))
        let replaced1 = queue.enqueue(Array("s1".utf8), coalescingKey: "state")
        #expect(!replaced1)
        queue.enqueue(Array("b".utf8))
        let replaced2 = queue.enqueue(Array("s22".utf8), coalescingKey: "state")
        #expect(replaced2)
        #expect(queue.count == 3)
        #expect(queue.byteCount == 5)
        #expect(queue.messages.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "b", "s22"])
        #expect(drain(&queue) == ["a", "b", "s22"])
        #expect(queue.isEmpty)
        #expect(queue.byteCount == 0)
    }

    @Test func messagesWithoutKeyAreNeverDropped() {
        var queue = OutboundQueue()
        for index in 0..<100 { queue.enqueue(Array("m\(index)".utf8)) }
        #expect(drain(&queue) == (0..<100).map { "m\($0)" })
    }

    @Test func differentKeysDoNotInterfere() {
        var queue = OutboundQueue()
        queue.enqueue(Array("x1".utf8), coalescingKey: "x")
        queue.enqueue(Array("y1".utf8), coalescingKey: "y")
        queue.enqueue(Array("x2".utf8), coalescingKey: "x")
        #expect(drain(&queue) == ["y1", "x2"])
    }

    @Test func messageBeingWrittenIsNotReplaced() {
        var queue = OutboundQueue()
        queue.enqueue(Array("0123456789".utf8), coalescingKey: "state")
        let first = queue.nextFragment(maxBytes: 4)
        #expect(first == .init(bytes: Array("0123".utf8)[...], isBinary: false, isFirst: true, isLast: false))
        let replaced3 = queue.enqueue(Array("new".utf8), coalescingKey: "state")
        #expect(!replaced3)
        let replaced4 = queue.enqueue(Array("newer".utf8), coalescingKey: "state")
        #expect(replaced4)
        #expect(queue.byteCount == 6 + 5)
        #expect(drain(&queue, maxBytes: 4) == ["4567", "89", "newe", "r"])
    }

    @Test func fragmentsMarkFirstAndLast() {
        var queue = OutboundQueue()
        queue.enqueue(Array(repeating: 1, count: 10), isBinary: true)
        queue.enqueue([])
        var fragments: [OutboundQueue.Fragment] = []
        while let fragment = queue.nextFragment(maxBytes: 4) { fragments.append(fragment) }
        #expect(fragments.map(\.bytes.count) == [4, 4, 2, 0])
        #expect(fragments.map(\.isFirst) == [true, false, false, true])
        #expect(fragments.map(\.isLast) == [false, false, true, true])
        #expect(fragments.map(\.isBinary) == [true, true, true, false])
    }

    @Test func compactionKeepsKeysPointingAtTheRightMessage() {
        var queue = OutboundQueue()
        for index in 0..<40 { queue.enqueue(Array("m\(index)".utf8)) }
        queue.enqueue(Array("s1".utf8), coalescingKey: "state")
        for _ in 0..<40 { _ = queue.nextFragment(maxBytes: 100) }  // triggers compaction
        queue.enqueue(Array("tail".utf8))
        let replaced5 = queue.enqueue(Array("s2".utf8), coalescingKey: "state")
        #expect(replaced5)
        #expect(drain(&queue) == ["tail", "s2"])
    }
}

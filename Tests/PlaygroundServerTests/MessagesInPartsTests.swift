import LWSClient
import ScrollCore
import Testing

/// A long list reaches its page in parts (docs/protocol.md, "Messages in parts"): a far jump or a resume of
/// every item a session holds, however long, under the default `--max-message` and `--max-outbound`.
@Suite struct MessagesInPartsTests {
    /// The `items` frames of one rev as they arrive (raw text, to see each frame's size), until the one
    /// without `more`; then the messages that came after it.
    private func parts(on page: PlaygroundConnection, after send: () throws -> Void) throws -> [String] {
        try send()
        var frames: [String] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline, case .text(let text)? = page.client.receive(timeout: .seconds(10)) {
            let message = try JSONParser.parse(text)
            guard message["type"] == "items" else { continue }
            guard message["op"] == "replace" || !frames.isEmpty else { continue }
            frames.append(text)
            if message["more"] == nil { return frames }
        }
        Issue.record("the last part did not arrive (\(frames.count) parts)")
        return frames
    }

    @Test func aJumpToItem100000ArrivesInPartsEachWithinMaxMessage() throws {
        // Only the item cap is raised; --max-message (64 KiB) and --max-outbound (4 MiB) are the defaults.
        let server = try ServerProcess(["--max-session-items", "200000"])
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(config: ["maxItems": 0, "loadLatencyMs": 0])
        let frames = try parts(on: page) {
            try page.send(["type": "jump", "id": "item-100000", "anchor": "top"])
        }
        let messages = try frames.map { try JSONParser.parse($0) }
        #expect(frames.count > 100)
        #expect(frames.allSatisfy { $0.utf8.count <= 64 * 1024 })
        let rev = messages[0]["rev"]
        for (index, message) in messages.enumerated() {
            #expect(message["rev"] == rev)
            #expect(message["part"] == .int(index + 1))
            #expect(message["op"]?.string == (index == 0 ? "replace" : "append"))
            #expect((message["more"] == true) == (index < messages.count - 1))
        }
        let ids = messages.flatMap(\.itemIDs)
        #expect(messages[0]["total"] == .int(ids.count))
        #expect(ids.first == "item-1" && ids.contains("item-100000"))
        #expect(Set(ids).count == ids.count)
        // What the server sends after the list comes after its last part: the pong answers after it.
        _ = try page.settle()
    }

    /// A message that fits goes whole, as before: no `part`, no `more`.
    @Test func aShortListGoesWhole() throws {
        let server = try ServerProcess([])
        let page = try PlaygroundConnection(port: server.port)
        let opened = try page.hello(config: ["pageSize": 30])
        #expect(opened.items["op"] == "replace" && opened.items.itemIDs.count == 30)
        #expect(opened.items["part"] == nil && opened.items["more"] == nil)
    }

    /// With the smallest outbound cap a session still holds its whole cap (no lowering at start) and its
    /// resume brings every item, in parts, instead of being closed with 1008.
    @Test func aFullSessionResumesInPartsUnderTheSmallestOutboundCap() throws {
        let server = try ServerProcess(["--max-outbound", "65536", "--max-session-items", "5000"])
        let page = try PlaygroundConnection(port: server.port)
        let welcome = try page.hello(config: ["maxItems": 0, "loadLatencyMs": 0]).welcome
        _ = try parts(on: page) { try page.send(["type": "jump", "id": "item-4990", "anchor": "top"]) }
        _ = try page.settle()
        page.client.close()
        _ = try page.client.waitForClose()
        let resumed = try PlaygroundConnection(port: server.port)
        try resumed.send(["type": "hello", "version": 1, "resume": welcome["resume"] ?? .null])
        var ids: [String] = []
        var sawMore = false
        while true {
            let items = try resumed.next("items")
            ids += items.itemIDs
            sawMore = sawMore || items["more"] == true
            if items["more"] == nil { break }
        }
        #expect(sawMore)
        #expect(ids.count >= 4990 && ids.count <= 5000)
        #expect(Set(ids).count == ids.count)
    }
}

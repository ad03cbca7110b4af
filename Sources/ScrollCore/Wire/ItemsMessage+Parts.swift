/// An `items` message written as one or more text frames of at most `maxBytes` each (docs/protocol.md,
/// "Messages in parts"). One that fits is the very frame `ServerMessage.encoded()` writes. A longer `replace`
/// or `append` goes as parts: every part has the message's `rev` and members, part 1 its `op` and the others
/// `append`, each says its `part` (from 1), and each but the last says `"more": true`. A page applies the rev
/// once the last part has arrived. The parts are written one at a time, as the connection drains, from the
/// message's own items (no copy of the list); a single item larger than `maxBytes` goes alone in a part.
public struct ItemsParts: Sendable {
    private let message: ItemsMessage
    private let maxBytes: Int
    private var nextItem = 0
    private var partsWritten = 0

    /// The members a part adds after the items, at most: `],"total":…,"hasMore":false,"older":true,"part":…,"more":true}`.
    private static let tailReserve = 160

    public init(_ message: ItemsMessage, maxBytes: Int) {
        self.message = message
        self.maxBytes = maxBytes
    }

    /// Whether a message is ever split: only a `replace` or an `append` (a `prepend` keeps the page's anchor
    /// in one piece; a `trim` has no items).
    public static func splits(_ message: ItemsMessage) -> Bool {
        message.op == .replace || message.op == .append
    }

    /// Whether every part has been written.
    public var isFinished: Bool { partsWritten > 0 && nextItem == message.items.count }

    /// The next part's frame; nil once every part has been written.
    public mutating func next() -> [UInt8]? {
        guard !isFinished else { return nil }
        let items = message.items
        let first = partsWritten == 0
        partsWritten += 1
        var writer = JSONWriter(capacity: min(maxBytes, 512 + 100 * (items.count - nextItem)))
        writer.beginObject()
        writer.key("type")
        writer.string(ServerMessage.Kind.items.rawValue)
        message.writeHead(op: first || !Self.splits(message) ? message.op : .append, to: &writer)
        writer.beginArray()
        var inPart = 0
        while nextItem < items.count {
            var item = JSONWriter(capacity: 128)
            items[nextItem].write(to: &item)
            let fits = writer.bytes.count + 1 + item.bytes.count + Self.tailReserve <= maxBytes
            guard fits || inPart == 0 || !Self.splits(message) else { break }
            writer.raw(item.bytes)
            nextItem += 1
            inPart += 1
        }
        writer.endArray()
        message.writeTail(to: &writer)
        let whole = first && nextItem == items.count
        if !whole {
            writer.key("part")
            writer.number(partsWritten)
            if nextItem < items.count {
                writer.key("more")
                writer.bool(true)
            }
        }
        writer.endObject()
        return writer.bytes
    }
}

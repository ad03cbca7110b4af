/// The messages waiting to be written to one WebSocket, oldest first, handed out one fragment at a time.
///
/// A message with a coalescing key that has not started to go out is dropped when a newer message with
/// the same key is queued, and the newer one goes last (the newest `state` wins, and it never overtakes
/// the `items` queued before it); messages without a key are never dropped or reordered.
package struct OutboundQueue {
    /// One queued message.
    struct Message {
        var bytes: [UInt8]
        var isBinary: Bool
        var coalescingKey: String?
        /// Bytes already handed out in fragments; once nonzero the message can no longer be replaced.
        var written: Int = 0
        /// Replaced by a newer message with the same key: skipped.
        var isDropped = false
    }

    /// One piece of a message to pass to a single write.
    package struct Fragment: Equatable {
        package var bytes: ArraySlice<UInt8>
        package var isBinary: Bool
        package var isFirst: Bool
        package var isLast: Bool
    }

    private var storage: [Message] = []
    private var head = 0
    // Dropped (replaced) messages between `head` and the end; each has a live successor.
    private var droppedCount = 0
    // Absolute index in `storage` of the replaceable message for each key. A list, not a dictionary: a
    // connection has one or two keys (`state`), and comparing a short key is cheaper than hashing it.
    private var replaceable: [(key: String, index: Int)] = []

    package init() {}

    /// Bytes queued and not yet handed out.
    private(set) var byteCount = 0

    /// True when nothing is waiting.
    package var isEmpty: Bool { count == 0 }

    /// Number of queued messages (including one partly handed out).
    var count: Int { storage.count - head - droppedCount }

    /// The queued messages, oldest first (for inspection and tests).
    var messages: [Message] { storage[head...].filter { !$0.isDropped } }

    /// Queues a message last, dropping the unsent message with the same key. Returns true if it dropped one.
    @discardableResult
    package mutating func enqueue(_ bytes: [UInt8], isBinary: Bool = false, coalescingKey: String? = nil) -> Bool {
        var replaced = false
        if let key = coalescingKey {
            if let slot = replaceable.firstIndex(where: { $0.key == key }) {
                let index = replaceable[slot].index
                byteCount -= storage[index].bytes.count
                storage[index] = Message(bytes: [], isBinary: false, isDropped: true)
                droppedCount += 1
                replaced = true
                replaceable[slot].index = storage.count
            } else {
                replaceable.append((key, storage.count))
            }
        }
        storage.append(Message(bytes: bytes, isBinary: isBinary, coalescingKey: coalescingKey))
        byteCount += bytes.count
        return replaced
    }

    /// Takes the next fragment of at most `maxBytes` bytes, or nil when the queue is empty.
    package mutating func nextFragment(maxBytes: Int) -> Fragment? {
        precondition(maxBytes > 0)
        while head < storage.count, storage[head].isDropped {
            head += 1
            droppedCount -= 1
        }
        guard head < storage.count else { return nil }
        let index = head
        let message = storage[index]
        if message.written == 0, let key = message.coalescingKey {
            replaceable.removeAll { $0.key == key }
        }
        let start = message.written
        let end = min(message.bytes.count, start + maxBytes)
        let fragment = Fragment(
            bytes: message.bytes[start..<end],
            isBinary: message.isBinary,
            isFirst: start == 0,
            isLast: end == message.bytes.count
        )
        byteCount -= end - start
        if fragment.isLast {
            storage[index] = Message(bytes: [], isBinary: false)  // release the bytes now
            head += 1
            compactIfWorthwhile()
        } else {
            storage[index].written = end
        }
        return fragment
    }

    /// Drops everything queued.
    mutating func removeAll() {
        storage.removeAll()
        head = 0
        droppedCount = 0
        replaceable.removeAll()
        byteCount = 0
    }

    private mutating func compactIfWorthwhile() {
        if head == storage.count {
            storage.removeAllKeepingStorage()
            head = 0
            return
        }
        guard head >= 32, head * 2 >= storage.count else { return }
        storage.removeFirst(head)
        for slot in replaceable.indices {
            replaceable[slot].index -= head
        }
        head = 0
    }
}

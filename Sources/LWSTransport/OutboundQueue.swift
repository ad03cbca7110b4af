/// The messages waiting to be written to one WebSocket, oldest first, handed out one fragment at a time.
///
/// A message with a coalescing key that has not started to go out is replaced in place by a newer
/// message with the same key (the newest `state` wins, at the position of the oldest); messages
/// without a key are never dropped or reordered.
struct OutboundQueue {
    /// One queued message.
    struct Message {
        var bytes: [UInt8]
        var isBinary: Bool
        var coalescingKey: String?
        /// Bytes already handed out in fragments; once nonzero the message can no longer be replaced.
        var written: Int = 0
    }

    /// One piece of a message to pass to a single write.
    struct Fragment: Equatable {
        var bytes: ArraySlice<UInt8>
        var isBinary: Bool
        var isFirst: Bool
        var isLast: Bool
    }

    private var storage: [Message] = []
    private var head = 0
    // Absolute index in `storage` of the replaceable message for each key.
    private var replaceable: [String: Int] = [:]

    /// Bytes queued and not yet handed out.
    private(set) var byteCount = 0

    /// True when nothing is waiting.
    var isEmpty: Bool { head == storage.count }

    /// Number of queued messages (including one partly handed out).
    var count: Int { storage.count - head }

    /// The queued messages, oldest first (for inspection and tests).
    var messages: ArraySlice<Message> { storage[head...] }

    /// Queues a message, or replaces the unsent message with the same key. Returns true if it replaced one.
    @discardableResult
    mutating func enqueue(_ bytes: [UInt8], isBinary: Bool = false, coalescingKey: String? = nil) -> Bool {
        if let key = coalescingKey, let index = replaceable[key] {
            byteCount += bytes.count - storage[index].bytes.count
            storage[index].bytes = bytes
            storage[index].isBinary = isBinary
            return true
        }
        if let key = coalescingKey {
            replaceable[key] = storage.count
        }
        storage.append(Message(bytes: bytes, isBinary: isBinary, coalescingKey: coalescingKey))
        byteCount += bytes.count
        return false
    }

    /// Takes the next fragment of at most `maxBytes` bytes, or nil when the queue is empty.
    mutating func nextFragment(maxBytes: Int) -> Fragment? {
        precondition(maxBytes > 0)
        guard head < storage.count else { return nil }
        let index = head
        let message = storage[index]
        if message.written == 0, let key = message.coalescingKey {
            replaceable[key] = nil
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
        replaceable.removeAll()
        byteCount = 0
    }

    private mutating func compactIfWorthwhile() {
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
            return
        }
        guard head >= 32, head * 2 >= storage.count else { return }
        storage.removeFirst(head)
        for (key, index) in replaceable {
            replaceable[key] = index - head
        }
        head = 0
    }
}

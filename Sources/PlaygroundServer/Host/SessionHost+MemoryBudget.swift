import LWSTransport
import ScrollCore

/// Sessions held for resume share one budget, `--max-held-bytes`: each counts what its items are estimated
/// to take, and past the budget the session that has waited longest for its page is evicted (logged as
/// `sessionEvicted`, its resume then opens a new session). A live session is never evicted. Each session's
/// own cap (`--max-session-items`) times `--max-sessions` is far more than a laptop holds; this bounds
/// the sum.
extension SessionHost {
    /// What one item a session holds takes, in bytes: its `FeedItem` (72 bytes), its place in the index a
    /// `jump` to a held item builds, and the allocator's share. Measured once (debug build, synthetic items):
    /// sessions held after a jump to `item-10000` took 74 bytes an item, 113 once a jump had built the index;
    /// the larger is taken. Items of an `--items` file share their text with the file's, so take no more.
    static let heldBytesPerItem = 112
    /// What one item of the `items` messages kept for a resume takes when the message has a copy of its own
    /// (its text is shared with the session's items): its `FeedItem`.
    static let heldBytesPerResentItem = MemoryLayout<FeedItem>.stride
    /// What a held session takes besides its items (its state, controller, rules' memory and log), measured
    /// the same way: 9 KB a session of 20 items; rounded up.
    static let heldBytesPerSession = 16 * 1024

    /// The bytes a session is estimated to take, from its items: O(1) plus a look at each `items` message
    /// kept for its resume (at most ``SessionState/itemsHistoryLimit``). A kept `replace` whose list is
    /// still the session's own (as after a jump or a resume) costs nothing more.
    static func estimatedBytes(of state: SessionState) -> Int {
        let items = state.window.items
        let own = items.withUnsafeBufferPointer { $0.baseAddress }
        let resent = state.itemsHistory.reduce(0) { sum, message in
            message.items.withUnsafeBufferPointer { $0.baseAddress } == own ? sum : sum + message.items.count
        }
        return heldBytesPerSession + (items.count + state.window.heldArrivals.count) * heldBytesPerItem
            + resent * heldBytesPerResentItem
    }

    /// Counts (again) a session waiting to be resumed against `--max-held-bytes`, then evicts held sessions
    /// (``nextToEvict()``: the address with the most sessions first, the longest-waiting of its own) until the
    /// held ones fit (this one too, if it must).
    func countHeld(_ hosted: Hosted, loop: WebServerLoop) {
        let bytes = Self.estimatedBytes(of: hosted.state)
        heldSessionBytes += bytes - hosted.heldBytes
        hosted.heldBytes = bytes
        while heldSessionBytes > options.maxHeldBytes, let oldest = nextToEvict() {
            let evicted = oldest.heldBytes
            forget(oldest, loop: loop)
            // Logged, not traced: the server's housekeeping, like an eviction for --max-sessions.
            log.record(
                LogEntry(
                    .sessionEvicted,
                    ["reason": "maxHeldBytes", "bytes": .int(evicted), "maxHeldBytes": .int(options.maxHeldBytes)]),
                session: oldest.id.description)
        }
    }

    /// A held session is resumed or dropped: it no longer counts.
    func uncountHeld(_ hosted: Hosted) {
        heldSessionBytes -= hosted.heldBytes
        hosted.heldBytes = 0
    }
}

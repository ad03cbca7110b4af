import LWSTransport
import ScrollCore

/// Sessions held for resume share one budget, `--max-held-bytes`: each counts what its items are estimated
/// to take, and past the budget the session that has waited longest for its page is evicted (logged as
/// `sessionEvicted`, its resume then opens a new session). A live session is never evicted. Each session's
/// own cap (`--max-session-items`) times `--max-sessions` is far more than a laptop holds; this bounds
/// the sum.
extension SessionHost {
    /// What one item a session holds takes, in bytes: the `FeedItem` (72 bytes here), its place in the
    /// index a `jump` builds, and the allocator's share. Measured once: 1,000 held sessions of 10,000
    /// synthetic items took 820 MiB (about 86 bytes an item, index built); rounded up. Items of an `--items`
    /// file share their text with the file's, so they take no more.
    static let heldBytesPerItem = 96
    /// What one item of the `items` messages kept for a resume takes: its `FeedItem` copy (its text is
    /// shared with the session's own items).
    static let heldBytesPerResentItem = MemoryLayout<FeedItem>.stride
    /// What a held session takes besides its items (its state, controller and rules' memory), measured the
    /// same way on sessions of 20 items, rounded up.
    static let heldBytesPerSession = 16 * 1024

    /// The bytes a session is estimated to take, from its items: O(1) plus the items messages kept for its
    /// resume (at most ``SessionState/itemsHistoryLimit``).
    static func estimatedBytes(of state: SessionState) -> Int {
        let items = state.window.items.count + state.window.heldArrivals.count
        let resent = state.itemsHistory.reduce(0) { $0 + $1.items.count }
        return heldBytesPerSession + items * heldBytesPerItem + resent * heldBytesPerResentItem
    }

    /// Counts (again) a session waiting to be resumed against `--max-held-bytes`, then evicts the sessions
    /// that have waited longest until the held ones fit (this one too, last, if it alone does not).
    func countHeld(_ hosted: Hosted, loop: WebServerLoop) {
        let bytes = Self.estimatedBytes(of: hosted.state)
        heldSessionBytes += bytes - hosted.heldBytes
        hosted.heldBytes = bytes
        while heldSessionBytes > options.maxHeldBytes, let oldest = longestWaiting() {
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

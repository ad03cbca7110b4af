import LWSTransport
import Synchronization

/// Set when a fork's page has gone, so its rebuild stops at the next point it looks.
final class ForkCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() {
        flag.store(true, ordering: .relaxed)
    }
}

/// The forks waiting for their rebuild and the one being rebuilt: budgeted work, confined to the service
/// thread. Every fork counts, queued or running, until it is done or its page goes; a page that goes
/// takes its fork (and the parent trace it holds) out of the queue at once, and a running rebuild is told
/// to stop. The slots are shared by client address, so one client with many connections cannot hold them all.
struct ForkQueue {
    /// One fork waiting for its rebuild.
    struct Entry {
        let connection: ConnectionID
        /// The client's address, for the per-client share.
        let peer: String
        let work: @Sendable () -> ForkRebuild
        let cancellation: ForkCancellation
        /// The parent trace its work holds, counted in the server's upload budget until the fork leaves.
        let upload: PendingUploads.Held
    }

    /// Why a fork is not taken now; the page may send its hello again (its parent trace is kept).
    enum Refusal: Equatable {
        /// `capacity` forks are queued or running.
        case full(capacity: Int)
        /// This client address already has `perPeer` of them.
        case peerFull(perPeer: Int)
    }

    /// Forks queued or running at once, over all clients.
    let capacity: Int
    /// Forks queued or running at once for one client address.
    let perPeer: Int
    private(set) var waiting: [Entry] = []
    /// The fork being rebuilt; it still counts after its page went, until its rebuild returns.
    private(set) var running:
        (connection: ConnectionID, peer: String, cancellation: ForkCancellation, upload: PendingUploads.Held)?

    init(capacity: Int, perPeer: Int) {
        self.capacity = max(1, capacity)
        self.perPeer = max(1, perPeer)
    }

    /// Forks queued or running.
    var count: Int { waiting.count + (running == nil ? 0 : 1) }

    /// Whether a fork from `peer` would be refused now, and why.
    func refusal(for peer: String) -> Refusal? {
        if count >= capacity { return .full(capacity: capacity) }
        let ofPeer = waiting.count(where: { $0.peer == peer }) + (running?.peer == peer ? 1 : 0)
        if ofPeer >= perPeer { return .peerFull(perPeer: perPeer) }
        return nil
    }

    /// Queues a fork the caller checked with ``refusal(for:)``.
    mutating func enqueue(_ entry: Entry) {
        waiting.append(entry)
    }

    /// The next fork to rebuild, now marked running; nil while one runs or none waits.
    mutating func startNext() -> Entry? {
        guard running == nil, !waiting.isEmpty else { return nil }
        let entry = waiting.removeFirst()
        running = (entry.connection, entry.peer, entry.cancellation, entry.upload)
        return entry
    }

    /// The running rebuild returned: the parent trace it held, now free.
    mutating func finished() -> PendingUploads.Held? {
        defer { running = nil }
        return running?.upload
    }

    /// The page of `connection` went: its queued fork is dropped (the parent traces it held are returned,
    /// now free), a running one is told to stop.
    mutating func cancel(_ connection: ConnectionID) -> [PendingUploads.Held] {
        var freed: [PendingUploads.Held] = []
        waiting.removeAll { entry in
            guard entry.connection == connection else { return false }
            entry.cancellation.cancel()
            freed.append(entry.upload)
            return true
        }
        if running?.connection == connection { running?.cancellation.cancel() }
        return freed
    }
}

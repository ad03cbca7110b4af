import LWSTransport
import ScrollCore
import Synchronization

/// Set when the page of a fork or a hand trial has gone, so its work stops at the next point it looks.
final class ForkCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() {
        flag.store(true, ordering: .relaxed)
    }
}

/// The forks waiting for their rebuild and the one being rebuilt.
typealias ForkQueue = WorkQueue<ForkRebuild>

/// The hand trials (`tryHand`) waiting to run and the one running.
typealias HandTrialQueue = WorkQueue<Result<JSONValue, ProtocolError>>

/// Work a page asked for that runs off the service thread, one at a time (a fork's rebuild, a hand trial):
/// budgeted, confined to the service thread. Every piece counts, queued or running, until it is done or its
/// page goes; a page that goes takes its work (and the trace it holds) out of the queue at once, and running
/// work is told to stop. The slots are shared by client address, so one client with many connections cannot
/// hold them all.
struct WorkQueue<Output: Sendable> {
    /// One piece of work waiting to run.
    struct Entry {
        let connection: ConnectionID
        /// The client's address, for the per-client share.
        let peer: String
        let work: @Sendable () -> Output
        let cancellation: ForkCancellation
        /// The trace its work holds, counted in the server's upload budget until the work leaves.
        let upload: PendingUploads.Held
    }

    /// Why work is not taken now; the page may ask again (the trace it sent is kept).
    enum Refusal: Equatable {
        /// `capacity` pieces are queued or running.
        case full(capacity: Int)
        /// This client address already has `perPeer` of them.
        case peerFull(perPeer: Int)
    }

    /// Pieces queued or running at once, over all clients.
    let capacity: Int
    /// Pieces queued or running at once for one client address.
    let perPeer: Int
    private(set) var waiting: [Entry] = []
    /// The piece running; it still counts after its page went, until its work returns.
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

    /// Whether `connection` has work queued or running.
    func isQueued(_ connection: ConnectionID) -> Bool {
        running?.connection == connection || waiting.contains { $0.connection == connection }
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

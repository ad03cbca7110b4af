import Synchronization

/// Per-session values that the driver thread (which sends) and the client's service thread (which
/// receives) both touch: atomics only, one flat allocation per kind.
final class SessionBoard: @unchecked Sendable {
    // @unchecked: the pointers are set once; every element is an Atomic.

    /// Geometry send times kept per session; the driver never lets more than `backlogLimit`
    /// geometries go unanswered, so a slot is never reused before its answer is matched.
    static let ringSize = 256
    /// Unanswered geometries after which a session stops sending until the server catches up
    /// (about 2 s at 60 Hz); counted as `skippedBacklog`.
    static let backlogLimit = 120
    static let pingRingSize = 8

    /// Where a session is.
    enum Status: Int {
        case connecting = 0
        case helloSent, ready, ended
    }

    let count: Int
    private let sendTimes: UnsafeMutablePointer<Atomic<UInt64>>
    private let pingTimes: UnsafeMutablePointer<Atomic<UInt64>>
    private let statuses: UnsafeMutablePointer<Atomic<Int>>
    private let itemCounts: UnsafeMutablePointer<Atomic<Int>>
    private let acked: UnsafeMutablePointer<Atomic<Int>>

    init(count: Int) {
        self.count = count
        sendTimes = Self.allocate(count * Self.ringSize, UInt64(0))
        pingTimes = Self.allocate(count * Self.pingRingSize, UInt64(0))
        statuses = Self.allocate(count, 0)
        itemCounts = Self.allocate(count, 30)
        acked = Self.allocate(count, 0)
    }

    private static func allocate<Value: AtomicRepresentable>(_ count: Int, _ initial: Value)
        -> UnsafeMutablePointer<Atomic<Value>>
    {
        let pointer = UnsafeMutablePointer<Atomic<Value>>.allocate(capacity: max(1, count))
        for index in 0..<max(1, count) { (pointer + index).initialize(to: Atomic(initial)) }
        return pointer
    }

    deinit {
        for (pointer, count) in [(sendTimes, count * Self.ringSize), (pingTimes, count * Self.pingRingSize)] {
            pointer.deinitialize(count: max(1, count))
            pointer.deallocate()
        }
        for pointer in [statuses, itemCounts, acked] {
            pointer.deinitialize(count: max(1, count))
            pointer.deallocate()
        }
    }

    func recordSend(session: Int, seq: Int, at time: UInt64) {
        sendTimes[session * Self.ringSize + seq % Self.ringSize].store(time, ordering: .releasing)
    }

    func sendTime(session: Int, seq: Int) -> UInt64 {
        sendTimes[session * Self.ringSize + seq % Self.ringSize].load(ordering: .acquiring)
    }

    func recordPing(session: Int, id: Int, at time: UInt64) {
        pingTimes[session * Self.pingRingSize + id % Self.pingRingSize].store(time, ordering: .releasing)
    }

    func pingTime(session: Int, id: Int) -> UInt64 {
        pingTimes[session * Self.pingRingSize + id % Self.pingRingSize].load(ordering: .acquiring)
    }

    func status(_ session: Int) -> Status {
        Status(rawValue: statuses[session].load(ordering: .acquiring)) ?? .ended
    }

    func setStatus(_ session: Int, _ status: Status) {
        statuses[session].store(status.rawValue, ordering: .releasing)
    }

    /// The item count the page would render (from the last `items` message's `total`).
    func itemCount(_ session: Int) -> Int { itemCounts[session].load(ordering: .relaxed) }
    func setItemCount(_ session: Int, _ value: Int) { itemCounts[session].store(value, ordering: .relaxed) }

    /// The highest geometry seq answered by a `state.ack`.
    func acked(_ session: Int) -> Int { acked[session].load(ordering: .relaxed) }
    func setAcked(_ session: Int, _ value: Int) { acked[session].store(value, ordering: .relaxed) }
}

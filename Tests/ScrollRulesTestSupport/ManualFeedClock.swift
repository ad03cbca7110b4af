import Foundation
import ScrollRulesUI

/// A `FeedClock` the test advances: `sleep(until:)` returns once `advance(to:)` reached its deadline (or
/// throws when its task is cancelled), so a retry's backoff takes no real time.
public final class ManualFeedClock: FeedClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Int64 = 0
    private var sleepers: [(id: Int, deadline: Int64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var lastID = 0

    public init() {}

    public func now() -> Int64 { lock.withLock { current } }

    /// The number of sleeps waiting.
    public var sleeping: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: Int64) async throws {
        let id = lock.withLock {
            lastID += 1
            return lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append((id, deadline, continuation))
                    return false
                }
                if due {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock to `t` and wakes every sleep due by then.
    public func advance(to t: Int64) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            current = max(current, t)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}

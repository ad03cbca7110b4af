#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a mutex with a condition variable, for waits that end on a condition or a
/// deadline (never on a sleep).
package final class Monitor<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `mutex` held. The pthread objects live in
    // allocated memory because they must never move.
    private var state: State
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the state locked and wakes every waiter afterwards.
    package func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Waits until `body` returns non-nil (checked under the lock each time the state changes)
    /// or `timeout` passes; nil on timeout.
    package func wait<Result>(timeout: Duration, _ body: (inout State) -> Result?) -> Result? {
        let deadline = Self.monotonicNow() + Self.nanoseconds(timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&state) { return result }
            let now = Self.monotonicNow()
            if now >= deadline { return nil }
            var until = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            _ = pthread_cond_timedwait(condition, mutex, &until)
        }
    }

    private static func monotonicNow() -> Int64 { Syscall.monotonicNanoseconds() }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a POSIX mutex, for state shared between the service thread and other threads.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer cannot see that one on Linux (its
/// futex-based lock lives in an uninstrumented library, so every access under it is reported as a race),
/// while it intercepts `pthread_mutex_*`: under `make test-tsan` this lock is checked like any other.
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `mutex` held. The mutex lives in allocated memory
    // because a pthread mutex must never move.
    @usableFromInline var state: State
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state locked.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// A joinable POSIX thread running one closure (an lws service loop).
package final class ServiceThread: @unchecked Sendable {
    // @unchecked: `thread` is written once in init, then only read by join().
    private var thread = pthread_t()
    private let joined = Monitor(false)

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts the thread.
    package init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// True when called on this thread.
    package var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the closure to return (once; later calls return at once).
    package func join() {
        let first = joined.update { joined in
            defer { joined = true }
            return !joined
        }
        if first { pthread_join(thread, nil) }
    }
}

/// A thread's identity (`pthread_t`), to check which thread code runs on; compared with pthread_equal(3).
package struct ThreadID: Equatable {
    @usableFromInline let thread: pthread_t

    @inlinable init(thread: pthread_t) { self.thread = thread }

    /// The calling thread (pthread_self(3)).
    @inlinable package static var current: ThreadID { ThreadID(thread: pthread_self()) }

    @inlinable package static func == (left: ThreadID, right: ThreadID) -> Bool {
        pthread_equal(left.thread, right.thread) != 0
    }
}

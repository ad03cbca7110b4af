#if canImport(Glibc)
    import Glibc
#endif

/// The monotonic clock in nanoseconds: one cheap vDSO call, comparable across threads.
enum Monotonic {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Sleeps until `deadline` (monotonic nanoseconds); returns at once if it has passed.
    static func sleep(until deadline: UInt64) {
        var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    /// Sleeps for `seconds`.
    static func sleep(seconds: Double) {
        sleep(until: now() + UInt64(max(0, seconds) * 1e9))
    }
}

/// A joinable POSIX thread running one closure (the load driver, the server-output drain).
final class JoinableThread: @unchecked Sendable {
    // @unchecked: `thread` is written once in init, then only read by join().
    private var thread = pthread_t()

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    func join() {
        pthread_join(thread, nil)
    }
}

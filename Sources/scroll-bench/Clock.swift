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

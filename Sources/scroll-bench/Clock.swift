import SystemCalls

/// The monotonic clock in nanoseconds: one cheap vDSO call, comparable across threads.
enum Monotonic {
    static func now() -> UInt64 {
        UInt64(Syscall.monotonicNanoseconds())
    }

    /// Sleeps until `deadline` (monotonic nanoseconds); returns at once if it has passed.
    static func sleep(until deadline: UInt64) {
        Syscall.sleep(untilMonotonic: Int64(deadline))
    }

    /// Sleeps for `seconds`.
    static func sleep(seconds: Double) {
        sleep(until: now() + UInt64(max(0, seconds) * 1e9))
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Clocks, the calendar and sleeping. Reads are on the hot path (each message is timed), so they are inlinable:
/// one vDSO call, as before the funnel.
extension Syscall {
    /// `CLOCK_MONOTONIC` in nanoseconds: comparable across threads, stops during suspend.
    @inlinable
    package static func monotonicNanoseconds() -> Int64 {
        nanoseconds(CLOCK_MONOTONIC)
    }

    /// `CLOCK_BOOTTIME` in nanoseconds: what `ContinuousClock` reads on Linux (it goes on during suspend).
    @inlinable
    package static func bootTimeNanoseconds() -> Int64 {
        nanoseconds(CLOCK_BOOTTIME)
    }

    /// `CLOCK_REALTIME` in milliseconds since the Unix epoch.
    @inlinable
    package static func epochMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    @usableFromInline
    @inline(__always)
    static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Sleeps until `deadline` (``monotonicNanoseconds()``), again on `EINTR`; returns at once if it has passed.
    /// The corresponding C function is clock_nanosleep(2) with `TIMER_ABSTIME`.
    package static func sleep(untilMonotonic deadline: Int64) {
        var spec = timespec(deadline)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }

    /// The UTC calendar fields of `epochSeconds` (gmtime_r(3)).
    package static func utcCalendar(epochSeconds: Int64) -> CalendarTime {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return CalendarTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}

/// A moment's UTC calendar fields (``Syscall/utcCalendar(epochSeconds:)``): month and day from 1.
package struct CalendarTime: Equatable, Sendable {
    package let year, month, day, hour, minute, second: Int
}

extension timespec {
    /// The nanoseconds `nanoseconds` (≥ 0) as seconds and nanoseconds.
    init(_ nanoseconds: Int64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}

import Foundation

/// The wall clock, for event times (the core itself never reads a clock).
enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func epochMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Now as ISO-8601 UTC with milliseconds, e.g. `2026-11-30T04:12:09.331Z`.
    static func iso8601Now() -> String {
        iso8601(epochMilliseconds: epochMilliseconds())
    }

    /// Formats a Unix time in milliseconds as ISO-8601 UTC with milliseconds.
    static func iso8601(epochMilliseconds: Int64) -> String {
        let milliseconds = Int(epochMilliseconds % 1000)
        var seconds = time_t(epochMilliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }
}

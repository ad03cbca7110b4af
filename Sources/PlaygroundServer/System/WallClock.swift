import Foundation
import SystemCalls

/// The wall clock, for event times (the core itself never reads a clock).
enum WallClock {
    /// Milliseconds since the Unix epoch.
    static func epochMilliseconds() -> Int64 {
        Syscall.epochMilliseconds()
    }

    /// Now as ISO-8601 UTC with milliseconds, e.g. `2026-11-30T04:12:09.331Z`.
    static func iso8601Now() -> String {
        iso8601(epochMilliseconds: epochMilliseconds())
    }

    /// Formats a Unix time in milliseconds as ISO-8601 UTC with milliseconds.
    static func iso8601(epochMilliseconds: Int64) -> String {
        let milliseconds = Int(epochMilliseconds % 1000)
        let parts = Syscall.utcCalendar(epochSeconds: epochMilliseconds / 1000)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(milliseconds, 3))Z"
    }
}

import CLibWebSockets
import SystemCalls

/// Where libwebsockets' own log lines go: errors only, to standard error by default, so the
/// terminal shows the product's log rather than the library's chatter. The environment variable
/// `LWS_TRANSPORT_LOG_LEVEL` (an lws `LLL_*` bit mask, read once) selects more levels for debugging.
public enum LWSLog {
    /// Replaces the receiver of libwebsockets error lines (nil silences them). Thread-safe.
    public static func setHandler(_ handler: (@Sendable (String) -> Void)?) {
        state.withLock { $0 = handler }
        installIfNeeded()
    }

    /// The default handler: writes `libwebsockets: <line>` to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        let text = Array("libwebsockets: \(line)\n".utf8)
        _ = text.withUnsafeBytes { Syscall.write(Syscall.standardError, $0) }
    }

    /// Sends one line of the transport's own (not libwebsockets') through the current handler.
    public static func report(_ line: String) {
        deliver(line)
    }

    /// Also hands every line to `observer` while `body` runs, besides the handler: a test can watch the
    /// process-wide log without taking it from the other tests running beside it.
    static func observing<T>(_ observer: @escaping @Sendable (String) -> Void, during body: () throws -> T) rethrows
        -> T
    {
        installIfNeeded()
        let key = observers.withLock { observers in
            observers.next += 1
            observers.all[observers.next] = observer
            return observers.next
        }
        defer { _ = observers.withLock { $0.all.removeValue(forKey: key) } }
        return try body()
    }

    private static func deliver(_ line: String) {
        let handler = state.withLock { $0 }
        handler?(line)
        for observer in observers.withLock({ Array($0.all.values) }) { observer(line) }
    }

    private static let state = Locked<(@Sendable (String) -> Void)?>(standardError)
    private static let observers = Locked<(next: Int, all: [Int: @Sendable (String) -> Void])>((0, [:]))

    // lws's level and emitter are process-wide; set them once, before the first context.
    // The corresponding C function is lws_set_log_level; it keeps the function pointer forever.
    private static let installed: Void = {
        // LWS_TRANSPORT_LOG_LEVEL (an lws LLL_* bit mask, e.g. 15 = up to info) widens it for debugging.
        let level = Syscall.environment("LWS_TRANSPORT_LOG_LEVEL").flatMap { Int32($0) } ?? LLL_ERR
        lws_set_log_level(
            level,
            { _, line in
                guard let line else { return }
                var text = String(cString: line)
                while text.last == "\n" || text.last == "\r" { text.removeLast() }
                guard !LWSLog.isNoise(text) else { return }
                guard let emitted = LWSLog.repeats.withLock({ $0.admit(text, now: ContinuousClock.now) }) else {
                    return
                }
                for line in emitted { LWSLog.deliver(line) }
            })
    }()

    // lws 4.1.6 logs these at error level on every adopted socket that comes with bytes already read
    // (adopt.c, parsers.c), which every connection from the front door does: they report no error.
    static func isNoise(_ line: String) -> Bool {
        line.hasSuffix(": calling service") || line.hasSuffix(": deferring handling ah")
    }

    // lws can repeat one error line in a loop (e.g. "accept: errno 24" while the process is out of
    // descriptors): such a line goes out at most once a second, followed by how often it was held back.
    private static let repeats = Locked(RepeatFilter())

    struct RepeatFilter {
        var last = ""
        var lastEmitted = ContinuousClock.now
        var suppressed = 0

        /// The lines to emit now for `line` (none while it repeats within a second).
        mutating func admit(_ line: String, now: ContinuousClock.Instant) -> [String]? {
            if line == last, now - lastEmitted < .seconds(1) {
                suppressed += 1
                return nil
            }
            var lines: [String] = []
            if suppressed > 0 { lines.append("(the previous line repeated \(suppressed) more times)") }
            lines.append(line)
            last = line
            lastEmitted = now
            suppressed = 0
            return lines
        }
    }

    package static func installIfNeeded() {
        _ = installed
    }
}

/// Paces one session's geometry messages (a token bucket): up to `ratePerSecond` a second are applied as
/// they arrive, with a burst allowance for frames that arrive bunched; beyond that they are coalesced.
///
/// A geometry that arrives with no token left is held, replacing any geometry already held (the newest
/// wins, so `state.ack` always names a geometry that was really applied), and the caller applies it
/// when ``flushDue(at:)`` says so after the delay ``Arrival/held(flushAfterMilliseconds:warn:)`` asked
/// for, or sooner with ``takeHeld(at:)`` before any other message so that order is kept. Replacing a held
/// geometry asks for one `rate_limited` warning, at most once per ``warningInterval``.
///
/// Pure: the caller passes a monotonic time in nanoseconds.
struct GeometryPacer<Held> {
    /// What to do with a geometry that just arrived.
    enum Arrival {
        /// Apply this geometry now; `warn` asks for a `rate_limited` warning because it replaced a held one.
        case apply(Held, warn: Bool)
        /// It is held. Schedule ``flushDue(at:)`` after this many milliseconds when non-nil (nil: a flush
        /// is already scheduled); `warn` asks for a `rate_limited` warning because a held geometry was dropped.
        case held(flushAfterMilliseconds: Int?, warn: Bool)
    }

    /// Applied geometries a second, sustained.
    let ratePerSecond: Double
    /// Geometries that may be applied back to back before pacing starts.
    let burst: Double
    /// The least time between two warnings.
    static var warningInterval: Int64 { 1_000_000_000 }

    private var tokens: Double
    private var refilledAt: Int64?
    private var held: Held?
    private var flushScheduled = false
    private var warnedAt: Int64?
    /// Geometries dropped (superseded while held) since the session began.
    private(set) var coalescedCount = 0

    init(ratePerSecond: Int, burst: Int = 24) {
        self.ratePerSecond = Double(max(1, ratePerSecond))
        self.burst = Double(max(1, burst))
        tokens = self.burst
    }

    /// Whether a geometry is waiting to be applied.
    var isHolding: Bool { held != nil }

    /// Takes in a geometry that arrived at `now`.
    mutating func arrive(_ geometry: Held, at now: Int64) -> Arrival {
        refill(at: now)
        var warn = false
        if held != nil {
            // The held geometry is superseded before it was applied.
            coalescedCount += 1
            if warnedAt.map({ now - $0 >= Self.warningInterval }) ?? true {
                warnedAt = now
                warn = true
            }
        }
        if tokens >= 1 {
            tokens -= 1
            held = nil
            return .apply(geometry, warn: warn)
        }
        held = geometry
        guard !flushScheduled else { return .held(flushAfterMilliseconds: nil, warn: warn) }
        flushScheduled = true
        return .held(flushAfterMilliseconds: delayUntilToken(), warn: warn)
    }

    /// Takes a token for a geometry that arrived at `now` if nothing is held and a token is left: true when
    /// ``arrive(_:at:)`` would answer `.apply(geometry, warn: false)`, and then the pacer is as it would have
    /// left it. False otherwise (nothing changed that `arrive` would not change the same way): call `arrive`.
    /// It spares the caller wrapping and copying a geometry that is applied at once, the usual case.
    mutating func admitsAtOnce(at now: Int64) -> Bool {
        guard held == nil else { return false }
        refill(at: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// The scheduled flush time came: the held geometry to apply now, if any.
    mutating func flushDue(at now: Int64) -> Held? {
        flushScheduled = false
        return takeHeld(at: now)
    }

    /// Takes the held geometry out to apply it now (before another message, or when the session's
    /// connection ends). It uses a token even if none is left; the debt is capped at one token so that a
    /// stream of other messages cannot postpone geometry for long.
    mutating func takeHeld(at now: Int64) -> Held? {
        guard let geometry = held else { return nil }
        refill(at: now)
        tokens = max(tokens - 1, -1)
        held = nil
        return geometry
    }

    private mutating func refill(at now: Int64) {
        if let refilledAt, now > refilledAt {
            tokens = min(burst, tokens + Double(now - refilledAt) * ratePerSecond / 1e9)
        }
        refilledAt = max(refilledAt ?? now, now)
    }

    // Rounded down, so the flush may come up to a millisecond early; the token it then borrows is
    // repaid before the next one, so the average rate stays exact.
    private func delayUntilToken() -> Int {
        let seconds = max(0, 1 - tokens) / ratePerSecond
        return max(1, Int(seconds * 1000))
    }
}

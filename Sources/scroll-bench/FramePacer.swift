/// The frame schedule `load`'s driver and `floor`'s sender share, so the floor paces its connections exactly
/// as `load` paces its pages: N sessions at `rate` Hz from `start`, session `i` at `i / N` of the frame
/// period, spreading the load evenly over time as independent pages would.
struct FramePacer {
    let rate: Double
    let sessions: Int

    /// Nanoseconds between two frames of one session.
    var period: Double { 1e9 / rate }

    /// Calls `tick(session, cycle, lag)` for every frame due from `start` until `end` (monotonic ns) on the
    /// calling thread; `lag` is how late the frame is (ns), for the caller to count or drop.
    func run(start: UInt64, end: UInt64, _ tick: (_ session: Int, _ cycle: Int, _ lag: UInt64) -> Void) {
        let count = sessions
        guard count > 0 else { return }
        let period = self.period
        var frame = 0
        func due(_ frame: Int) -> UInt64 {
            start + UInt64(Double(frame / count) * period + Double(frame % count) * period / Double(count))
        }
        while true {
            var now = Monotonic.now()
            if now >= end { break }
            // Bounded by `end` too: a send can take longer than the gap between two frames (120,000 a
            // second at 2,000 × 60 Hz), and then the pacer would never catch up to leave this loop.
            while due(frame) <= now, now < end {
                tick(frame % count, frame / count, now - due(frame))
                frame += 1
                if frame % 64 == 0 { now = Monotonic.now() }
            }
            // Wake for the next due frame, but at most ~1000 times a second: frames due within the
            // same millisecond go out together.
            Monotonic.sleep(until: max(due(frame), Monotonic.now() + 1_000_000))
        }
    }
}

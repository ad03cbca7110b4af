import LWSTransport
import ScrollCore

extension SessionHost {
    /// One session and what the transport holds for it.
    final class Hosted {
        let id: SessionID
        var state: SessionState
        var connection: ConnectionID?
        var timers: [TimerID: TimerHandle] = [:]
        var graceTimer: TimerHandle?
        /// When its page went away (host clock); the held session waiting longest is evicted first.
        var disconnectedAt: Int64?
        /// The client address of the page that holds it (or last held it), for the per-address share of
        /// `--max-sessions` (SessionHost+Admission).
        var peer = "unknown"
        let since: String
        var trace: TraceFile?
        /// Paces its geometry (`--max-geometry-rate`); set when the session opens.
        var geometryPacer = GeometryPacer<HeldGeometry>(ratePerSecond: 240)
        /// The host's milliseconds minus the session's: 0, except for a fork, whose clock continues its
        /// parent trace's (SessionHost+Fork).
        var clockOffset: Int64 = 0
        /// Why the session has no trace, if the log folder could not take one when it opened.
        var notRecorded: String?
        /// What it counts in `--max-held-bytes` while it waits to be resumed (SessionHost+MemoryBudget); 0
        /// while its page is connected.
        var heldBytes = 0

        /// The session's time (milliseconds, what its core and trace see) for a clock reading (nanoseconds).
        func time(_ reading: Int64) -> Int64 { reading / 1_000_000 - clockOffset }

        init(id: SessionID, state: SessionState, since: String, trace: TraceFile?) {
            self.id = id
            self.state = state
            self.since = since
            self.trace = trace
        }
    }
}

/// The refresh and its indicator.
public enum RefreshPhase: Equatable, Sendable {
    /// No refresh, no indicator.
    case idle
    /// A refresh is in flight; `hold` is its preset's fixed indicator hold, if it has one.
    case inFlight(Refresh, hold: FixedHold)
    /// The refresh landed, but the preset's fixed hold keeps the indicator until it ends.
    case holding

    /// The refresh in flight, if any.
    public var operation: Refresh? {
        if case .inFlight(let refresh, _) = self { refresh } else { nil }
    }

    /// Whether the refresh indicator shows.
    public var showsIndicator: Bool {
        switch self {
        case .idle, .inFlight(_, hold: .ended): false
        case .inFlight, .holding: true
        }
    }

    /// Whether the fixed hold's timer is running.
    public var holdRunning: Bool {
        switch self {
        case .inFlight(_, hold: .running), .holding: true
        case .idle, .inFlight: false
        }
    }
}

/// A refresh in flight: its outcome is drawn when it starts, so replays reproduce it.
public struct Refresh: Equatable, Sendable {
    /// Identifies the refresh, so a late timer is recognised.
    public var token: Int
    public var willFail: Bool
}

/// A preset's fixed hold of the refresh indicator (`refreshOffsetObservable`: `refreshHoldMs` after the
/// refresh starts, whatever the refresh does).
public enum FixedHold: Equatable, Sendable {
    /// The preset has none: the indicator shows until the refresh lands.
    case none
    /// The hold is running: the indicator shows.
    case running
    /// The hold ended before the refresh landed: the indicator is gone, the refresh goes on.
    case ended
}

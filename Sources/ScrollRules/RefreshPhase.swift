/// The refresh and its indicator (``FeedController/refresh``).
package enum RefreshPhase: Equatable, Sendable {
    /// No refresh, no indicator.
    case idle
    /// A refresh is in flight; `hold` is its preset's fixed indicator hold, if it has one.
    case inFlight(hold: FixedHold)
    /// The refresh landed, but the preset's fixed hold keeps the indicator until `until` (the caller's
    /// clock, ms).
    case holding(until: Int64)

    /// Whether a refresh is in flight (its indicator may have ended already).
    public var isInFlight: Bool {
        if case .inFlight = self { true } else { false }
    }

    /// Whether the refresh indicator shows.
    public var showsIndicator: Bool {
        switch self {
        case .idle, .inFlight(hold: .ended): false
        case .inFlight, .holding: true
        }
    }

    /// When the fixed hold ends, while it runs.
    public var holdEnds: Int64? {
        switch self {
        case .inFlight(hold: .running(let until)), .holding(let until): until
        case .idle, .inFlight: nil
        }
    }
}

/// A preset's fixed hold of the refresh indicator (`refreshOffsetObservable`: `refreshHoldMs` after the
/// refresh starts, whatever the refresh does).
package enum FixedHold: Equatable, Sendable {
    /// The preset has none: the indicator shows until the refresh lands.
    case none
    /// The hold runs until `until` (the caller's clock, ms): the indicator shows.
    case running(until: Int64)
    /// The hold ended before the refresh landed: the indicator is gone, the refresh goes on.
    case ended
}

import ScrollCore

/// A property a user relies on, checked on every step of a generated gesture. The cases and which
/// presets they apply to are ScrollCore's (``CheckedProperty``, ``PresetBehavior/properties``), so the
/// page's preset descriptions and the lab agree.
public typealias Property = CheckedProperty

extension CheckedProperty {
    /// Whether the property means anything for `preset`.
    public func applies(to preset: Preset) -> Bool {
        preset.behavior.checks(self)
    }

    /// A short column heading.
    public var heading: String {
        switch self {
        case .singleFlight: "one in flight"
        case .requestedOnce: "asked once"
        case .seesTheEnd: "sees the end"
        case .noStall: "no stall"
        case .noStallAfterFailure: "no stall after failure"
        case .releaseGated: "release-gated"
        case .noLoadDuringRefresh: "no load in refresh"
        case .itemsIntact: "items intact"
        case .resumeLosesNothing: "resume"
        case .indicatorConsistent: "indicator"
        }
    }
}

/// A property that did not hold: which, when, and what was seen.
public struct Violation: Equatable, Sendable {
    public var property: Property
    /// Virtual time, ms.
    public var t: Int64
    public var detail: String
}

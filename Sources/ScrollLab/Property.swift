import ScrollCore

/// A property a user relies on, checked on every step of a generated gesture.
public enum Property: String, Equatable, Hashable, Sendable, CaseIterable, Comparable {
    /// At most one page request in flight.
    case singleFlight
    /// A page is never requested twice: never again once it landed, and the design asks for the page in
    /// flight at most once while the view stays at the bottom on the same content.
    case requestedOnce
    /// At the end the user can reach, with `hasMore`, the preset's bottom rule holds (within 3 s).
    case seesTheEnd
    /// At the end with `hasMore` and nothing in flight, the bottom rule holding, a load starts (within 3 s).
    case noStall
    /// The same after a failed load or refresh, per the preset's failure policy (`retryPolicy` when the
    /// setting exists; until then a design that does not retry stalls).
    case noStallAfterFailure
    /// A release-gated preset refreshes only on the release of a pull.
    case releaseGated
    /// No page load runs during a refresh where the preset says so (it suppresses or cancels them).
    case noLoadDuringRefresh
    /// Item ids are unique, order is kept, nothing vanishes; the page's list is the session's.
    case itemsIntact
    /// A resume from any recent `rev` leaves the page with exactly the session's items.
    case resumeLosesNothing
    /// `loadingNextPage`, `refreshing` and the bottom indicator match the operations in flight.
    case indicatorConsistent

    public static func < (lhs: Property, rhs: Property) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Whether the property means anything for `preset`.
    public func applies(to preset: Preset) -> Bool {
        switch self {
        case .seesTheEnd, .noStall, .noStallAfterFailure, .requestedOnce: preset.detectsBottom
        case .releaseGated: [.refreshableLegacy, .refreshable, .playground].contains(preset)
        case .noLoadDuringRefresh:
            preset.behavior.suppressesLoadWhileRefreshing || preset.behavior.cancelsLoadOnRefresh
        case .singleFlight, .itemsIntact, .resumeLosesNothing, .indicatorConsistent: true
        }
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

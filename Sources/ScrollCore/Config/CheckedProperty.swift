/// A property a user relies on, which `scroll-playground check` verifies on every step of a generated
/// gesture (the lab calls it `Property`). Which ones apply to a preset follows from its behaviour
/// (``PresetBehavior/properties``), so the lab and `welcome.presets` read the same answer.
public enum CheckedProperty: String, Equatable, Hashable, Sendable, CaseIterable, Comparable {
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

    public static func < (lhs: CheckedProperty, rhs: CheckedProperty) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension PresetBehavior {
    /// The checked properties that mean something for a preset that behaves like this, in check order.
    public var properties: [CheckedProperty] {
        CheckedProperty.allCases.filter(checks)
    }

    /// Whether `property` means something for a preset that behaves like this (the lab asks on every step,
    /// so this builds no array).
    public func checks(_ property: CheckedProperty) -> Bool {
        switch property {
        case .seesTheEnd, .noStall, .noStallAfterFailure, .requestedOnce: detectsBottom
        case .releaseGated: refresh == .onRelease
        case .noLoadDuringRefresh: suppressesLoadWhileRefreshing || cancelsLoadOnRefresh
        case .singleFlight, .itemsIntact, .resumeLosesNothing, .indicatorConsistent: true
        }
    }
}

/// Where a `jump` stands: nothing under way, its window loading, or the page scrolling the item into place.
public enum JumpPhase: Equatable, Sendable {
    /// No jump under way.
    case idle
    /// The window around the item is loading (the timer `jump(token)`).
    case loading(token: Int, JumpRequest)
    /// The page was told where to scroll (`rev`: the last items message of the jump): geometry measured
    /// before the page positioned the item fires no edge rule; the first one after it settles the jump.
    case positioning(JumpRequest, rev: Int, suppressed: [FeedEdge])
}

/// The `jump` message: scroll to an item, which the server loads first when the page does not hold it.
public struct JumpRequest: Equatable, Sendable {
    /// The item's id.
    public var id: String
    /// Where the item ends in the viewport.
    public var anchor: JumpAnchor

    public init(id: String, anchor: JumpAnchor = .top) {
        self.id = id
        self.anchor = anchor
    }

    /// The longest id the server reads.
    public static let maxIDBytes = 100
}

/// Where a jump puts its item: its top edge at the viewport's top, its centre at the centre, or its bottom
/// edge at the viewport's bottom (SwiftUI's `UnitPoint` anchors of `scrollTo(_:anchor:)`).
public enum JumpAnchor: String, Equatable, Sendable, CaseIterable {
    /// The item's top at the viewport's top.
    case top
    /// The item's centre at the viewport's centre.
    case center
    /// The item's bottom at the viewport's bottom.
    case bottom
}

/// What the app can run for a feed: the loads and the refresh it provides. The rules never start what the
/// app cannot run, so a feed without a refresh never shows a pull or a spinner, and one without previous
/// pages never marks its top edge loading nor hands a pull to it. The playground's session provides all.
public struct FeedCapabilities: OptionSet, Hashable, Sendable {
    /// The capabilities' bits.
    public let rawValue: Int

    /// A capability set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The app loads the next page (`loadMore`).
    public static let loadMore = FeedCapabilities(rawValue: 1 << 0)
    /// The app loads the previous page (`loadPrevious`, older items on top).
    public static let loadPrevious = FeedCapabilities(rawValue: 1 << 1)
    /// The app refreshes (`refresh`, new items on top).
    public static let refresh = FeedCapabilities(rawValue: 1 << 2)
    /// Every load and the refresh.
    public static let all: FeedCapabilities = [.loadMore, .loadPrevious, .refresh]

    /// The capability that runs `edge`'s page load.
    public static func load(_ edge: FeedEdge) -> FeedCapabilities { edge == .bottom ? .loadMore : .loadPrevious }
}

import ScrollRules

/// The closures a feed runs, as `scrollRules(_:loadMore:loadPrevious:refresh:onAction:)` gives them each
/// render: the modifier keeps this object in its own state and the model holds it weakly
/// (``FeedModel/attach(_:)``), so a closure that captures the view (and so the view's `@State` holding the
/// model) never keeps the model alive. A closure left nil here leaves the model's own (given to its `init`)
/// in force.
@MainActor
public final class FeedActions {
    /// Loads the next page; returns whether the feed has more.
    public var loadMore: (@MainActor () async throws -> Bool)?
    /// Loads the previous page (older items on top); returns whether there are more.
    public var loadPrevious: (@MainActor () async throws -> Bool)?
    /// Refreshes; returns how many new items it put on top.
    public var refresh: (@MainActor () async throws -> Int)?
    /// Hears what only the view can do: `scrollToTop`, `scrollToBottom`, `gaveUp`.
    public var onAction: (@MainActor (FeedAction) -> Void)?

    /// Closures to attach to a model.
    public init(
        loadMore: (@MainActor () async throws -> Bool)? = nil,
        loadPrevious: (@MainActor () async throws -> Bool)? = nil,
        refresh: (@MainActor () async throws -> Int)? = nil,
        onAction: (@MainActor (FeedAction) -> Void)? = nil
    ) {
        self.loadMore = loadMore
        self.loadPrevious = loadPrevious
        self.refresh = refresh
        self.onAction = onAction
    }
}

/// Something about how a `FeedModel` is wired that keeps its rules from ever running, said once in
/// ``FeedModel/problems`` (and, in a DEBUG build on Apple platforms, as an `os_log` fault).
public enum FeedProblem: Equatable, Sendable, CustomStringConvertible {
    /// No scroll geometry arrived within this many milliseconds of the view appearing: on iOS 17 the
    /// scroll view's content lacks `scrollRulesContent()`, or the modifier is not on the `ScrollView`.
    case noGeometry(afterMs: Int)
    /// A geometry arrived with a zero content size: the content is not measured (on iOS 17,
    /// `scrollRulesContent()` must be on the scroll view's content, not on the scroll view).
    case zeroContentSize

    /// The problem and its fix, in one sentence.
    public var description: String {
        switch self {
        case .noGeometry(let ms):
            "ScrollRules: no scroll geometry \(ms) ms after the view appeared, so no rule can fire: put "
                + "scrollRules(_:…) on the ScrollView and, on iOS 17, scrollRulesContent() on its content"
        case .zeroContentSize:
            "ScrollRules: the scroll view reports a content size of zero, so no rule can fire: on iOS 17 put "
                + "scrollRulesContent() on the ScrollView's content (inside it, not on the ScrollView)"
        }
    }
}

/// What a `FeedController` asks the app to do.
public enum FeedAction: Equatable, Hashable, Sendable {
    /// Load the next page; report how it ended with `loadFinished(.bottom, …)` or `loadFailed(.bottom, …)`.
    case loadMore
    /// Load the previous page (older items, on top); report with `loadFinished(.top, …)` or `loadFailed(.top, …)`.
    case loadPrevious
    /// Refresh; report with `refreshFinished(addedItems:now:)` or `refreshFailed(now:)`.
    case refresh
    /// A refresh replaced the page load in flight: cancel it and drop its result (do not report it).
    case cancelLoadMore
    /// The failed page at this edge is retried after this many milliseconds: call `tick(now:)` then.
    case retry(FeedEdge, after: Int)
    /// The retry policy gave up on the failed page at this edge: only a person loads it again.
    case gaveUp(FeedEdge)
    /// Call `tick(now:)` after this many milliseconds (a fixed hold of the refresh indicator ends).
    case wake(after: Int)
    /// Scroll to the top (`refreshOffsetObservable` does once the content returns to its origin).
    case scrollToTop
    /// Scroll to the bottom: new items arrived while the reader was there.
    case scrollToBottom
}

extension FeedAction: CustomStringConvertible {
    /// The action as the docs and the playground's log name it: `loadMore`, `retry(bottom, after: 1000 ms)`.
    public var description: String {
        switch self {
        case .loadMore: "loadMore"
        case .loadPrevious: "loadPrevious"
        case .refresh: "refresh"
        case .cancelLoadMore: "cancelLoadMore"
        case .retry(let edge, let delay): "retry(\(edge.rawValue), after: \(delay) ms)"
        case .gaveUp(let edge): "gaveUp(\(edge.rawValue))"
        case .wake(let delay): "wake(after: \(delay) ms)"
        case .scrollToTop: "scrollToTop"
        case .scrollToBottom: "scrollToBottom"
        }
    }
}

/// Something that happened to a feed, as ``FeedController/decide(_:now:using:)`` takes it: the scroll
/// view moved, a load or refresh the controller asked for ended, a person asked, time passed.
public enum FeedEvent: Equatable, Sendable {
    /// One geometry of the scroll view, with its phase.
    case geometryChanged(FeedGeometry, phase: FeedScrollPhase)
    /// A person asked for the next page (bottom: Load more, Retry) or the previous one (top).
    case loadRequested(FeedEdge)
    /// A person asked for a refresh (a Refresh button, `refreshable`'s action).
    case refreshRequested
    /// The page load at the edge landed; `hasMore`: the feed has more at that edge. `shown`: the view shows
    /// what landed (false when the app keeps it off-screen, as a bounded window does: the edge rule then
    /// has nothing new to be evaluated afresh on).
    case loadFinished(FeedEdge, hasMore: Bool, shown: Bool)
    /// The page load at the edge failed: the retry policy decides what happens next.
    case loadFailed(FeedEdge)
    /// The app dropped the load in flight at the edge itself (its result will not be reported).
    case loadCancelled(FeedEdge)
    /// The refresh landed, `addedItems` new items on top of what the view shows. `shown`: the view was
    /// updated (false when the app keeps the new items off-screen).
    case refreshFinished(addedItems: Int, shown: Bool)
    /// The refresh failed.
    case refreshFailed
    /// The scheduled retry at the edge is due (its `.retry(edge, after:)` delay passed).
    case retryDue(FeedEdge)
    /// The preset's fixed hold of the refresh indicator is over (its `.wake(after:)` delay passed).
    case holdEnded
    /// The clock reached `now`: whatever was due by then runs (the hold's end, then each due retry).
    case tick
    /// New items arrived at the bottom and the view shows them (a chat's new messages).
    case itemsArrived
    /// The app's feed changed its ends by other means: new items exist below, older ones above.
    case feedChanged(hasMore: Bool, hasPrevious: Bool)
    /// New settings.
    case settingsChanged(FeedSettings)
    /// Back to the first page: nothing in flight, nothing failed, the rules start from scratch.
    case reset(hasMore: Bool, hasPrevious: Bool)
}

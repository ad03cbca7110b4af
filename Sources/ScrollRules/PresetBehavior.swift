/// What a preset does beyond its detection rules: the differences the session's shared logic asks about,
/// described once per preset next to its rules.
public struct PresetBehavior: Equatable, Sendable {
    /// Starting a refresh cancels the page load in flight (`loadMoreCancelled`, reason `refreshStarted`).
    public var cancelsLoadOnRefresh = false
    /// No page load starts while the refresh indicator shows (`loadMoreSuppressed`, reason `refreshing`).
    public var suppressesLoadWhileRefreshing = false
    /// The refresh indicator is held for `refreshHoldMs` from the start of a refresh, whatever the refresh
    /// does, instead of until it lands.
    public var holdsRefreshIndicatorForFixedTime = false
    /// The bottom rule is evaluated afresh once new items land, so a page that still ends within the
    /// threshold loads the next one.
    public var rearmsBottomWhenItemsLand = false
    /// The content origin is published (`state.origin`) and logged (`offsetChanged`, throttled).
    public var observesOrigin = false
    /// Pixels of tolerance in the bottom and pull comparisons, against fractional pixels from zoom.
    public var slack = 0.0
    /// What happens after a page load fails, unless the session sets `retryPolicy`. The published designs
    /// have no policy of their own: the page's Retry row is all they get (`manual`).
    public var defaultRetryPolicy = RetryPolicy.manual
    /// A two-way feed's top rule loads the previous page (edge-triggered within `topThreshold`). The
    /// published designs have none: older items load only when a person asks (`loadPrevious`).
    public var loadsPrevious = false
    /// The feed opens at its newest item, at the bottom (SwiftUI `defaultScrollAnchor(.bottom)`).
    public var opensAtBottom = false
    /// While older items exist above, a pull (or Refresh) loads those instead of refreshing
    /// (`refreshYielded`): new items cannot go on top of a gap.
    public var refreshYieldsToPrevious = false
    /// How often a new message arrives at the bottom (ms, 0 = none), unless the session sets `newMessageEveryMs`.
    public var defaultNewMessageEveryMs = 0
}

extension Preset {
    /// How this preset behaves beyond its rules.
    public var behavior: PresetBehavior {
        switch self {
        case .customScrollView, .refreshableLegacy, .refreshable:
            PresetBehavior()
        case .offsetObserving:
            PresetBehavior(observesOrigin: true)
        case .refreshOffsetObservable:
            PresetBehavior(holdsRefreshIndicatorForFixedTime: true)
        case .playground:
            PresetBehavior(
                cancelsLoadOnRefresh: true, suppressesLoadWhileRefreshing: true, rearmsBottomWhenItemsLand: true,
                slack: AxisGeometry.slack, defaultRetryPolicy: .backoff, loadsPrevious: true,
                refreshYieldsToPrevious: true)
        case .chat:
            PresetBehavior(
                suppressesLoadWhileRefreshing: true, rearmsBottomWhenItemsLand: true, slack: AxisGeometry.slack,
                defaultRetryPolicy: .backoff, loadsPrevious: true, opensAtBottom: true, defaultNewMessageEveryMs: 5000)
        }
    }
}

/// What a preset has and does beyond its detection formulas: every difference between presets that the
/// controller's shared skeleton, the page (`welcome.presets`) and the lab ask about, described once per
/// preset next to its rules.
package struct PresetBehavior: Equatable, Hashable, Sendable {
    /// The preset has a bottom rule that loads the next page.
    public var detectsBottom = true
    /// How a pull starts a refresh; `none`: the preset has no pull rule and the page offers no Refresh.
    public var refresh = RefreshStart.none
    /// The refresh indicator the preset draws.
    public var indicator = RefreshIndicator.none
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
    /// The pull threshold when the session has not set one.
    public var defaultPullThreshold = 68.0
    /// Compare mode runs this preset's detection on every geometry.
    public var compared = true

    /// The edge rules the preset has, in the order `bottom`, `top`, `pull`.
    public var rules: [EdgeRule] {
        (detectsBottom ? [.bottom] : []) + (loadsPrevious ? [.top] : []) + (refresh == .none ? [] : [.pull])
    }

    /// New messages arrive at the bottom and the view follows them when the reader is at the end.
    public var followsArrivals: Bool { defaultNewMessageEveryMs > 0 }
}

/// One of a preset's edge rules, as `welcome.presets[].rules` names it.
package enum EdgeRule: String, Equatable, Sendable, CaseIterable {
    /// Reaching the bottom loads the next page.
    case bottom
    /// Reaching the top loads the previous page (a two-way feed).
    case top
    /// Pulling past the top refreshes.
    case pull
}

/// When a pull starts a refresh.
package enum RefreshStart: String, Equatable, Sendable, CaseIterable {
    /// On the release of a pull past the threshold.
    case onRelease
    /// As soon as the pull crosses the threshold, without waiting for the release.
    case immediate
    /// Never: the preset has no pull rule.
    case none
}

/// The refresh indicator a preset draws at the top.
package enum RefreshIndicator: String, Equatable, Sendable, CaseIterable {
    /// A spinner that grows with the pull and spins while refreshing.
    case spinner
    /// A readout of the pull distance: the indicator's size is the offset past the top.
    case offset
    /// No indicator.
    case none
}

extension Preset {
    /// How this preset behaves beyond its rules.
    package var behavior: PresetBehavior {
        switch self {
        case .customScrollView:
            PresetBehavior()
        case .offsetObserving:
            PresetBehavior(detectsBottom: false, observesOrigin: true)
        case .refreshableLegacy, .refreshable:
            PresetBehavior(refresh: .onRelease, indicator: .spinner)
        case .refreshOffsetObservable:
            PresetBehavior(
                detectsBottom: false, refresh: .immediate, indicator: .offset, holdsRefreshIndicatorForFixedTime: true,
                defaultPullThreshold: 100)
        case .playground:
            PresetBehavior(
                refresh: .onRelease, indicator: .spinner, cancelsLoadOnRefresh: true,
                suppressesLoadWhileRefreshing: true, rearmsBottomWhenItemsLand: true, defaultRetryPolicy: .backoff,
                loadsPrevious: true, refreshYieldsToPrevious: true)
        case .chat:
            // A manual refresh (not offered by the page) still draws the spinner the session's state describes.
            // Compared like the others: `replay --compare` has its column, so the page has its lane.
            PresetBehavior(
                indicator: .spinner, suppressesLoadWhileRefreshing: true, rearmsBottomWhenItemsLand: true,
                defaultRetryPolicy: .backoff, loadsPrevious: true, opensAtBottom: true,
                defaultNewMessageEveryMs: 5000)
        }
    }
}

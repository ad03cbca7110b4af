/// What happens after a page load fails (the `retryPolicy` setting).
public enum RetryPolicy: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A person retries: the page shows the failed page as a row with Retry. The preset's own bottom rule
    /// may load the page again too (a level-triggered design then loops, an edge-triggered one stalls).
    case manual
    /// The server retries by itself after `retryBaseMs`, doubling up to `retryMaxMs` (jittered), at most
    /// `retryMax` times, then gives up; meanwhile the bottom rule waits for the retry instead of firing.
    case backoff
    /// Nothing retries and the page offers no Retry: only the preset's own bottom rule (or Load more)
    /// loads the page again.
    case noRetry = "none"
}

/// Who asks an edge for a page.
enum LoadAsk: Equatable, Sendable {
    /// The preset's edge rule (or another automatic cause: the feed opening, a setting changing).
    case rule
    /// A person: Load more, Retry.
    case person
    /// The retry policy's scheduled retry.
    case retry
}

/// Where an edge's last failed page stands under the retry policy.
public enum RetryStatus: Equatable, Sendable {
    /// `manual`: a person retries, or the preset's own rule loads the page again.
    case manual
    /// `none`: nothing retries; the preset's own rule may load the page again.
    case noRetry
    /// `backoff`: an automatic retry is scheduled; the edge rule waits for it.
    case scheduled
    /// `backoff` used up `retryMax` retries: only a person loads the page again.
    case gaveUp
}

/// What the retry policy decides after a page load fails.
package enum RetryDecision: Equatable, Sendable {
    /// Wait for a person (`manual`).
    case manual
    /// Nothing retries (`none`).
    case noRetry
    /// Schedule automatic retry `number` (1-based).
    case retry(number: Int)
    /// Give up: `retryMax` retries are used.
    case giveUp
}

extension FeedSettings {
    /// The retry policy's decision about a page that just failed, `retries` automatic retries used so far.
    package func retryDecision(afterRetries retries: Int) -> RetryDecision {
        switch retryPolicy {
        case .manual: .manual
        case .noRetry: .noRetry
        case .backoff: retries < retryMax ? .retry(number: retries + 1) : .giveUp
        }
    }

    /// The delay before retry `number` (1-based), in milliseconds: `retryBaseMs` doubled per retry, capped
    /// at `retryMaxMs`, then "equal jitter": half of it fixed, half drawn by `jitter` (given the half, it
    /// returns 0…half), so many clients' retries spread out and none waits longer than the cap.
    public func retryDelay(_ number: Int, jitter: (Int) -> Int) -> Int {
        let doublings = min(max(0, number - 1), 40)
        let (doubled, overflow) = retryBaseMs.multipliedReportingOverflow(by: 1 << doublings)
        let ceiling = overflow ? retryMaxMs : min(retryMaxMs, doubled)
        let half = ceiling / 2
        return ceiling - half + min(max(0, jitter(half)), half)
    }
}

/// Whether an edge may start a page load now, and if not, why.
enum LoadAdmission: Equatable, Sendable {
    /// Start it; `abandonsRetry`: a person asked during a scheduled retry, which is cancelled.
    case start(abandonsRetry: Bool)
    /// A load is already in flight at this edge.
    case inFlight
    /// The feed has nothing more at this edge; a failed page's retry is dropped.
    case exhausted
    /// The refresh indicator shows and the preset loads no page meanwhile; a retry asks again after a
    /// fresh delay (`reschedulesRetry`).
    case refreshing(reschedulesRetry: Bool)
    /// A retry is scheduled: it loads the page, not the edge rule.
    case retryScheduled
    /// The retry policy gave up: only a person loads the page again.
    case gaveUp
}

extension PresetBehavior {
    /// The one gate every page load at either edge goes through: one load per edge at a time, none past
    /// the feed's end, the refresh's guard, then the retry policy's.
    func admitLoad(
        _ ask: LoadAsk, inFlight: Bool, hasMore: Bool, refreshing: Bool, retry: RetryStatus?
    ) -> LoadAdmission {
        if inFlight { return .inFlight }
        if !hasMore { return .exhausted }
        if suppressesLoadWhileRefreshing, refreshing {
            return .refreshing(reschedulesRetry: ask == .retry && retry == .scheduled)
        }
        switch (retry, ask) {
        case (nil, _), (.manual, _), (.noRetry, _): return .start(abandonsRetry: false)
        case (.scheduled, .retry): return .start(abandonsRetry: false)
        case (.scheduled, .person): return .start(abandonsRetry: true)
        case (.scheduled, .rule): return .retryScheduled
        case (.gaveUp, .person): return .start(abandonsRetry: false)
        case (.gaveUp, _): return .gaveUp
        }
    }

    /// Whether a refresh may start, and what it does to the rest.
    func admitRefresh(hasPrevious: Bool, refreshInFlight: Bool) -> RefreshAdmission {
        if refreshYieldsToPrevious, hasPrevious { return .yieldsToPrevious }
        if refreshInFlight { return .inFlight }
        return .start(cancelsLoad: cancelsLoadOnRefresh, holdsIndicator: holdsRefreshIndicatorForFixedTime)
    }

    /// Whether the end of the refresh indicator starts the page load it held back: a page that does not
    /// change sends no geometry that would re-arm the bottom rule, so a user resting at the bottom would
    /// wait forever otherwise.
    func loadsWhatRefreshHeldBack(refreshing: Bool, bottomIdle: Bool, atBottom: Bool, hasMore: Bool) -> Bool {
        suppressesLoadWhileRefreshing && !refreshing && bottomIdle && atBottom && hasMore
    }
}

/// Whether a refresh may start, and what it does to the rest.
enum RefreshAdmission: Equatable, Sendable {
    /// Older items exist above: the preset loads those first (the previous page), not a refresh.
    case yieldsToPrevious
    /// A refresh is in flight already.
    case inFlight
    /// Start it; `cancelsLoad`: the page load in flight is cancelled; `holdsIndicator`: the indicator
    /// shows for `refreshHoldMs`, whatever the refresh does.
    case start(cancelsLoad: Bool, holdsIndicator: Bool)
}

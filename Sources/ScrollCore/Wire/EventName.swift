/// The names of the server's events; each one's category and one-line meaning are in ``catalogEntry``
/// (EventName+Catalog.swift), the one list docs/events.md, docs/protocol.md and the page follow.
public enum EventName: String, Equatable, Hashable, Sendable, CaseIterable {
    /// A session started with `hello`.
    case sessionOpened
    /// A reconnecting page got its session back.
    case sessionResumed
    /// A page took over a fork: a session rebuilt from a parent trace up to a moment (data: `parent`,
    /// `parentSession`, `at`, `delivered`, `rev`).
    case sessionForked
    /// A connection ended (data: close code, whether it is resumable).
    case sessionClosed
    /// Settings changed (data: the changed settings).
    case configChanged
    /// The preset's bottom rule became true.
    case reachedBottom
    /// The preset's bottom rule became false.
    case leftBottom
    /// A `reset` put the feed back to its first page (data: the item count it replaced).
    case sessionReset
    /// A page load began.
    case loadMoreStarted
    /// A page landed.
    case loadMoreFinished
    /// A page load failed; items are unchanged.
    case loadMoreFailed
    /// The retry policy scheduled an automatic retry of the failed page (data: `retry`, `delayMs`).
    case loadMoreRetryScheduled
    /// A load of a page that failed before began (data: `trigger`, `attempt`, and `perSecond`, the loads of
    /// that page started in the last second: a design without a policy shows its loop here).
    case loadMoreRetryStarted
    /// A scheduled retry was abandoned (a person pressed Load more, a reset, the policy or the feed changed).
    case loadMoreRetryCancelled
    /// The retry policy used up `retryMax` retries: only a person loads the page again.
    case loadMoreGaveUp
    /// A page load was abandoned (a refresh started, or a reset); its result is discarded.
    case loadMoreCancelled
    /// A load trigger arrived while a load could not start (one in flight, or a refresh).
    case loadMoreSuppressed
    /// The feed has no more items; logged once.
    case feedExhausted
    /// A manual `loadMore` after `feedExhausted` was logged: nothing to load.
    case loadMoreIgnored
    /// The content began to be pulled past its top.
    case pullStarted
    /// The pull reached the point where a release (or, for some presets, the pull itself) refreshes.
    case refreshEligible
    /// A refresh began.
    case refreshStarted
    /// A manual `refresh` while one is in flight: one refresh at a time.
    case refreshIgnored
    /// A refresh landed.
    case refreshFinished
    /// A refresh failed; items are unchanged.
    case refreshFailed
    /// The server told the page to scroll to the top.
    case scrollToTop
    /// The content origin changed (throttled to 10 per second).
    case offsetChanged
    /// Compare mode: presets disagree on the same geometry.
    case presetDisagreement
    /// Compare mode: the presets whose load or refresh rule fired on a geometry.
    case presetsFired
    /// A message was refused.
    case protocolError
    /// A session held for resume was dropped to make room: for a new one (`--max-sessions`), or to stay within
    /// `--max-held-bytes`.
    case sessionEvicted
    /// A closed session's trace was removed to keep the log folder under `--max-log-bytes` (data: `reason`,
    /// `bytes`, `maxLogBytes`).
    case traceRemoved
    /// A two-way feed's top rule became true (data: `distanceToTop`).
    case reachedTop
    /// A two-way feed's top rule became false.
    case leftTop
    /// A load of the previous (older) page began.
    case loadPreviousStarted
    /// A previous page landed, prepended with `older: true`.
    case loadPreviousFinished
    /// A load of the previous page failed; items are unchanged.
    case loadPreviousFailed
    /// The retry policy scheduled an automatic retry of the failed previous page.
    case loadPreviousRetryScheduled
    /// A load of a previous page that failed before began (data as `loadMoreRetryStarted`).
    case loadPreviousRetryStarted
    /// A scheduled retry of the previous page was abandoned.
    case loadPreviousRetryCancelled
    /// The retry policy used up `retryMax` retries of the previous page.
    case loadPreviousGaveUp
    /// A load of the previous page was abandoned (a reset); its result is discarded.
    case loadPreviousCancelled
    /// A top trigger arrived while a load of the previous page could not start.
    case loadPreviousSuppressed
    /// The feed's first item is loaded: nothing lies above; logged once.
    case feedStartReached
    /// A manual `loadPrevious` with nothing above: nothing to load.
    case loadPreviousIgnored
    /// A pull (or Refresh) while older items exist above: the preset loads those instead (data: trigger, reason).
    case refreshYielded
    /// A new message arrived at the bottom (data: `id`, `follow`: whether the view followed it, `held`).
    case messageArrived
    /// The server told the page to scroll to the bottom (`chat` opening, following a new message).
    case scrollToBottom
    /// The page rendered a prepend and its anchor item stayed within 1 px (data: `id`, `px`, `rev`).
    case anchorKept
    /// A prepend moved the page's anchor item by more than 1 px (data: `id`, `px`, `rev`).
    case anchorDrift
    /// A bounded window trimmed items far from the viewport (data: `edge`, `count`, `first`, `last`, `held`).
    case windowTrimmed
    /// A `jump` began loading the window around an item (data: `id`, `anchor`, `index`, `latencyMs`).
    case jumpStarted
    /// A jump's window landed and the page was told to scroll the item to its anchor (data: `id`, `anchor`).
    case jumpFinished
    /// The page reported its first geometry after a jump: what the edge rules would have done (data:
    /// `id`, `suppressed`).
    case jumpSettled
    /// A jump in flight was abandoned (another jump, a reset) (data: `id`, `reason`).
    case jumpCancelled
}

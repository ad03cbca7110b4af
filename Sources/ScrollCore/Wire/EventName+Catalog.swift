/// What an event means, in one line, and where it belongs: served to the page in `welcome.events`, and
/// checked against docs/events.md's and docs/protocol.md's event tables.
public struct EventCatalogEntry: Equatable, Sendable {
    public var category: EventCategory
    /// One line: when the server logs it.
    public var meaning: String
    /// Something went wrong (a failure, a refusal, a drift): the page marks its row.
    public var failure: Bool
    /// What the page's timeline draws for it, if anything.
    public var plot: EventPlot?

    init(_ category: EventCategory, _ meaning: String, failure: Bool = false, plot: EventPlot? = nil) {
        self.category = category
        self.meaning = meaning
        self.failure = failure
        self.plot = plot
    }
}

/// What the page's timeline draws for an event (`welcome.events[].plot`): the page keeps no list of names.
public enum EventPlot: String, Equatable, Sendable, CaseIterable {
    /// A page load's span begins.
    case loadBegins
    /// The page load's span ends.
    case loadEnds
    /// The page load's span ends, failed.
    case loadFails
    /// A refresh's span begins.
    case refreshBegins
    /// The refresh's span ends.
    case refreshEnds
    /// The refresh's span ends, failed.
    case refreshFails
    /// A mark where the bottom rule became true.
    case bottomReached
    /// A mark where compare mode's presets disagree.
    case presetsDisagree
}

extension EventName {
    /// This event's category and meaning: the one list of event kinds (a new case must be added here).
    public var catalogEntry: EventCatalogEntry {
        switch self {
        case .sessionOpened: .init(.session, "A page said hello: a session opened.")
        case .sessionResumed: .init(.session, "A reconnecting page got its session back with its resume token.")
        case .sessionForked:
            .init(.session, "A page took over a fork: a session rebuilt from a parent trace up to a moment.")
        case .sessionClosed: .init(.session, "A connection ended (close code, whether the session is resumable).")
        case .sessionEvicted:
            .init(.session, "A session held for resume was dropped: for a new session, or within --max-held-bytes.")
        case .traceRemoved:
            .init(.session, "An ended session's trace was removed to keep the log folder under its cap.")
        case .sessionReset: .init(.session, "A reset put the feed back to its first page.")
        case .configChanged: .init(.session, "Settings changed.")
        case .offsetChanged: .init(.session, "offsetObserving published a new content origin (at most 10 a second).")
        case .presetDisagreement:
            .init(.session, "Compare mode: presets disagree on the same geometry.", plot: .presetsDisagree)
        case .presetsFired: .init(.session, "Compare mode: the presets whose load or refresh rule fired on a geometry.")
        case .reachedBottom: .init(.load, "The preset's bottom rule became true.", plot: .bottomReached)
        case .leftBottom: .init(.load, "The preset's bottom rule became false.")
        case .loadMoreStarted: .init(.load, "A page load began.", plot: .loadBegins)
        case .loadMoreFinished: .init(.load, "A page landed.", plot: .loadEnds)
        case .loadMoreFailed:
            .init(.load, "A page load failed; items are unchanged.", failure: true, plot: .loadFails)
        case .loadMoreRetryScheduled: .init(.load, "The retry policy scheduled an automatic retry of the failed page.")
        case .loadMoreRetryStarted: .init(.load, "A load of a page that failed before began, whatever started it.")
        case .loadMoreRetryCancelled: .init(.load, "A scheduled retry of the failed page was abandoned.")
        case .loadMoreGaveUp:
            .init(.load, "The retry policy used up its retries: only a person loads the page again.", failure: true)
        case .loadMoreCancelled:
            .init(.load, "A page load was abandoned (a refresh started, or a reset).", plot: .loadEnds)
        case .loadMoreSuppressed: .init(.load, "A load trigger arrived while a load could not start.")
        case .feedExhausted: .init(.load, "A load trigger after the feed's end: nothing more to load (once).")
        case .loadMoreIgnored: .init(.load, "A manual Load more after the feed's end.")
        case .pullStarted: .init(.refresh, "The content began to be pulled past its top.")
        case .refreshEligible:
            .init(.refresh, "The pull reached the point where a release (or the pull itself) refreshes.")
        case .refreshStarted: .init(.refresh, "A refresh began.", plot: .refreshBegins)
        case .refreshIgnored: .init(.refresh, "A manual Refresh while one is in flight.")
        case .refreshFinished: .init(.refresh, "A refresh landed.", plot: .refreshEnds)
        case .refreshFailed:
            .init(.refresh, "A refresh failed; items are unchanged.", failure: true, plot: .refreshFails)
        case .scrollToTop: .init(.refresh, "The server told the page to scroll to the top.")
        case .reachedTop: .init(.topEdge, "A two-way feed's top rule became true.")
        case .leftTop: .init(.topEdge, "A two-way feed's top rule became false.")
        case .loadPreviousStarted: .init(.topEdge, "A load of the previous (older) page began.")
        case .loadPreviousFinished: .init(.topEdge, "A previous page landed, prepended as older items.")
        case .loadPreviousFailed:
            .init(.topEdge, "A load of the previous page failed; items are unchanged.", failure: true)
        case .loadPreviousRetryScheduled:
            .init(.topEdge, "The retry policy scheduled a retry of the failed previous page.")
        case .loadPreviousRetryStarted: .init(.topEdge, "A load of a previous page that failed before began.")
        case .loadPreviousRetryCancelled: .init(.topEdge, "A scheduled retry of the previous page was abandoned.")
        case .loadPreviousGaveUp:
            .init(.topEdge, "The retry policy used up its retries of the previous page.", failure: true)
        case .loadPreviousCancelled: .init(.topEdge, "A load of the previous page was abandoned (a reset).")
        case .loadPreviousSuppressed:
            .init(.topEdge, "A top trigger arrived while a load of the previous page could not start.")
        case .feedStartReached: .init(.topEdge, "The feed's first item is held: nothing lies above (once).")
        case .loadPreviousIgnored: .init(.topEdge, "A manual Load older with nothing above.")
        case .refreshYielded: .init(.topEdge, "A pull (or Refresh) while older items exist above: those load instead.")
        case .messageArrived: .init(.chat, "A new message arrived at the bottom (followed only from the bottom).")
        case .scrollToBottom: .init(.chat, "The server told the page to scroll to the bottom.")
        case .anchorKept: .init(.anchor, "The page rendered a prepend and its anchor item stayed within 1 px.")
        case .anchorDrift: .init(.anchor, "A prepend moved the page's anchor item by more than 1 px.", failure: true)
        case .windowTrimmed: .init(.window, "A bounded window trimmed items far from the viewport.")
        case .jumpStarted: .init(.window, "A jump began loading the window around an item.")
        case .jumpFinished: .init(.window, "A jump's window landed and the page was told to scroll to the item.")
        case .jumpSettled: .init(.window, "The page's first geometry after a jump: what the edge rules held back.")
        case .jumpCancelled: .init(.window, "A jump in flight was abandoned (another jump, a reset).")
        case .protocolError: .init(.protocol, "A message was refused.", failure: true)
        }
    }

    /// This event's category (``catalogEntry``).
    public var category: EventCategory { catalogEntry.category }

    /// This event's one-line meaning (``catalogEntry``).
    public var meaning: String { catalogEntry.meaning }
}

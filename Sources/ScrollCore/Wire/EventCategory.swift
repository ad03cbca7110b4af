/// The family an event belongs to: the page colours its log rows and groups its name filter by it, and
/// docs/events.md and docs/protocol.md group their event tables the same way.
public enum EventCategory: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The bottom edge: its rule, the next page's loads, retries and the feed's end.
    case load
    /// Pull-to-refresh: the pull, the refresh's life, the scroll to the top.
    case refresh
    /// The top edge of a two-way feed: its rule, the previous page's loads and the feed's start.
    case topEdge
    /// A bounded window's trims and jumps to an item.
    case window
    /// A chat's new messages and the scroll to the bottom that follows them.
    case chat
    /// Whether a prepend kept what the user sees.
    case anchor
    /// The session's life: opening, resuming, closing, settings, reset, compare mode, the published origin.
    case session
    /// A refused message.
    case `protocol`
}

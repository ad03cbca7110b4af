/// An end of the feed where pages load: the bottom brings the next pages, the top the previous ones,
/// older items prepended to a feed that opened in the middle (a chat, a feed opened at an item). Both
/// share one machinery: the edge rule, the in-flight guard, the retry policy.
public enum FeedEdge: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The end: next pages are appended.
    case bottom
    /// The start: previous (older) pages are prepended.
    case top
}

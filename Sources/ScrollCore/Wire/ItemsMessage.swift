/// The `items` message.
public struct ItemsMessage: Equatable, Sendable {
    /// How the items apply to what the page has.
    public enum Operation: String, Equatable, Sendable {
        /// The page's items become exactly these.
        case replace
        /// Add at the end.
        case append
        /// Add at the start.
        case prepend
        /// Remove `count` items at `edge` (a bounded window, `windowSize`): they are far from the viewport;
        /// the page keeps what the user sees.
        case trim
    }

    public var op: Operation
    /// Increases by one per items message of the session.
    public var rev: Int
    public var items: [FeedItem]
    /// The session's item count after this message.
    public var total: Int
    public var hasMore: Bool
    /// A prepend of older items (load previous): the page keeps what the user sees, even at the very top
    /// (a refresh's prepend at the top shows its new items instead). Sent only when true.
    public var older: Bool
    /// `trim`: where the items go (`top` or `bottom`) and how many; `items` is empty.
    public var trimmed: (edge: FeedEdge, count: Int)? {
        get { trimEdge.map { ($0, trimCount) } }
        set {
            trimEdge = newValue?.edge
            trimCount = newValue?.count ?? 0
        }
    }
    private var trimEdge: FeedEdge?
    private var trimCount = 0

    public init(op: Operation, rev: Int, items: [FeedItem], total: Int, hasMore: Bool, older: Bool = false) {
        self.op = op
        self.rev = rev
        self.items = items
        self.total = total
        self.hasMore = hasMore
        self.older = older
    }

    /// A `trim` of `count` items at `edge`.
    public static func trim(
        _ edge: FeedEdge, count: Int, rev: Int, total: Int, hasMore: Bool
    ) -> ItemsMessage {
        var message = ItemsMessage(op: .trim, rev: rev, items: [], total: total, hasMore: hasMore)
        message.trimmed = (edge, count)
        return message
    }
}

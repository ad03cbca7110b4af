/// The items a session holds, and which of them the page holds.
///
/// The items are one run of the feed, its indexes `firstLoaded..<cursor`, with refreshed items above it and
/// arrived messages after its end. A bounded window (`windowSize`) keeps some of them from the page at
/// either end (`trimmed`); they load back through that edge. Arrived messages wait in `heldArrivals` while
/// the feed has more: they belong after its end.
///
/// Only the methods below change it, and each checks the invariants after the change (`precondition`,
/// in every build: a broken window would send the page a list that is not the session's):
/// - `0 <= firstLoaded <= cursor`, and the feed items held are among the items
///   (`cursor - firstLoaded <= items.count`);
/// - `trimmed` is never negative and never more than the items (`trimmed.top + trimmed.bottom <= items.count`);
/// - items land next to the page only: an edge that has trimmed items takes new ones hidden;
/// - the id counters only grow, and every held arrival was counted (`heldArrivals.count <= arrivedCount`).
public struct FeedWindow: Equatable, Sendable {
    /// The items, in order, each id unique.
    public private(set) var items: [FeedItem] = [] {
        didSet { itemIndex.invalidate() }
    }
    /// Each item's index by id, for `jump`.
    private var itemIndex = ItemIndex()
    /// The feed index after the last feed item held: how many feed items have been handed out, counted from
    /// the feed's start.
    public private(set) var cursor = 0
    /// The feed index of the first feed item held (0: the feed's start; more in a feed opened in the middle).
    public private(set) var firstLoaded = 0
    /// Items at each end of `items` the page does not hold (trimmed by a bounded window, or refreshed above
    /// what it holds); they load back through that edge.
    package private(set) var trimmed = PerEdge(0)
    /// Arrived messages not yet shown: the session does not hold the feed's end yet.
    public private(set) var heldArrivals: [FeedItem] = []
    /// Refresh items made so far, so their ids never repeat.
    public private(set) var refreshedItemCount = 0
    /// New messages that arrived in all (`newMessageEveryMs`), so their ids never repeat.
    public private(set) var arrivedCount = 0

    /// A window holding nothing, before the session opens.
    public init() {}

    /// The items the page holds: all of `items` but those trimmed at either end.
    public var pageItems: ArraySlice<FeedItem> { items[trimmed.top..<(items.count - trimmed.bottom)] }

    /// How many items the page holds.
    public var pageCount: Int { items.count - trimmed.top - trimmed.bottom }

    /// The items held that are not the feed's: refreshed ones and arrived messages.
    public var heldExtraItems: Int { items.count - (cursor - firstLoaded) }

    /// The index in `items` of the item with `id`, in O(1) once the index is built (``ItemIndex``).
    mutating func index(of id: String) -> Int? {
        itemIndex.index(of: id, in: items)
    }

    // MARK: Changes

    /// Starts afresh on `opening`, the feed's items from index `start`. The page holds at most `limit` of
    /// them (0: all); the rest are trimmed at `far`, the end away from where the feed opens. The id counters
    /// carry on, so a refreshed item or a message never repeats an id.
    mutating func open(at start: Int, with opening: [FeedItem], limit: Int, trimmingAt far: FeedEdge) {
        firstLoaded = start
        items = opening
        cursor = start + opening.count
        heldArrivals = []
        trimmed = PerEdge(0)
        trimmed[far] = limit > 0 ? max(0, opening.count - limit) : 0
        checkInvariants()
    }

    /// Adds the feed's next items at the end, then the first `released` held arrivals (all of them once the
    /// feed's end is held); the page gets the first `shown` of them, the rest are trimmed below it.
    /// Returns what was added.
    mutating func appendFeed(_ feed: [FeedItem], releasingHeld released: Int, showing shown: Int) -> [FeedItem] {
        precondition(released >= 0 && released <= heldArrivals.count, "releases more arrivals than are held")
        var added = feed
        added += heldArrivals.prefix(released)
        heldArrivals.removeFirst(released)
        cursor += feed.count
        add(added, at: .bottom, showing: shown)
        return added
    }

    /// Adds the feed items from index `start` up to the first one held at the top; the page gets the last
    /// `shown` of them, the rest are trimmed above it.
    mutating func prependFeed(_ feed: [FeedItem], from start: Int, showing shown: Int) {
        precondition(start >= 0 && start <= firstLoaded, "prepends feed items below the first one held")
        firstLoaded = start
        add(feed, at: .top, showing: shown)
    }

    /// Adds a refresh's new items at the top; the page gets the last `shown` of them.
    mutating func prependRefreshed(_ fresh: [FeedItem], showing shown: Int) {
        refreshedItemCount += fresh.count
        add(fresh, at: .top, showing: shown)
    }

    /// Counts a new message's arrival and returns its number (1-based across the session).
    mutating func countArrival() -> Int {
        arrivedCount += 1
        return arrivedCount
    }

    /// Keeps an arrived message until the feed's end is held.
    mutating func hold(_ arrival: FeedItem) {
        heldArrivals.append(arrival)
        checkInvariants()
    }

    /// Adds an arrived message after the feed's end: in the page, or trimmed below it.
    mutating func appendArrival(_ arrival: FeedItem, shown: Bool) {
        add([arrival], at: .bottom, showing: shown ? 1 : 0)
    }

    /// Takes `count` of the page's items at `edge` out of the page; the session keeps them.
    mutating func trim(_ count: Int, at edge: FeedEdge) {
        precondition(count >= 0 && count <= pageCount, "trims more items than the page holds")
        trimmed[edge] += count
        checkInvariants()
    }

    /// Gives the page back `count` of the items trimmed at `edge`, the ones next to it, and returns them.
    mutating func reveal(_ count: Int, at edge: FeedEdge) -> [FeedItem] {
        precondition(count >= 0 && count <= trimmed[edge], "reveals more items than were trimmed")
        trimmed[edge] -= count
        let start = edge == .top ? trimmed.top : items.count - trimmed.bottom - count
        checkInvariants()
        return Array(items[start..<start + count])
    }

    /// The page holds `range` of `items` from now on (a jump's window).
    mutating func show(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= items.count, "shows items the session lacks")
        trimmed = PerEdge(bottom: items.count - range.upperBound, top: range.lowerBound)
        checkInvariants()
    }

    /// Adds `new` at `edge`: the `shown` nearest the page join it, the rest are trimmed at that edge.
    private mutating func add(_ new: [FeedItem], at edge: FeedEdge, showing shown: Int) {
        precondition(shown >= 0 && shown <= new.count, "shows more items than are added")
        // Shown items must touch the page: past items trimmed at this edge they would leave a gap.
        precondition(shown == 0 || trimmed[edge] == 0, "shows items beyond the ones trimmed at \(edge)")
        switch edge {
        case .top: items.insert(contentsOf: new, at: 0)
        case .bottom: items += new
        }
        trimmed[edge] += new.count - shown
        checkInvariants()
    }

    private func checkInvariants() {
        precondition(firstLoaded >= 0 && firstLoaded <= cursor, "the feed run starts after it ends")
        precondition(cursor - firstLoaded <= items.count, "more feed items counted than held")
        precondition(trimmed.top >= 0 && trimmed.bottom >= 0, "a negative trim")
        precondition(trimmed.top + trimmed.bottom <= items.count, "more items trimmed than held")
        precondition(refreshedItemCount >= 0 && heldArrivals.count <= arrivedCount, "an id counter went back")
    }
}

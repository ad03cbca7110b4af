/// Where each item of a list is, by id, so a `jump` finds its item in O(1) rather than by a scan of every
/// item held: built on the first lookup after the list changed, then kept until it changes again (a flood of
/// jumps to held or unknown ids costs no scan). A cache, not part of the state: `==` ignores it.
struct ItemIndex: Equatable, Sendable {
    private var positions: [String: Int]?

    /// Forgets the positions: the list changed.
    mutating func invalidate() {
        positions = nil
    }

    /// The index of the first item with `id` in `items`, the list this index was last invalidated for.
    mutating func index(of id: String, in items: [FeedItem]) -> Int? {
        if positions == nil {
            var built = [String: Int](minimumCapacity: items.count)
            for (index, item) in items.enumerated() where built[item.id] == nil { built[item.id] = index }
            positions = built
        }
        return positions?[id]
    }

    static func == (lhs: ItemIndex, rhs: ItemIndex) -> Bool { true }
}

extension SessionState {
    // MARK: A bounded window (`windowSize`)

    /// How many items the page holds.
    public var pageCount: Int { items.count - trimmedAbove - trimmedBelow }

    /// Before `count` items land at `edge`, a bounded window trims what would exceed it at the other end:
    /// the items farthest from what the user looks at. The trim goes first, so the page never holds more
    /// than the window, not even between two messages. The session keeps the items (they load back through
    /// that edge). A trim at the top moves content above the viewport, so the page's anchor is checked as
    /// after a prepend.
    mutating func makeRoom(for count: Int, landingAt edge: FeedEdge, into effects: inout [SessionEffect]) {
        let limit = config.windowSize
        guard limit > 0 else { return }
        let excess = min(pageCount, pageCount + count - limit)
        trim(excess, at: edge == .bottom ? .top : .bottom, into: &effects)
    }

    /// Trims `count` items the page holds at `edge`.
    mutating func trim(_ count: Int, at edge: FeedEdge, into effects: inout [SessionEffect]) {
        guard count > 0 else { return }
        switch edge {
        case .top: trimmedAbove += count
        case .bottom: trimmedBelow += count
        }
        rev += 1
        let message = ItemsMessage.trim(edge, count: count, rev: rev, total: items.count, hasMore: hasMoreBelow)
        itemsHistory.append(message)
        if itemsHistory.count > Self.itemsHistoryLimit { itemsHistory.removeFirst() }
        effects.append(.send(.items(message)))
        if edge == .top, anchorCheckRev == nil { anchorCheckRev = rev }
        var data: [String: JSONValue] = [
            "edge": .string(edge.rawValue), "count": .int(count), "held": .int(pageCount), "total": .int(items.count),
        ]
        if let first = pageItems.first, let last = pageItems.last {
            data["first"] = .string(first.id)
            data["last"] = .string(last.id)
        }
        effects.append(.log(LogEntry(.windowTrimmed, data)))
    }

    /// A changed `windowSize` applies at once: 0 gives the page back every trimmed item (unbounded, as
    /// before); a smaller window keeps the items around the middle of the viewport and trims the rest.
    mutating func fitWindow(into effects: inout [SessionEffect]) {
        let limit = config.windowSize
        if limit == 0 {
            if trimmedAbove > 0 {
                let above = Array(items[..<trimmedAbove])
                trimmedAbove = 0
                sendItems(.prepend, above, older: true, into: &effects)
                if anchorCheckRev == nil { anchorCheckRev = rev }
            }
            if trimmedBelow > 0 {
                let below = Array(items[(items.count - trimmedBelow)...])
                trimmedBelow = 0
                sendItems(.append, below, into: &effects)
            }
            return
        }
        let excess = pageCount - limit
        guard excess > 0 else { return }
        // The share of the excess above the viewport's middle: what lies above it goes in proportion.
        var fraction = 0.5
        if let geometry = lastGeometry?.geometry.along(config.axis), geometry.contentLength > 0 {
            let middle = geometry.offset + geometry.leadingInset + geometry.containerLength / 2
            fraction = min(max(middle / geometry.contentLength, 0), 1)
        }
        let above = min(excess, Int((Double(excess) * fraction).rounded()))
        trim(excess - above, at: .bottom, into: &effects)
        trim(above, at: .top, into: &effects)
    }
}

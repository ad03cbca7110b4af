extension SessionState {
    // MARK: A bounded window (`windowSize`)

    /// Before `count` items land at `edge`, a bounded window trims what would exceed it at the other end:
    /// the items farthest from what the user looks at. The trim goes first, so the page never holds more
    /// than the window, not even between two messages. The session keeps the items (they load back through
    /// that edge). A trim at the top moves content above the viewport, so the page's anchor is checked as
    /// after a prepend.
    ///
    /// Rows in view (the page's last geometry: its anchor item and the viewport's length) are never trimmed:
    /// when the user moved away from `edge` while its page loaded, only what fits lands and the rest stays
    /// in the session, trimmed at `edge`. Returns how many of the `count` items land in the page.
    mutating func makeRoom(for count: Int, landingAt edge: FeedEdge, into effects: inout [SessionEffect]) -> Int {
        let limit = config.windowSize
        guard limit > 0 else { return count }
        let excess = window.pageCount + count - limit
        guard excess > 0 else { return count }
        let far: FeedEdge = edge == .bottom ? .top : .bottom
        let trimmed = min(excess, rowsOutOfView(at: far))
        trim(trimmed, at: far, into: &effects)
        return max(0, count - (excess - trimmed))
    }

    /// Rows kept beyond the viewport at either end when trimming: a trim never reaches what the user sees.
    static let viewMargin = 2

    /// How many of the page's rows at `edge` lie out of view (with ``viewMargin``), by the last geometry.
    func rowsOutOfView(at edge: FeedEdge) -> Int {
        guard let view = rowsInView() else { return window.pageCount }
        switch edge {
        case .top: return max(0, view.lowerBound - Self.viewMargin)
        case .bottom: return max(0, window.pageCount - view.upperBound - Self.viewMargin)
        }
    }

    /// The page's rows (0-based in `pageItems`) the last geometry showed: from its anchor item (or, for a page
    /// that sends none, its offset over the average row) down by the rows' heights to the viewport's end.
    func rowsInView() -> Range<Int>? {
        guard let report = lastGeometry, window.pageCount > 0 else { return nil }
        let axis = report.geometry.along(config.rules.axis)
        guard axis.contentLength > 0 else { return nil }
        let page = window.pageItems
        let average = axis.contentLength / Double(page.count)
        var first: Int
        var edge: Double
        if let anchor = report.anchor, let index = page.firstIndex(where: { $0.id == anchor.id }) {
            first = index - page.startIndex
            edge = anchor.offset
        } else {
            let offset = max(0, axis.offset + axis.leadingInset)
            first = (offset / average).clampedInteger(in: 0...(page.count - 1))
            edge = Double(first) * average - offset
        }
        var last = first
        while last < page.count, edge < axis.containerLength {
            edge += page[page.startIndex + last].height ?? average
            last += 1
        }
        first = max(0, first)
        return first..<max(first + 1, last)
    }

    /// Trims `count` items the page holds at `edge`.
    mutating func trim(_ count: Int, at edge: FeedEdge, into effects: inout [SessionEffect]) {
        guard count > 0 else { return }
        window.trim(count, at: edge)
        rev += 1
        remember(
            ItemsMessage.trim(edge, count: count, rev: rev, total: window.items.count, hasMore: hasMore),
            into: &effects)
        if edge == .top, anchorCheckRev == nil { anchorCheckRev = rev }
        var data: [String: JSONValue] = [
            "edge": .string(edge.rawValue), "count": .int(count), "held": .int(window.pageCount),
            "total": .int(window.items.count),
        ]
        if let first = window.pageItems.first, let last = window.pageItems.last {
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
            if window.trimmed.top > 0 {
                let above = window.reveal(window.trimmed.top, at: .top)
                sendItems(.prepend, above, older: true, into: &effects)
                if anchorCheckRev == nil { anchorCheckRev = rev }
            }
            if window.trimmed.bottom > 0 {
                let below = window.reveal(window.trimmed.bottom, at: .bottom)
                sendItems(.append, below, into: &effects)
            }
            return
        }
        let excess = window.pageCount - limit
        guard excess > 0 else { return }
        // The share of the excess above the viewport's middle: what lies above it goes in proportion.
        var fraction = 0.5
        if let geometry = lastGeometry?.geometry.along(config.rules.axis), geometry.contentLength > 0 {
            let middle = geometry.offset + geometry.leadingInset + geometry.containerLength / 2
            fraction = min(max(middle / geometry.contentLength, 0), 1)
        }
        let above = (Double(excess) * fraction).rounded().clampedInteger(in: 0...excess)
        trim(excess - above, at: .bottom, into: &effects)
        trim(above, at: .top, into: &effects)
    }
}

extension SessionState {
    // MARK: Loading, at either edge

    /// The synthetic load at `edge` completed: its page lands (or fails, as drawn), and the controller
    /// hears how it ended.
    mutating func completeLoad(at edge: FeedEdge, failing: Bool, into effects: inout [SessionEffect]) {
        if failing {
            effects.append(
                .log(
                    LogEntry(
                        edge.events.failed,
                        ["page": .int(edges[edge].nextPage), "reason": JSONValue(Reason.simulatedFailure)])))
            carryOut(ask(.loadFailed(edge)), geometrySeq: nil, into: &effects)
            return
        }
        let shown =
            switch edge {
            case .bottom: appendNextPage(into: &effects)
            case .top: prependPreviousPage(into: &effects)
            }
        carryOut(
            ask(.loadFinished(edge, hasMore: hasItems(beyond: edge), shown: shown)), geometrySeq: nil, into: &effects)
    }

    /// The next page lands at the bottom; returns whether the page was sent anything (then the rules see it).
    private mutating func appendNextPage(into effects: inout [SessionEffect]) -> Bool {
        let number = edges.bottom.nextPage
        edges.bottom.page = number
        let below = window.trimmed.bottom
        if below > 0 {
            // A bounded window trimmed these: they come back from the session's items.
            let count = makeRoom(for: min(config.pageSize, below), landingAt: .bottom, into: &effects)
            let page = window.reveal(count, at: .bottom)
            if count > 0 { sendItems(.append, page, into: &effects) }
            effects.append(
                .log(
                    LogEntry(
                        FeedEdge.bottom.events.finished,
                        [
                            "page": .int(number), "added": .int(page.count), "total": .int(window.items.count),
                            "hasMore": .bool(hasMore), "reloaded": true,
                        ])))
            return count > 0
        }
        let available = pageableItems(besideRefreshed: window.heldExtraItems)
        let cursor = window.cursor
        let end = min(cursor + config.pageSize, available ?? .max)
        let feed = (cursor..<max(cursor, end)).compactMap { source.item(at: $0, seed: config.seed) }
        sourceHasMore = available.map { cursor + feed.count < $0 } ?? true
        // With the feed's end held, the messages that arrived meanwhile follow it.
        let released = sourceHasMore ? 0 : window.heldArrivals.count
        // What does not fit the window beside what the user sees stays in the session, below the page.
        let landing = makeRoom(for: feed.count + released, landingAt: .bottom, into: &effects)
        let page = window.appendFeed(feed, releasingHeld: released, showing: landing)
        let shown = landing > 0 || page.isEmpty
        if shown { sendItems(.append, Array(page.prefix(landing)), into: &effects) }
        var data: [String: JSONValue] = [
            "page": .int(number), "added": .int(page.count), "total": .int(window.items.count),
            "hasMore": .bool(sourceHasMore),
        ]
        if landing < page.count { data["shown"] = .int(landing) }
        if released > 0 { data["arrived"] = .int(released) }
        effects.append(.log(LogEntry(FeedEdge.bottom.events.finished, data)))
        return shown
    }

    /// Older items go on top, marked `older` so the page keeps what the user sees; the page's next
    /// geometry after them is checked for that (`anchorKept`, `anchorDrift`). Returns whether the page was
    /// sent anything.
    private mutating func prependPreviousPage(into effects: inout [SessionEffect]) -> Bool {
        let number = edges.top.nextPage
        edges.top.page = number
        let older: [FeedItem]
        let reloaded = window.trimmed.top > 0
        var landing: Int
        if reloaded {
            // A bounded window trimmed these: they come back from the session's items.
            landing = makeRoom(for: min(config.pageSize, window.trimmed.top), landingAt: .top, into: &effects)
            older = window.reveal(landing, at: .top)
        } else {
            let room = itemCap.map { max(0, $0 - window.items.count) } ?? .max
            let first = window.firstLoaded
            let start = max(0, first - min(config.pageSize, room))
            let loaded = (start..<first).compactMap { source.item(at: $0, seed: config.seed) }
            // What does not fit the window beside what the user sees stays in the session, above the page.
            landing = makeRoom(for: loaded.count, landingAt: .top, into: &effects)
            older = Array(loaded.suffix(landing))
            window.prependFeed(loaded, from: start, showing: landing)
            if itemCap != nil {
                sourceHasMore =
                    pageableItems(besideRefreshed: window.heldExtraItems).map { window.cursor < $0 } ?? true
            }
        }
        let shown = !older.isEmpty || !reloaded
        if shown {
            sendItems(.prepend, older, older: true, into: &effects)
            if !older.isEmpty { anchorCheckRev = rev }
        }
        var data: [String: JSONValue] = [
            "page": .int(number), "added": .int(older.count), "total": .int(window.items.count),
            "hasPrevious": .bool(hasPrevious),
        ]
        if reloaded { data["reloaded"] = true }
        if landing < older.count || (reloaded && landing == 0) { data["shown"] = .int(landing) }
        effects.append(.log(LogEntry(FeedEdge.top.events.finished, data)))
        return shown
    }
}

extension SessionState {
    // MARK: Jump to an item

    /// Where a jump's item is: in the session's items (its index), or a feed item the session does not hold
    /// yet (its index in the feed).
    enum JumpTarget: Equatable {
        /// At this index of `items`.
        case held(Int)
        /// At this index of the feed, before the first item held or after the last.
        case feed(Int)
    }

    /// A `jump`: an item the session does not know is refused (`unknown_item`) and changes nothing. An item
    /// the page holds, in a window that needs no change, is scrolled to at once; otherwise the window around
    /// it loads first (one load's latency), replacing a jump still loading.
    mutating func requestJump(_ request: JumpRequest, into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        guard let target = locate(request.id) else {
            // A feed item the cap keeps out of reach says so; any other id is simply not in the feed.
            let inFeed =
                feedIndex(of: request.id).map { index in
                    source.available(maxItems: config.maxItems).map { index < $0 } ?? true
                } ?? false
            effects += Self.refusal(
                ProtocolError(
                    .unknownItem,
                    "no item \"\(ClientText.excerpt(request.id))\" in this feed\(inFeed ? reachNote : ""): nothing changed"
                ))
            return
        }
        if case .loading(let token, let earlier) = jump {
            cancel(.jump(token), into: &effects)
            effects.append(
                .log(
                    LogEntry(.jumpCancelled, ["id": .string(earlier.id), "reason": JSONValue(Reason.jump)])))
        }
        if case .held(let index) = target, jumpWindow(around: index) == nil {
            // The page holds the item well inside its window: sending that window again would cost O(items
            // held) per jump (an unbounded window's every item) and change nothing; an empty `append` gives
            // the page a new `rev` to report once it has placed the item.
            finishJump(request, at: index, filled: 0, resending: false, into: &effects)
            return
        }
        let latency = drawLatency(config.loadLatencyMs)
        let token = takeToken()
        jump = .loading(token: token, request)
        var data: [String: JSONValue] = [
            "id": .string(request.id), "anchor": .string(request.anchor.rawValue), "latencyMs": .int(latency),
        ]
        if case .feed(let index) = target { data["feedIndex"] = .int(index) }
        effects.append(.log(LogEntry(.jumpStarted, data)))
        schedule(.jump(token), afterMilliseconds: latency, into: &effects)
    }

    /// The jump's window has loaded: the feed items between what the session held and the item are added
    /// (the session's items stay one run of the feed), loads in flight are abandoned, and the page is told
    /// where to scroll, then given the window around the item.
    mutating func completeJump(_ request: JumpRequest, into effects: inout [SessionEffect]) {
        jump = .idle
        guard let target = locate(request.id) else {
            effects.append(
                .log(
                    LogEntry(.jumpCancelled, ["id": .string(request.id), "reason": JSONValue(Reason.unknownItem)])))
            return
        }
        for edge in FeedEdge.allCases where runtime.loads[edge] != nil {
            // The jump drops the loads itself: the controller hears it (and decides nothing) after the log.
            dropRequest(at: edge, reason: .jump, into: &effects)
            carryOut(ask(.loadCancelled(edge)), geometrySeq: nil, into: &effects)
        }
        var filled = 0
        let index: Int
        switch target {
        case .held(let held):
            index = held
        case .feed(let feedIndex):
            let margin = config.windowSize > 0 ? config.windowSize / 2 + 1 : config.pageSize
            let cursor = window.cursor
            if feedIndex >= cursor {
                let available = pageableItems(besideRefreshed: window.heldExtraItems)
                let end = min(feedIndex + margin, available ?? .max)
                let fill = (cursor..<end).compactMap { source.item(at: $0, seed: config.seed) }
                // The session's items end with the feed item before `cursor` (arrived messages wait while the
                // feed has more), so the item lands this far past the items held.
                index = window.items.count + (feedIndex - cursor)
                sourceHasMore = available.map { cursor + fill.count < $0 } ?? true
                filled = fill.count
                // Not in the page yet: the window is set afresh below.
                _ = window.appendFeed(
                    fill, releasingHeld: sourceHasMore ? 0 : window.heldArrivals.count, showing: 0)
            } else {
                let room = itemCap.map { max(0, $0 - window.items.count) } ?? .max
                let first = window.firstLoaded
                let start = max(0, feedIndex - margin, first - room)
                let fill = (start..<first).compactMap { source.item(at: $0, seed: config.seed) }
                window.prependFeed(fill, from: start, showing: 0)
                filled = fill.count
                index = feedIndex - start
            }
        }
        if let range = jumpWindow(around: index) {
            window.show(range)
        }
        finishJump(request, at: index, filled: filled, into: &effects)
    }

    /// Tells the page where to scroll and gives it the window (a `replace`, so the item and the window arrive
    /// together; without `resending`, an empty `append`: the page holds it); geometry until the page reports
    /// that `rev` decides nothing at the edges.
    private mutating func finishJump(
        _ request: JumpRequest, at index: Int, filled: Int, resending: Bool = true, into effects: inout [SessionEffect]
    ) {
        effects.append(.send(.scrollToItem(id: request.id, anchor: request.anchor)))
        if resending {
            sendItems(.replace, Array(window.pageItems), into: &effects)
            // The new list is measured afresh: no prepend to check, and the edge rules re-arm on it.
            anchorCheckRev = nil
        } else {
            sendItems(.append, [], into: &effects)
        }
        jump = .positioning(request, rev: rev, suppressed: [])
        var data: [String: JSONValue] = [
            "id": .string(request.id), "anchor": .string(request.anchor.rawValue), "index": .int(index),
            "filled": .int(filled), "held": .int(window.pageCount), "total": .int(window.items.count),
        ]
        if let first = window.pageItems.first, let last = window.pageItems.last {
            data["first"] = .string(first.id)
            data["last"] = .string(last.id)
        }
        effects.append(.log(LogEntry(.jumpFinished, data)))
    }

    /// The page's window for an item at `index` of `items`: nil when the page holds it well inside its window
    /// (a quarter of the window from either end, or the list's end) or the window is unbounded; otherwise
    /// `windowSize` items around it.
    func jumpWindow(around index: Int) -> Range<Int>? {
        let limit = config.windowSize
        let count = window.items.count
        let start = window.trimmed.top
        let end = count - window.trimmed.bottom
        if limit == 0 {
            return start == 0 && end == count ? nil : 0..<count
        }
        let margin = limit / 4
        let roomAbove = start == 0 ? Int.max : index - start
        let roomBelow = end == count ? Int.max : end - 1 - index
        if index >= start, index < end, roomAbove >= margin, roomBelow >= margin { return nil }
        let lower = max(0, min(index - limit / 2, count - limit))
        return lower..<min(count, lower + limit)
    }

    /// Geometry while a jump is under way fires no edge rule (the controller holds them): `edge` would have
    /// loaded; the first time per edge and jump it is logged (`loadMoreSuppressed` / `loadPreviousSuppressed`,
    /// reason `jump`).
    mutating func suppressForJump(_ edge: FeedEdge, geometrySeq: Int?, into effects: inout [SessionEffect]) {
        var request: JumpRequest?
        switch jump {
        case .idle: return
        case .loading(_, let loading): request = loading
        case .positioning(let positioning, let rev, var suppressed):
            request = positioning
            guard !suppressed.contains(edge) else { return }
            suppressed.append(edge)
            jump = .positioning(positioning, rev: rev, suppressed: suppressed)
        }
        effects.append(
            .log(
                LogEntry(
                    edge.events.suppressed, geometrySeq: geometrySeq,
                    [
                        "trigger": JSONValue(edge.ruleTrigger), "reason": JSONValue(Reason.jump),
                        "id": .string(request?.id ?? ""),
                    ])))
    }

    /// The first geometry of the jump's window (its `rev`, or any from a page that reports none) ends the jump.
    mutating func settleJump(after report: GeometryReport, into effects: inout [SessionEffect]) {
        guard case .positioning(let request, let rev, let suppressed) = jump, (report.rev ?? rev) >= rev else {
            return
        }
        jump = .idle
        effects.append(
            .log(
                LogEntry(
                    .jumpSettled, geometrySeq: report.seq,
                    [
                        "id": .string(request.id), "anchor": .string(request.anchor.rawValue),
                        "suppressed": .array(suppressed.map { .string($0.rawValue) }),
                    ])))
    }

    /// Cancels a jump under way (a reset).
    mutating func cancelJump(reason: Reason, into effects: inout [SessionEffect]) {
        switch jump {
        case .idle: return
        case .loading(let token, let request):
            cancel(.jump(token), into: &effects)
            effects.append(
                .log(LogEntry(.jumpCancelled, ["id": .string(request.id), "reason": JSONValue(reason)])))
        case .positioning:
            break
        }
        jump = .idle
    }

    /// Where the item with `id` is, or nil when the feed has no such item within the session's reach.
    /// O(1) in the items held and the feed's length (``ItemIndex``), so that jumps cost little however
    /// many items a session holds.
    mutating func locate(_ id: String) -> JumpTarget? {
        if let index = window.index(of: id) { return .held(index) }
        guard let feedIndex = feedIndex(of: id),
            source.available(maxItems: config.maxItems).map({ feedIndex < $0 }) ?? true
        else { return nil }
        if feedIndex >= window.cursor {
            guard pageableItems(besideRefreshed: window.heldExtraItems).map({ feedIndex < $0 }) ?? true else {
                return nil
            }
            return .feed(feedIndex)
        }
        if feedIndex < window.firstLoaded {
            guard itemCap.map({ window.items.count + (window.firstLoaded - feedIndex) <= $0 }) ?? true else {
                return nil
            }
            return .feed(feedIndex)
        }
        // Between the first and the last feed item held, yet not held: a held message or a refreshed
        // item's place; not an item of this feed.
        return nil
    }

    /// The feed index of the item with `id` (a list's through ``sourceIndex``).
    private mutating func feedIndex(of id: String) -> Int? {
        switch source {
        case .list(let entries): sourceIndex.index(of: id, in: entries)
        case .synthetic: source.index(of: id, seed: config.seed)
        }
    }

    private var reachNote: String {
        guard let itemCap else { return "" }
        return " (a session holds at most \(itemCap) items)"
    }
}

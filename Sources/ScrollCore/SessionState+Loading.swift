extension SessionState {
    // MARK: Loading, at either edge

    /// A trigger asks for the next page (bottom) or the previous one (top): one load per edge at a time,
    /// none past the feed's end or start, the refresh's and the retry policy's guards, then the load starts.
    mutating func triggerLoad(
        _ edge: FeedEdge, trigger: Trigger, geometrySeq: Int?, into effects: inout [SessionEffect]
    ) {
        guard lifecycle == .open else { return }
        let events = edge.events
        let failure = edges[edge].failure
        let ask: LoadAsk = trigger == .manual ? .person : trigger == .retry ? .retry : .rule
        let admission = config.preset.behavior.admitLoad(
            ask, inFlight: edges[edge].inFlight != nil, hasMore: hasItems(beyond: edge),
            refreshing: refreshing, retry: failure?.next.status)
        switch admission {
        case .inFlight:
            guard var load = edges[edge].inFlight, !load.suppressionLogged else { return }
            load.suppressionLogged = true
            edges[edge].load = .inFlight(load)
            effects.append(
                .log(
                    LogEntry(
                        events.suppressed, geometrySeq: geometrySeq,
                        [
                            "trigger": JSONValue(trigger), "reason": JSONValue(Reason.loadInFlight),
                            "page": .int(load.page),
                        ])))
            return
        case .exhausted:
            if let failure {
                abandonRetry(failure, reason: .feedExhausted, at: edge, into: &effects)
                edges[edge].load = .idle
            }
            if edges[edge].load != .exhausted {
                edges[edge].load = .exhausted
                effects.append(
                    .log(LogEntry(events.exhausted, geometrySeq: geometrySeq, ["total": .int(window.items.count)])))
            } else if trigger == .manual {
                // A person pressed Load more: say why nothing happens (the edge rule stays quiet, as before).
                effects.append(
                    .log(
                        LogEntry(
                            events.ignored,
                            [
                                "trigger": JSONValue(trigger), "reason": JSONValue(Reason.feedExhausted),
                                "total": .int(window.items.count),
                            ])))
            }
            return
        case .refreshing(let reschedulesRetry):
            effects.append(
                .log(
                    LogEntry(
                        events.suppressed, geometrySeq: geometrySeq,
                        ["trigger": JSONValue(trigger), "reason": JSONValue(Reason.refreshing)])))
            // The retry's turn comes again after a fresh delay: dropping it would stall the feed.
            if reschedulesRetry, var failure, case .scheduled(let retry) = failure.next {
                scheduleRetry(&failure, number: retry.number, at: edge, into: &effects)
                edges[edge].load = .failed(failure)
            }
            return
        case .retryScheduled, .gaveUp:
            if let failure {
                noteRetryHeldBack(trigger, failure: failure, at: edge, geometrySeq: geometrySeq, into: &effects)
            }
            return
        case .start(let abandonsRetry):
            if abandonsRetry, let failure { abandonRetry(failure, reason: .manualLoad, at: edge, into: &effects) }
        }
        let latency = drawLatency(config.loadLatencyMs)
        let number = edges[edge].page + 1
        var load = PageLoad(token: takeToken(), page: number, willFail: drawFailure())
        if let failure {
            noteRetryStarted(
                &load, after: failure, trigger: trigger, at: edge, geometrySeq: geometrySeq, into: &effects)
        } else {
            load.recentStarts = [now]
        }
        edges[edge].load = .inFlight(load)
        var data: [String: JSONValue] = [
            "page": .int(load.page), "trigger": JSONValue(trigger), "latencyMs": .int(latency),
        ]
        if let geometry = lastGeometry?.geometry.along(config.axis), geometry.contentLength != 0 {
            if edge == .bottom {
                data["distanceToBottom"] = .number(geometry.distanceToBottom)
            } else {
                data["distanceToTop"] = .number(geometry.distanceToTop)
            }
        }
        effects.append(.log(LogEntry(events.started, geometrySeq: geometrySeq, data)))
        effects.append(.schedule(edge.loadTimer(load.token), afterMilliseconds: latency))
    }

    mutating func cancelLoad(_ load: PageLoad, at edge: FeedEdge, reason: Reason, into effects: inout [SessionEffect]) {
        edges[edge].load = .idle
        effects.append(.cancel(edge.loadTimer(load.token)))
        effects.append(.log(LogEntry(edge.events.cancelled, ["page": .int(load.page), "reason": JSONValue(reason)])))
    }

    mutating func completeLoad(_ load: PageLoad, at edge: FeedEdge, into effects: inout [SessionEffect]) {
        edges[edge].load = .idle
        if load.willFail {
            effects.append(
                .log(
                    LogEntry(
                        edge.events.failed, ["page": .int(load.page), "reason": JSONValue(Reason.simulatedFailure)])))
            var failure = LoadFailure(
                page: load.page, failures: load.failures + 1, retries: load.retries, recentStarts: load.recentStarts,
                next: .manual)
            decideRetry(&failure, at: edge, into: &effects)
            edges[edge].load = .failed(failure)
            return
        }
        switch edge {
        case .bottom: appendNextPage(load, into: &effects)
        case .top: prependPreviousPage(load, into: &effects)
        }
    }

    private mutating func appendNextPage(_ load: PageLoad, into effects: inout [SessionEffect]) {
        edges.bottom.page = load.page
        let below = window.trimmed.bottom
        if below > 0 {
            // A bounded window trimmed these: they come back from the session's items.
            let count = makeRoom(for: min(config.pageSize, below), landingAt: .bottom, into: &effects)
            let page = window.reveal(count, at: .bottom)
            if count > 0 {
                sendItems(.append, page, into: &effects)
                rearmBottomRule()
            }
            effects.append(
                .log(
                    LogEntry(
                        FeedEdge.bottom.events.finished,
                        [
                            "page": .int(load.page), "added": .int(page.count), "total": .int(window.items.count),
                            "hasMore": .bool(hasMore), "reloaded": true,
                        ])))
            return
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
        if landing > 0 || page.isEmpty {
            sendItems(.append, Array(page.prefix(landing)), into: &effects)
            rearmBottomRule()
        }
        var data: [String: JSONValue] = [
            "page": .int(load.page), "added": .int(page.count), "total": .int(window.items.count),
            "hasMore": .bool(sourceHasMore),
        ]
        if landing < page.count { data["shown"] = .int(landing) }
        if released > 0 { data["arrived"] = .int(released) }
        effects.append(.log(LogEntry(FeedEdge.bottom.events.finished, data)))
    }

    /// Older items go on top, marked `older` so the page keeps what the user sees; the page's next
    /// geometry after them is checked for that (`anchorKept`, `anchorDrift`).
    private mutating func prependPreviousPage(_ load: PageLoad, into effects: inout [SessionEffect]) {
        edges.top.page = load.page
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
        if !older.isEmpty || !reloaded {
            sendItems(.prepend, older, older: true, into: &effects)
            if !older.isEmpty { anchorCheckRev = rev }
            rearmTopRule()
        }
        var data: [String: JSONValue] = [
            "page": .int(load.page), "added": .int(older.count), "total": .int(window.items.count),
            "hasPrevious": .bool(hasPrevious),
        ]
        if reloaded { data["reloaded"] = true }
        if landing < older.count || (reloaded && landing == 0) { data["shown"] = .int(landing) }
        effects.append(.log(LogEntry(FeedEdge.top.events.finished, data)))
    }

    /// Once the page shows the new items, presets that re-arm evaluate the bottom rule afresh.
    mutating func rearmBottomRule() {
        guard config.preset.behavior.rearmsBottomWhenItemsLand, let geometry = lastGeometry?.geometry.along(config.axis)
        else { return }
        memory.contentLengthAtLanding = geometry.contentLength
    }

    /// Once older items show, the top rule is evaluated afresh: a page that still ends within the
    /// threshold loads the one before it.
    mutating func rearmTopRule() {
        guard config.feedSettings.loadsPrevious,
            let geometry = lastGeometry?.geometry.along(config.axis)
        else {
            return
        }
        memory.contentLengthAtTopLanding = geometry.contentLength
    }
}

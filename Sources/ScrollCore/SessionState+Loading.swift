extension SessionState {
    // MARK: Loading, at either edge

    /// A trigger asks for the next page (bottom) or the previous one (top): one load per edge at a time,
    /// none past the feed's end or start, the refresh's and the retry policy's guards, then the load starts.
    mutating func triggerLoad(
        _ edge: FeedEdge, trigger: Trigger, geometrySeq: Int?, into effects: inout [SessionEffect]
    ) {
        guard isOpen else { return }
        let events = edge.events
        let failure = failure(edge)
        let ask: LoadAsk = trigger == .manual ? .person : trigger == .retry ? .retry : .rule
        let admission = config.preset.behavior.admitLoad(
            ask, inFlight: inFlight(edge) != nil, hasMore: edge == .bottom ? hasMoreBelow : hasPrevious,
            refreshing: refreshing, retry: failure?.next.status)
        switch admission {
        case .inFlight:
            guard var load = inFlight(edge), !load.suppressionLogged else { return }
            load.suppressionLogged = true
            self[load: edge] = .inFlight(load)
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
                self[load: edge] = .idle
            }
            if self[load: edge] != .exhausted {
                self[load: edge] = .exhausted
                effects.append(.log(LogEntry(events.exhausted, geometrySeq: geometrySeq, ["total": .int(items.count)])))
            } else if trigger == .manual {
                // A person pressed Load more: say why nothing happens (the edge rule stays quiet, as before).
                effects.append(
                    .log(
                        LogEntry(
                            events.ignored,
                            [
                                "trigger": JSONValue(trigger), "reason": JSONValue(Reason.feedExhausted),
                                "total": .int(items.count),
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
                self[load: edge] = .failed(failure)
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
        let number = (edge == .bottom ? page : previousPage) + 1
        var load = PageLoad(token: takeToken(), page: number, willFail: drawFailure())
        if let failure {
            noteRetryStarted(
                &load, after: failure, trigger: trigger, at: edge, geometrySeq: geometrySeq, into: &effects)
        } else {
            load.recentStarts = [now]
        }
        self[load: edge] = .inFlight(load)
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
        self[load: edge] = .idle
        effects.append(.cancel(edge.loadTimer(load.token)))
        effects.append(.log(LogEntry(edge.events.cancelled, ["page": .int(load.page), "reason": JSONValue(reason)])))
    }

    mutating func completeLoad(_ load: PageLoad, at edge: FeedEdge, into effects: inout [SessionEffect]) {
        self[load: edge] = .idle
        if load.willFail {
            effects.append(
                .log(
                    LogEntry(
                        edge.events.failed, ["page": .int(load.page), "reason": JSONValue(Reason.simulatedFailure)])))
            var failure = LoadFailure(
                page: load.page, failures: load.failures + 1, retries: load.retries, recentStarts: load.recentStarts,
                next: .manual)
            decideRetry(&failure, at: edge, into: &effects)
            self[load: edge] = .failed(failure)
            return
        }
        switch edge {
        case .bottom: appendNextPage(load, into: &effects)
        case .top: prependPreviousPage(load, into: &effects)
        }
    }

    private mutating func appendNextPage(_ load: PageLoad, into effects: inout [SessionEffect]) {
        self.page = load.page
        if trimmedBelow > 0 {
            // A bounded window trimmed these: they come back from the session's items.
            let start = items.count - trimmedBelow
            let count = makeRoom(
                for: min(config.pageSize, trimmedBelow), landingAt: .bottom, into: &effects)
            let page = Array(items[start..<start + count])
            trimmedBelow -= count
            if count > 0 {
                sendItems(.append, page, into: &effects)
                rearmBottomRule()
            }
            effects.append(
                .log(
                    LogEntry(
                        .loadMoreFinished,
                        [
                            "page": .int(load.page), "added": .int(page.count), "total": .int(items.count),
                            "hasMore": .bool(hasMoreBelow), "reloaded": true,
                        ])))
            return
        }
        let available = pageableItems(besideRefreshed: items.count - (cursor - firstLoaded))
        let end = min(cursor + config.pageSize, available ?? .max)
        var page = (cursor..<max(cursor, end)).compactMap { source.item(at: $0, seed: config.seed) }
        cursor += page.count
        hasMore = available.map { cursor < $0 } ?? true
        // With the feed's end held, the messages that arrived meanwhile follow it.
        let shown = hasMore ? 0 : heldArrivals.count
        page += heldArrivals.prefix(shown)
        heldArrivals.removeFirst(shown)
        // What does not fit the window beside what the user sees stays in the session, below the page.
        let landing = makeRoom(for: page.count, landingAt: .bottom, into: &effects)
        items += page
        trimmedBelow = page.count - landing
        if landing > 0 || page.isEmpty {
            sendItems(.append, Array(page.prefix(landing)), into: &effects)
            rearmBottomRule()
        }
        var data: [String: JSONValue] = [
            "page": .int(load.page), "added": .int(page.count), "total": .int(items.count), "hasMore": .bool(hasMore),
        ]
        if landing < page.count { data["shown"] = .int(landing) }
        if shown > 0 { data["arrived"] = .int(shown) }
        effects.append(.log(LogEntry(.loadMoreFinished, data)))
    }

    /// Older items go on top, marked `older` so the page keeps what the user sees; the page's next
    /// geometry after them is checked for that (`anchorKept`, `anchorDrift`).
    private mutating func prependPreviousPage(_ load: PageLoad, into effects: inout [SessionEffect]) {
        previousPage = load.page
        let older: [FeedItem]
        let reloaded = trimmedAbove > 0
        var landing: Int
        if reloaded {
            // A bounded window trimmed these: they come back from the session's items.
            landing = makeRoom(for: min(config.pageSize, trimmedAbove), landingAt: .top, into: &effects)
            trimmedAbove -= landing
            older = Array(items[trimmedAbove..<trimmedAbove + landing])
        } else {
            let room = itemCap.map { max(0, $0 - items.count) } ?? .max
            let start = max(0, firstLoaded - min(config.pageSize, room))
            let loaded = (start..<firstLoaded).compactMap { source.item(at: $0, seed: config.seed) }
            // What does not fit the window beside what the user sees stays in the session, above the page.
            landing = makeRoom(for: loaded.count, landingAt: .top, into: &effects)
            older = Array(loaded.suffix(landing))
            firstLoaded = start
            items.insert(contentsOf: loaded, at: 0)
            trimmedAbove = loaded.count - landing
            if itemCap != nil {
                hasMore =
                    pageableItems(besideRefreshed: items.count - (cursor - firstLoaded)).map { cursor < $0 } ?? true
            }
        }
        if !older.isEmpty || !reloaded {
            sendItems(.prepend, older, older: true, into: &effects)
            if !older.isEmpty { anchorCheckRev = rev }
            rearmTopRule()
        }
        var data: [String: JSONValue] = [
            "page": .int(load.page), "added": .int(older.count), "total": .int(items.count),
            "hasPrevious": .bool(hasPrevious),
        ]
        if reloaded { data["reloaded"] = true }
        if landing < older.count || (reloaded && landing == 0) { data["shown"] = .int(landing) }
        effects.append(.log(LogEntry(.loadPreviousFinished, data)))
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

    /// Where a feed opens: the first item, the one `startAt` names, or (`chat`) the newest items.
    var openingIndex: Int {
        let available = pageableItems(besideRefreshed: 0)
        if config.startAt > 0 {
            return min(config.startAt - 1, max(0, (available ?? .max) - 1))
        }
        if config.preset.behavior.opensAtBottom, let available {
            return max(0, available - config.initialCount)
        }
        return 0
    }
}

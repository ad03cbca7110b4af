extension SessionState {
    // MARK: Refreshing

    /// A pull or a person asks for a refresh: the preset's behaviour admits it, defers it to the top edge, or
    /// ignores it while one is in flight.
    mutating func triggerRefresh(trigger: Trigger, geometrySeq: Int?, into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        switch config.preset.behavior.admitRefresh(hasPrevious: hasPrevious, refreshInFlight: refresh.operation != nil)
        {
        case .yieldsToPrevious:
            // Older items above: new ones cannot go on top of the gap, so the preset loads those first.
            effects.append(
                .log(
                    LogEntry(
                        .refreshYielded, geometrySeq: geometrySeq,
                        [
                            "trigger": JSONValue(trigger), "reason": JSONValue(Reason.hasPrevious),
                            "wins": "loadPrevious",
                        ])))
            memory.pull = PullState()
            triggerLoad(.top, trigger: trigger, geometrySeq: geometrySeq, into: &effects)
            return
        case .inFlight:
            // One refresh at a time. A pull meanwhile is silent (the indicator says so, and a held pull would
            // log on every frame); a person pressing Refresh is told why nothing happens.
            if trigger == .manual {
                effects.append(
                    .log(
                        LogEntry(
                            .refreshIgnored,
                            ["trigger": JSONValue(trigger), "reason": JSONValue(Reason.refreshInFlight)])))
            }
            return
        case .start(let cancelsLoad, let holdsIndicator):
            startRefresh(
                trigger: trigger, geometrySeq: geometrySeq, cancelsLoad: cancelsLoad, holdsIndicator: holdsIndicator,
                into: &effects)
        }
    }

    private mutating func startRefresh(
        trigger: Trigger, geometrySeq: Int?, cancelsLoad: Bool, holdsIndicator: Bool,
        into effects: inout [SessionEffect]
    ) {
        let latency = drawLatency(config.refreshLatencyMs)
        let operation = Refresh(token: takeToken(), willFail: drawFailure())
        refresh = .inFlight(operation, hold: holdsIndicator ? .running : .none)
        var data: [String: JSONValue] = ["trigger": JSONValue(trigger), "latencyMs": .int(latency)]
        if geometrySeq != nil { data["distance"] = .number(memory.pull.distance) }
        effects.append(.log(LogEntry(.refreshStarted, geometrySeq: geometrySeq, data)))
        effects.append(.schedule(.refresh(operation.token), afterMilliseconds: latency))
        if holdsIndicator {
            effects.append(.schedule(.refreshHold, afterMilliseconds: config.refreshHoldMs))
        }
        if cancelsLoad, let load = loadInFlight {
            cancelLoad(load, at: .bottom, reason: .refreshStarted, into: &effects)
        }
    }

    /// The refresh landed: its new items go on top (into the page, or above a window further down).
    mutating func completeRefresh(_ operation: Refresh, hold: FixedHold, into effects: inout [SessionEffect]) {
        var contentChanged = false
        if operation.willFail {
            effects.append(.log(LogEntry(.refreshFailed, ["reason": JSONValue(Reason.simulatedFailure)])))
        } else {
            let room = itemCap.map { max(0, $0 - window.items.count) } ?? .max
            let fresh = (0..<min(config.refreshCount, room)).map { offset in
                FeedSource.refreshedItem(window.refreshedItemCount + offset + 1, seed: config.seed)
            }
            // The page holds a window further down: the new items wait above it, loaded back at the top.
            let above = window.trimmed.top
            let landing = above == 0 ? makeRoom(for: fresh.count, landingAt: .top, into: &effects) : 0
            let shown = landing > 0 || (above == 0 && fresh.isEmpty)
            window.prependRefreshed(fresh, showing: shown ? landing : 0)
            if itemCap != nil {
                sourceHasMore =
                    pageableItems(besideRefreshed: window.heldExtraItems).map { window.cursor < $0 } ?? true
            }
            var data: [String: JSONValue] = ["added": .int(fresh.count), "total": .int(window.items.count)]
            if shown {
                // Scrolled into the feed, the page keeps its anchor through the refresh's prepend too.
                let scrolledIn = lastGeometry.map { $0.geometry.along(config.axis).distanceToTop > 0.5 } ?? false
                sendItems(.prepend, Array(fresh.suffix(landing)), into: &effects)
                if scrolledIn, !fresh.isEmpty { anchorCheckRev = rev }
                rearmBottomRule()
                contentChanged = !fresh.isEmpty
                if landing < fresh.count { data["shown"] = .int(landing) }
            } else {
                data["shown"] = false
            }
            effects.append(.log(LogEntry(.refreshFinished, data)))
        }
        if hold == .running {
            refresh = .holding
        } else {
            endRefreshIndicator()
        }
        if !contentChanged { loadWhatTheRefreshHeldBack(into: &effects) }
    }

    /// `refreshOffsetObservable`'s fixed hold ended.
    mutating func endRefreshHold(into effects: inout [SessionEffect]) {
        switch refresh {
        case .inFlight(let operation, hold: .running):
            // The fixed hold ends the indicator while the refresh goes on (the design's pitfall).
            refresh = .inFlight(operation, hold: .ended)
            memory.pull = PullState()
        case .holding:
            endRefreshIndicator()
        case .idle, .inFlight:
            return
        }
        // With the indicator gone, a load it held back may start (a preset switched during the hold).
        loadWhatTheRefreshHeldBack(into: &effects)
    }

    /// A preset that holds page loads back while the refresh indicator shows starts the one it held back when
    /// the indicator goes without new content landing at that moment: a page that does not change sends no
    /// geometry that would re-arm the bottom rule, so a user resting at the bottom would wait forever. (New
    /// content landing re-arms it.)
    private mutating func loadWhatTheRefreshHeldBack(into effects: inout [SessionEffect]) {
        guard
            config.preset.behavior.loadsWhatRefreshHeldBack(
                refreshing: refreshing, bottomIdle: edges.bottom.load == .idle, atBottom: memory.reachedBottom,
                hasMore: hasMore)
        else { return }
        triggerLoad(.bottom, trigger: .bottom, geometrySeq: nil, into: &effects)
    }

    /// The refresh is over for the rules: the pull starts from scratch.
    private mutating func endRefreshIndicator() {
        refresh = .idle
        memory.pull = PullState()
    }
}

extension FeedController {
    // MARK: Refreshing

    /// A pull or a person asks for a refresh: the preset's behaviour admits it, defers it to the top edge, or
    /// ignores it while one is in flight.
    mutating func startRefresh(_ trigger: FeedTrigger, _ turn: inout Turn) {
        // Without a refresh the app cannot run, nothing starts; without previous pages, none is yielded to.
        guard capabilities.contains(.refresh) else { return }
        let yields = hasPrevious && canLoad(.top)
        switch settings.behavior.admitRefresh(hasPrevious: yields, refreshInFlight: refresh.isInFlight) {
        case .yieldsToPrevious:
            // Older items above: new ones cannot go on top of the gap, so the preset loads those first.
            turn.decide(.refreshYielded(trigger: trigger))
            memory.pull = PullState()
            load(.top, trigger, &turn)
        case .inFlight:
            // One refresh at a time. A pull meanwhile is silent (the indicator says so, and a held pull would
            // say it on every frame); a person pressing Refresh is told why nothing happens.
            if trigger == .manual { turn.decide(.refreshIgnored(trigger: trigger)) }
        case .start(let cancelsLoad, let holdsIndicator):
            let holdMs = settings.refreshHoldMs
            refresh = .inFlight(hold: holdsIndicator ? .running(until: turn.now + Int64(holdMs)) : .none)
            turn.decide(.refreshStarted(trigger: trigger))
            if holdsIndicator { turn.decide(.holdStarted(ms: holdMs)) }
            if cancelsLoad, loads.bottom.inFlight != nil {
                loads.bottom = .idle
                turn.decide(.loadCancelled(.bottom, reason: .refreshStarted))
            }
        }
    }

    /// The refresh ended. `shown`: the view was updated, so presets that re-arm evaluate the bottom rule
    /// afresh; `addedItems` new items on top change the content, which re-arms by itself.
    mutating func finishRefresh(addedItems: Int, shown: Bool, _ turn: inout Turn) {
        guard case .inFlight(let hold) = refresh else { return }
        if shown { rearm(.bottom) }
        if case .running(let until) = hold {
            refresh = .holding(until: until)
        } else {
            endIndicator()
        }
        if !(shown && addedItems > 0) { loadWhatTheRefreshHeldBack(&turn) }
    }

    /// `refreshOffsetObservable`'s fixed hold ended.
    mutating func endHold(_ turn: inout Turn) {
        switch refresh {
        case .inFlight(hold: .running):
            // The fixed hold ends the indicator while the refresh goes on (the design's pitfall).
            refresh = .inFlight(hold: .ended)
            memory.pull = PullState()
        case .holding:
            endIndicator()
        case .idle, .inFlight:
            return
        }
        // With the indicator gone, a load it held back may start (a preset switched during the hold).
        loadWhatTheRefreshHeldBack(&turn)
    }

    /// A preset that holds page loads back while the refresh indicator shows starts the one it held back when
    /// the indicator goes without new content landing at that moment: a page that does not change sends no
    /// geometry that would re-arm the bottom rule, so a user resting at the bottom would wait forever. (New
    /// content landing re-arms it.)
    private mutating func loadWhatTheRefreshHeldBack(_ turn: inout Turn) {
        guard
            settings.behavior.loadsWhatRefreshHeldBack(
                refreshing: isRefreshing, bottomIdle: loads.bottom == .idle, atBottom: memory.reachedBottom,
                hasMore: hasMore)
        else { return }
        load(.bottom, .bottom, &turn)
    }

    /// The refresh is over for the rules: the pull starts from scratch.
    private mutating func endIndicator() {
        refresh = .idle
        memory.pull = PullState()
    }
}

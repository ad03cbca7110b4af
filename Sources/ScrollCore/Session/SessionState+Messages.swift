extension SessionState {
    // MARK: What the page is sent

    /// Sends an items message (the next `rev`), kept for a resuming page.
    mutating func sendItems(
        _ op: ItemsMessage.Operation, _ changed: [FeedItem], older: Bool = false, into effects: inout [SessionEffect]
    ) {
        rev += 1
        let message = ItemsMessage(
            op: op, rev: rev, items: changed, total: window.items.count, hasMore: hasMore, older: older)
        if op == .replace { itemsHistory.removeAll() }
        remember(message, into: &effects)
    }

    /// Keeps an items message for a resuming page and sends it.
    mutating func remember(_ message: ItemsMessage, into effects: inout [SessionEffect]) {
        itemsHistory.append(message)
        if itemsHistory.count > Self.itemsHistoryLimit { itemsHistory.removeFirst() }
        effects.append(.send(.items(message)))
    }

    /// Sends `state` when anything the page shows changed since the last one.
    mutating func sendStateIfChanged(into effects: inout [SessionEffect]) {
        let state = currentState
        // A new geometry's `ack` differs from the last one sent: then the last state is not even bound (a
        // copy of the whole message).
        if lastSentState?.ack == state.ack, let last = lastSentState, last == state { return }
        lastSentState = state
        effects.append(.send(.state(state)))
    }

    /// The `state` message for the current state.
    public var currentState: StateMessage {
        let trimmed = window.trimmed
        // The wire's `indicator` is how to draw the two indicators; a failed page goes as `loadFailure`.
        var indicator = controller.indicator
        (indicator.bottomFailure, indicator.topFailure) = (nil, nil)
        return StateMessage(
            ack: lastGeometry?.seq, preset: config.rules.preset, reachedBottom: edges.bottom.reached,
            pull: controller.pull,
            refreshing: refreshing, loadingNextPage: loadingNextPage, hasMore: hasMore,
            itemCount: window.items.count, indicator: indicator,
            origin: config.rules.behavior.observesOrigin ? (currentOrigin ?? .zero) : nil,
            loadFailure: loadFailureState(at: .bottom),
            topEdge: hasTopEdge
                ? TopEdgeState(
                    reachedTop: edges.top.reached, hasPrevious: hasPrevious,
                    loadingPreviousPage: controller.isLoading(.top), loadFailure: loadFailureState(at: .top)) : nil,
            window: config.windowSize > 0 || trimmed.top + trimmed.bottom > 0
                ? WindowState(start: trimmed.top, count: window.pageCount, limit: config.windowSize) : nil)
    }

    /// `state.loadFailure` (`topEdge.loadFailure`) for the failed page at `edge`, if its last load failed.
    func loadFailureState(at edge: FeedEdge) -> LoadFailureState? {
        guard let failure = controller.loads[edge].failure else { return nil }
        let page = edges[edge].nextPage
        return switch failure.next {
        case .manual:
            LoadFailureState(page: page, failures: failure.failures, next: .manual)
        case .noRetry:
            LoadFailureState(page: page, failures: failure.failures, next: .none)
        case .scheduled(let retry):
            LoadFailureState(
                page: page, failures: failure.failures, next: .scheduled, retry: retry.number,
                retryMax: config.rules.retryMax, retryInMs: Int(max(0, retry.due - now)))
        case .gaveUp:
            LoadFailureState(page: page, failures: failure.failures, next: .gaveUp, retryMax: config.rules.retryMax)
        }
    }

    // MARK: The feed's reach, tokens, draws

    /// How many feed items the session may hand out in all, beside `refreshed` refreshed items, with the feed
    /// run starting at `first` (the window's `firstLoaded` unless given): where the feed (or `maxItems`) ends
    /// and what the item cap leaves; nil when neither ends.
    func pageableItems(besideRefreshed refreshed: Int, from first: Int? = nil) -> Int? {
        let feed = source.available(maxItems: config.maxItems)
        guard let itemCap else { return feed }
        return min(feed ?? .max, max(0, (first ?? window.firstLoaded) + itemCap - refreshed))
    }

    /// The next operation's token, from the runtime's count (a jump's as a load's: the names count as before).
    mutating func takeToken() -> Int { runtime.takeTicket() }

    /// Queues one of the session's own timers in the runtime's queue and asks the transport to run it.
    mutating func schedule(_ timer: TimerID, afterMilliseconds delay: Int, into effects: inout [SessionEffect]) {
        runtime.schedule(timer, after: delay, now: now)
        effects.append(.schedule(timer, afterMilliseconds: delay))
    }

    /// Drops one of the session's own timers from the queue and the transport.
    mutating func cancel(_ timer: TimerID, into effects: inout [SessionEffect]) {
        runtime.cancel(timer)
        effects.append(.cancel(timer))
    }

    /// The latency with jitter drawn uniformly from `-jitterMs…jitterMs`, never below zero.
    mutating func drawLatency(_ base: Int) -> Int {
        let jitter = config.jitterMs
        let span = UInt64(2 * jitter + 1)
        let offset = Int(generator.next() % span) - jitter
        return max(0, base + offset)
    }

    /// Whether the operation will fail, with probability `failureRate`.
    mutating func drawFailure() -> Bool {
        let unit = Double(generator.next() >> 11) / Double(1 << 53)
        return unit < config.failureRate
    }
}

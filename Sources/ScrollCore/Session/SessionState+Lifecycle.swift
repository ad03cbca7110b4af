extension SessionState {
    // MARK: Opening, resuming, resetting

    /// `hello`: the settings apply, the session opens on its first items.
    mutating func open(_ hello: Hello, into effects: inout [SessionEffect]) {
        guard lifecycle == .awaitingHello else {
            effects += Self.refusal(ProtocolError(.badMessage, "hello was already received"))
            return
        }
        do {
            try config.apply(hello.config)
        } catch {
            effects += Self.refusal(ProtocolError(.badMessage, error.description, field: error.field))
            return
        }
        lifecycle = .open
        generator = SeededGenerator(seed: config.seed)
        controller = FeedController(settings: config.feedSettings)
        effects.append(.send(.welcome(session: id, resume: resumeToken, config: config)))
        // The settings the page asked for; the full set is in `welcome` and in the trace.
        effects.append(
            .log(
                LogEntry(
                    .sessionOpened, ["preset": .string(config.rules.preset.rawValue), "config": .object(hello.config)]))
        )
        loadInitialItems(into: &effects)
        if config.rules.behavior.opensAtBottom {
            effects.append(.send(.command(name: "scrollToBottom")))
            effects.append(.log(LogEntry(.scrollToBottom, ["trigger": JSONValue(Trigger.open)])))
        }
        scheduleNextMessage(into: &effects)
    }

    /// A page back on its session, or (`forkedFrom`) the page that asked for a fork taking it over.
    mutating func resume(lastRev: Int?, forkedFrom fork: Trace.Fork? = nil, into effects: inout [SessionEffect]) {
        effects.append(.send(.welcome(session: id, resume: resumeToken, config: config)))
        var data: [String: JSONValue] = [:]
        if let fork {
            data["parent"] = .string(fork.parent)
            data["parentSession"] = .string(fork.parentSession)
            data["at"] = .int(Int(fork.at))
        }
        if let lastRev { data["lastRev"] = .int(lastRev) }
        let missed = itemsHistory.filter { $0.rev > (lastRev ?? 0) }
        if let lastRev, lastRev <= rev, missed.count == rev - lastRev {
            effects += missed.map { .send(.items($0)) }
            data["delivered"] = .int(missed.count)
        } else {
            sendItems(.replace, Array(window.pageItems), into: &effects)
            data["delivered"] = "replace"
        }
        data["rev"] = .int(rev)
        effects.append(.log(LogEntry(fork == nil ? .sessionResumed : .sessionForked, data)))
        lastSentState = nil
    }

    /// The opening items, where the feed opens; a bounded window holds those nearest that place.
    private mutating func loadInitialItems(into effects: inout [SessionEffect]) {
        let start = openingIndex
        let available = pageableItems(besideRefreshed: 0, from: start)
        let count = min(config.initialCount, max(0, (available ?? .max) - start))
        let opening = (start..<start + count).compactMap { source.item(at: $0, seed: config.seed) }
        window.open(
            at: start, with: opening, limit: config.windowSize,
            trimmingAt: config.rules.behavior.opensAtBottom ? .top : .bottom)
        sourceHasMore = available.map { window.cursor < $0 } ?? true
        edges.bottom.page = 1
        edges.top.page = 0
        anchorCheckRev = nil
        sendItems(.replace, Array(window.pageItems), into: &effects)
    }

    /// Where a feed opens: the first item, the one `startAt` names, or (`chat`) the newest items.
    var openingIndex: Int {
        let available = pageableItems(besideRefreshed: 0)
        if config.startAt > 0 {
            return min(config.startAt - 1, max(0, (available ?? .max) - 1))
        }
        if config.rules.behavior.opensAtBottom, let available {
            return max(0, available - config.initialCount)
        }
        return 0
    }

    /// Back to the first page, at the top. The new list goes first and the page puts a replaced list at
    /// the top as it lands; the `scrollToTop` after it says so in the log and moves any other client.
    /// (Sent first, the command would start a scroll that a frame could measure against the old list.)
    mutating func reset(into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        effects.append(.log(LogEntry(.sessionReset, ["replaced": .int(window.items.count)])))
        cancelJump(reason: .cancellation(.reset), into: &effects)
        // The controller drops its loads, retries, refresh and hold, and its rules start from scratch.
        carryOut(ask(.reset(hasMore: hasMore, hasPrevious: hasPrevious)), geometrySeq: nil, into: &effects)
        edges.bottom.reached = false
        edges.top.reached = false
        shadows = [:]
        bottomDisagreement = nil
        loadInitialItems(into: &effects)
        let toBottom = config.rules.behavior.opensAtBottom
        effects.append(.send(.command(name: toBottom ? "scrollToBottom" : "scrollToTop")))
        effects.append(.log(LogEntry(toBottom ? .scrollToBottom : .scrollToTop, ["trigger": JSONValue(Trigger.reset)])))
    }
}

extension SessionState {
    /// Applies one event and returns what the transport must do, in order.
    ///
    /// `now` is a monotonic clock in milliseconds, supplied by the caller so tests and replays control time.
    public mutating func reduce(_ event: SessionEvent, now: Int64) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        self.now = now
        switch event {
        case .helloReceived(let hello):
            open(hello, into: &effects)
        case .resumed(let lastRev):
            resume(lastRev: lastRev, into: &effects)
        case .forkTakenOver(let fork):
            resume(lastRev: nil, forkedFrom: fork, into: &effects)
        case .geometryReceived(let report):
            receive(report, now: now, into: &effects)
        case .configReceived(let fields):
            reconfigure(fields, into: &effects)
        case .refreshRequested:
            triggerRefresh(trigger: .manual, geometrySeq: nil, into: &effects)
        case .loadMoreRequested:
            triggerLoad(.bottom, trigger: .manual, geometrySeq: nil, into: &effects)
        case .loadPreviousRequested:
            triggerLoad(.top, trigger: .manual, geometrySeq: nil, into: &effects)
        case .resetRequested:
            reset(into: &effects)
        case .jumpRequested(let request):
            requestJump(request, into: &effects)
        case .timerFired(let timer):
            fire(timer, now: now, into: &effects)
        }
        if isOpen { sendStateIfChanged(into: &effects) }
        return effects
    }

    // MARK: Opening, resuming, resetting

    private mutating func open(_ hello: Hello, into effects: inout [SessionEffect]) {
        guard !isOpen else {
            effects += Self.refusal(ProtocolError(.badMessage, "hello was already received"))
            return
        }
        do {
            try config.apply(hello.config)
        } catch {
            effects += Self.refusal(ProtocolError(.badMessage, error.description, field: error.field))
            return
        }
        isOpen = true
        generator = SeededGenerator(seed: config.seed)
        effects.append(.send(.welcome(session: id, resume: resumeToken, config: config)))
        // The settings the page asked for; the full set is in `welcome` and in the trace.
        effects.append(
            .log(
                LogEntry(.sessionOpened, ["preset": .string(config.preset.rawValue), "config": .object(hello.config)])))
        loadInitialItems(into: &effects)
        if config.preset.behavior.opensAtBottom {
            effects.append(.send(.command(name: "scrollToBottom")))
            effects.append(.log(LogEntry(.scrollToBottom, ["trigger": JSONValue(Trigger.open)])))
        }
        scheduleNextMessage(into: &effects)
    }

    /// A page back on its session, or (`forkedFrom`) the page that asked for a fork taking it over.
    private mutating func resume(lastRev: Int?, forkedFrom fork: Trace.Fork? = nil, into effects: inout [SessionEffect])
    {
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
            sendItems(.replace, Array(pageItems), into: &effects)
            data["delivered"] = "replace"
        }
        data["rev"] = .int(rev)
        effects.append(.log(LogEntry(fork == nil ? .sessionResumed : .sessionForked, data)))
        lastSentState = nil
    }

    private mutating func loadInitialItems(into effects: inout [SessionEffect]) {
        firstLoaded = openingIndex
        let available = pageableItems(besideRefreshed: 0)
        let count = min(config.initialCount, max(0, (available ?? .max) - firstLoaded))
        items = (firstLoaded..<firstLoaded + count).compactMap { source.item(at: $0, seed: config.seed) }
        // A bounded window holds the opening items nearest where the feed opens.
        let excess = config.windowSize > 0 ? max(0, items.count - config.windowSize) : 0
        trimmedAbove = config.preset.behavior.opensAtBottom ? excess : 0
        trimmedBelow = excess - trimmedAbove
        cursor = firstLoaded + items.count
        page = 1
        previousPage = 0
        hasMore = available.map { cursor < $0 } ?? true
        pageLoad = .idle
        previousLoad = .idle
        heldArrivals = []
        anchorCheckRev = nil
        sendItems(.replace, Array(pageItems), into: &effects)
    }

    /// Back to the first page, at the top. The new list goes first and the page puts a replaced list at
    /// the top as it lands; the `scrollToTop` after it says so in the log and moves any other client.
    /// (Sent first, the command would start a scroll that a frame could measure against the old list.)
    private mutating func reset(into effects: inout [SessionEffect]) {
        guard isOpen else { return }
        effects.append(.log(LogEntry(.sessionReset, ["replaced": .int(items.count)])))
        cancelJump(reason: .reset, into: &effects)
        for edge in FeedEdge.allCases {
            if let load = inFlight(edge) { cancelLoad(load, at: edge, reason: .reset, into: &effects) }
            if let failure = failure(edge) { abandonRetry(failure, reason: .reset, at: edge, into: &effects) }
        }
        if let operation = refresh.operation { effects.append(.cancel(.refresh(operation.token))) }
        if refresh.holdRunning { effects.append(.cancel(.refreshHold)) }
        refresh = .idle
        reachedBottom = false
        reachedTop = false
        memory = RuleMemory()
        shadows = [:]
        bottomDisagreement = nil
        loadInitialItems(into: &effects)
        let toBottom = config.preset.behavior.opensAtBottom
        effects.append(.send(.command(name: toBottom ? "scrollToBottom" : "scrollToTop")))
        effects.append(.log(LogEntry(toBottom ? .scrollToBottom : .scrollToTop, ["trigger": JSONValue(Trigger.reset)])))
    }

    // MARK: Geometry

    private mutating func receive(_ report: GeometryReport, now: Int64, into effects: inout [SessionEffect]) {
        guard isOpen else { return }
        checkAnchor(report, into: &effects)
        lastGeometry = report
        let seq = report.seq
        let axis = report.geometry.along(config.axis)
        let verdict = config.preset.evaluate(
            report.geometry, phase: report.phase, config: config, refreshing: refreshing, memory: &memory)

        if verdict.reachedBottom != reachedBottom {
            reachedBottom = verdict.reachedBottom
            effects.append(
                .log(
                    LogEntry(
                        reachedBottom ? .reachedBottom : .leftBottom, geometrySeq: seq,
                        ["distanceToBottom": .number(axis.distanceToBottom)])))
        }
        if verdict.pullStarted {
            effects.append(.log(LogEntry(.pullStarted, geometrySeq: seq, ["distance": .number(memory.pull.distance)])))
        }
        if verdict.becameEligible {
            effects.append(
                .log(
                    LogEntry(
                        .refreshEligible, geometrySeq: seq,
                        ["distance": .number(memory.pull.distance), "threshold": .number(config.pullThreshold)])))
        }
        if hasTopEdge, verdict.reachedTop != reachedTop {
            reachedTop = verdict.reachedTop
            effects.append(
                .log(
                    LogEntry(
                        reachedTop ? .reachedTop : .leftTop, geometrySeq: seq,
                        ["distanceToTop": .number(axis.distanceToTop)])))
        }
        if verdict.refreshFires {
            triggerRefresh(trigger: .pull, geometrySeq: seq, into: &effects)
        }
        // While a jump loads its window or the page scrolls to its item, the edges are the jump's doing.
        if verdict.loadFires {
            if jump != .idle {
                suppressForJump(.bottom, geometrySeq: seq, into: &effects)
            } else {
                triggerLoad(.bottom, trigger: .bottom, geometrySeq: seq, into: &effects)
            }
        }
        // A feed that opened at its first item has nothing above it: the top rule stays quiet there (a
        // bounded window's top rule loads back what it trimmed, while something is above).
        if verdict.loadPreviousFires, config.twoWay || hasPrevious {
            if jump != .idle {
                suppressForJump(.top, geometrySeq: seq, into: &effects)
            } else {
                triggerLoad(.top, trigger: .top, geometrySeq: seq, into: &effects)
            }
        }
        settleJump(after: report, into: &effects)
        if verdict.returnedToOrigin {
            effects.append(.send(.command(name: "scrollToTop")))
            effects.append(.log(LogEntry(.scrollToTop, geometrySeq: seq)))
        }
        if config.preset.behavior.observesOrigin {
            observeOrigin(now: now, into: &effects)
        }
        if config.compare {
            compare(report, into: &effects)
        }
    }

    /// `offsetObserving`: logs the origin at most every 100 ms, and the last one held back once it settles.
    private mutating func observeOrigin(now: Int64, into effects: inout [SessionEffect]) {
        guard let origin = currentOrigin, origin != originLog.last?.origin else { return }
        let interval: Int64 = 100
        if let last = originLog.last, now - last.at < interval {
            if !originLog.flushScheduled {
                originLog.flushScheduled = true
                effects.append(.schedule(.originFlush, afterMilliseconds: Int(interval - (now - last.at))))
            }
            return
        }
        logOrigin(origin, now: now, into: &effects)
    }

    private mutating func logOrigin(_ origin: ScrollPoint, now: Int64, into effects: inout [SessionEffect]) {
        originLog.last = OriginLog.Entry(origin: origin, at: now)
        effects.append(
            .log(
                LogEntry(
                    .offsetChanged, geometrySeq: lastGeometry?.seq,
                    ["origin": ["x": .number(origin.x), "y": .number(origin.y)]])))
    }

    /// The content's origin in the scroll view's coordinate space: the negated offset.
    private var currentOrigin: ScrollPoint? {
        lastGeometry.map { ScrollPoint(x: -$0.geometry.contentOffset.x, y: -$0.geometry.contentOffset.y) }
    }

    // MARK: Compare mode

    private mutating func compare(_ report: GeometryReport, into effects: inout [SessionEffect]) {
        var bottoms: [Preset: Bool] = [:]
        var fired: [Preset: Bool] = [:]
        for preset in Preset.allCases where preset.isCompared && (preset.detectsBottom || preset.detectsPull) {
            var shadow = shadows[preset] ?? ShadowRules()
            // Each preset with its own defaults: `refreshOffsetObservable` pulls to 100 unless the session set a threshold.
            var settings = config
            settings.preset = preset
            let verdict = preset.evaluate(
                report.geometry, phase: report.phase, config: settings, refreshing: false, memory: &shadow.memory)
            if preset.detectsBottom { bottoms[preset] = verdict.reachedBottom }
            if preset.detectsPull {
                fired[preset] = verdict.refreshFires && !shadow.firing
                shadow.firing = verdict.refreshFires
                // A shadow never refreshes, so its gesture ends here.
                if verdict.refreshFires { shadow.memory.pull = PullState() }
            }
            shadows[preset] = shadow
        }
        let atBottom = bottoms.filter(\.value).keys.sorted(by: Self.presetOrder)
        let split = atBottom.isEmpty || atBottom.count == bottoms.count ? nil : atBottom
        if split != bottomDisagreement {
            bottomDisagreement = split
            if split != nil {
                effects.append(.log(disagreement("reachedBottom", bottoms, geometrySeq: report.seq)))
            }
        }
        if fired.values.contains(true), fired.values.contains(false) {
            effects.append(.log(disagreement("refresh", fired, geometrySeq: report.seq)))
        }
    }

    private func disagreement(_ subject: String, _ verdicts: [Preset: Bool], geometrySeq: Int) -> LogEntry {
        let yes = verdicts.filter(\.value).keys.sorted(by: Self.presetOrder)
        let no = verdicts.filter { !$0.value }.keys.sorted(by: Self.presetOrder)
        return LogEntry(
            .presetDisagreement, geometrySeq: geometrySeq,
            [
                "about": .string(subject),
                "yes": .array(yes.map { .string($0.rawValue) }),
                "no": .array(no.map { .string($0.rawValue) }),
            ])
    }

    private static func presetOrder(_ lhs: Preset, _ rhs: Preset) -> Bool {
        Preset.allCases.firstIndex(of: lhs)! < Preset.allCases.firstIndex(of: rhs)!
    }

    // MARK: Refreshing

    private mutating func triggerRefresh(trigger: Trigger, geometrySeq: Int?, into effects: inout [SessionEffect]) {
        guard isOpen else { return }
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

    private mutating func completeRefresh(_ operation: Refresh, hold: FixedHold, into effects: inout [SessionEffect]) {
        var contentChanged = false
        if operation.willFail {
            effects.append(.log(LogEntry(.refreshFailed, ["reason": JSONValue(Reason.simulatedFailure)])))
        } else {
            let room = itemCap.map { max(0, $0 - items.count) } ?? .max
            let fresh = (0..<min(config.refreshCount, room)).map { offset in
                FeedSource.refreshedItem(refreshedItemCount + offset + 1, seed: config.seed)
            }
            refreshedItemCount += fresh.count
            // The page holds a window further down: the new items wait above it, loaded back at the top.
            let landing = trimmedAbove == 0 ? makeRoom(for: fresh.count, landingAt: .top, into: &effects) : 0
            let shown = landing > 0 || (trimmedAbove == 0 && fresh.isEmpty)
            items.insert(contentsOf: fresh, at: 0)
            if itemCap != nil {
                hasMore = pageableItems(besideRefreshed: heldExtraItems).map { cursor < $0 } ?? true
            }
            var data: [String: JSONValue] = ["added": .int(fresh.count), "total": .int(items.count)]
            if shown {
                // Scrolled into the feed, the page keeps its anchor through the refresh's prepend too.
                let scrolledIn = lastGeometry.map { $0.geometry.along(config.axis).distanceToTop > 0.5 } ?? false
                trimmedAbove = fresh.count - landing
                sendItems(.prepend, Array(fresh.suffix(landing)), into: &effects)
                if scrolledIn, !fresh.isEmpty { anchorCheckRev = rev }
                rearmBottomRule()
                contentChanged = !fresh.isEmpty
                if landing < fresh.count { data["shown"] = .int(landing) }
            } else {
                trimmedAbove += fresh.count
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

    /// A preset that holds page loads back while the refresh indicator shows starts the one it held back when
    /// the indicator goes without new content landing at that moment: a page that does not change sends no
    /// geometry that would re-arm the bottom rule, so a user resting at the bottom would wait forever. (New
    /// content landing re-arms it.)
    private mutating func loadWhatTheRefreshHeldBack(into effects: inout [SessionEffect]) {
        guard
            config.preset.behavior.loadsWhatRefreshHeldBack(
                refreshing: refreshing, bottomIdle: pageLoad == .idle, atBottom: memory.reachedBottom,
                hasMore: hasMoreBelow)
        else { return }
        triggerLoad(.bottom, trigger: .bottom, geometrySeq: nil, into: &effects)
    }

    /// The refresh is over for the rules: the pull starts from scratch.
    private mutating func endRefreshIndicator() {
        refresh = .idle
        memory.pull = PullState()
    }

    // MARK: Timers

    private mutating func fire(_ timer: TimerID, now: Int64, into effects: inout [SessionEffect]) {
        switch timer {
        case .pageLoad(let token), .previousLoad(let token):
            // A cancelled load's timer may still fire: its result is discarded.
            let edge: FeedEdge = timer == .pageLoad(token) ? .bottom : .top
            guard let load = inFlight(edge), load.token == token else { return }
            completeLoad(load, at: edge, into: &effects)
        case .refresh(let token):
            guard case .inFlight(let operation, let hold) = refresh, operation.token == token else { return }
            completeRefresh(operation, hold: hold, into: &effects)
        case .refreshHold:
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
        case .loadRetry(let token), .previousRetry(let token):
            // A cancelled retry's timer may still fire: it is ignored.
            let edge: FeedEdge = timer == .loadRetry(token) ? .bottom : .top
            guard let failure = failure(edge), case .scheduled(let retry) = failure.next, retry.token == token else {
                return
            }
            triggerLoad(edge, trigger: .retry, geometrySeq: nil, into: &effects)
        case .newMessage:
            messageArrives(into: &effects)
        case .jump(let token):
            // A replaced jump's timer may still fire: it is ignored.
            guard case .loading(let loading, let request) = jump, loading == token else { return }
            completeJump(request, into: &effects)
        case .originFlush:
            originLog.flushScheduled = false
            guard config.preset.behavior.observesOrigin, let origin = currentOrigin, origin != originLog.last?.origin
            else {
                return
            }
            logOrigin(origin, now: now, into: &effects)
        }
    }

    // MARK: Settings

    private mutating func reconfigure(_ fields: [String: JSONValue], into effects: inout [SessionEffect]) {
        let before = config
        do {
            try config.apply(fields)
        } catch {
            effects += Self.refusal(ProtocolError(.badMessage, error.description, field: error.field))
            return
        }
        let old = before.json.object ?? [:]
        let changed = (config.json.object ?? [:]).filter { old[$0.key] != $0.value }
        guard !changed.isEmpty else { return }
        if config.preset != before.preset || config.axis != before.axis {
            // The new rules start from the current position without firing on it.
            memory = RuleMemory()
            if let report = lastGeometry {
                _ = config.preset.evaluate(
                    report.geometry, phase: report.phase, config: config, refreshing: refreshing, memory: &memory)
                memory.pull = PullState()
                if memory.reachedBottom != reachedBottom {
                    reachedBottom = memory.reachedBottom
                    let distance = report.geometry.along(config.axis).distanceToBottom
                    effects.append(
                        .log(
                            LogEntry(
                                reachedBottom ? .reachedBottom : .leftBottom, geometrySeq: report.seq,
                                ["distanceToBottom": .number(distance), "trigger": JSONValue(Trigger.configChanged)])))
                }
            }
        }
        if config.compare != before.compare || config.axis != before.axis {
            shadows = [:]
            bottomDisagreement = nil
        }
        if let available = pageableItems(besideRefreshed: heldExtraItems) {
            hasMore = cursor < available
        } else {
            hasMore = true
        }
        if hasMoreBelow, pageLoad == .exhausted { pageLoad = .idle }
        if hasPrevious, previousLoad == .exhausted { previousLoad = .idle }
        for edge in FeedEdge.allCases {
            guard let failure = failure(edge) else { continue }
            if !(edge == .bottom ? hasMoreBelow : hasPrevious) {
                abandonRetry(failure, reason: .feedExhausted, at: edge, into: &effects)
                self[load: edge] = .idle
            } else if config.retryPolicy != before.retryPolicy {
                // The new policy decides about the failure on show, with a fresh budget of retries.
                abandonRetry(failure, reason: .retryPolicyChanged, at: edge, into: &effects)
                var redecided = failure
                redecided.retries = 0
                decideRetry(&redecided, at: edge, into: &effects)
                self[load: edge] = .failed(redecided)
            }
        }
        if config.windowSize != before.windowSize {
            fitWindow(into: &effects)
        }
        if config.newMessageEveryMs != before.newMessageEveryMs {
            if before.newMessageEveryMs > 0 { effects.append(.cancel(.newMessage)) }
            scheduleNextMessage(into: &effects)
        }
        effects.append(.log(LogEntry(.configChanged, ["changed": .object(changed)])))
    }

    // MARK: Helpers

    /// How many feed items the session may hand out in all, beside `refreshed` refreshed items: where the
    /// feed (or `maxItems`) ends and what the item cap leaves; nil when neither ends.
    func pageableItems(besideRefreshed refreshed: Int) -> Int? {
        let feed = source.available(maxItems: config.maxItems)
        guard let itemCap else { return feed }
        return min(feed ?? .max, max(0, firstLoaded + itemCap - refreshed))
    }

    /// The items held that are not the feed's: refreshed ones and arrived messages.
    var heldExtraItems: Int { items.count - (cursor - firstLoaded) }

    mutating func sendItems(
        _ op: ItemsMessage.Operation, _ changed: [FeedItem], older: Bool = false, into effects: inout [SessionEffect]
    ) {
        rev += 1
        let message = ItemsMessage(
            op: op, rev: rev, items: changed, total: items.count, hasMore: hasMoreBelow, older: older)
        if op == .replace { itemsHistory.removeAll() }
        itemsHistory.append(message)
        if itemsHistory.count > Self.itemsHistoryLimit { itemsHistory.removeFirst() }
        effects.append(.send(.items(message)))
    }

    private mutating func sendStateIfChanged(into effects: inout [SessionEffect]) {
        let state = currentState
        guard state != lastSentState else { return }
        lastSentState = state
        effects.append(.send(.state(state)))
    }

    /// The `state` message for the current state.
    public var currentState: StateMessage {
        let pull = config.preset.detectsPull ? memory.pull : PullState()
        return StateMessage(
            ack: lastGeometry?.seq, preset: config.preset, reachedBottom: reachedBottom, pull: pull,
            refreshing: refreshing, loadingNextPage: loadingNextPage, hasMore: hasMoreBelow, itemCount: items.count,
            indicator: indicator(pull: pull),
            origin: config.preset.behavior.observesOrigin ? (currentOrigin ?? .zero) : nil,
            loadFailure: loadFailure.map(loadFailureState),
            topEdge: hasTopEdge
                ? TopEdgeState(
                    reachedTop: reachedTop, hasPrevious: hasPrevious, loadingPreviousPage: inFlight(.top) != nil,
                    loadFailure: failure(.top).map(loadFailureState)) : nil,
            window: config.windowSize > 0 || trimmedAbove + trimmedBelow > 0
                ? WindowState(start: trimmedAbove, count: pageCount, limit: config.windowSize) : nil)
    }

    private func indicator(pull: PullState) -> IndicatorState {
        config.preset.indicator(
            pull: pull, refreshing: refreshing, loadingNextPage: loadingNextPage,
            offset: lastGeometry?.geometry.along(config.axis).offset ?? 0, pullThreshold: config.pullThreshold)
    }

    mutating func takeToken() -> Int {
        defer { nextToken += 1 }
        return nextToken
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

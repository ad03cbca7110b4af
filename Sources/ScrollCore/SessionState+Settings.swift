extension SessionState {
    // MARK: Settings

    /// A `config` message: the changed settings apply at once, each where it matters (the rules start
    /// afresh on a new preset, a new window size refits the page, a new retry policy decides again).
    mutating func reconfigure(_ fields: [String: JSONValue], into effects: inout [SessionEffect]) {
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
                if memory.reachedBottom != edges.bottom.reached {
                    edges.bottom.reached = memory.reachedBottom
                    let distance = report.geometry.along(config.axis).distanceToBottom
                    let events = FeedEdge.bottom.events
                    effects.append(
                        .log(
                            LogEntry(
                                memory.reachedBottom ? events.reached : events.left, geometrySeq: report.seq,
                                ["distanceToBottom": .number(distance), "trigger": JSONValue(Trigger.configChanged)])))
                }
            }
        }
        if config.compare != before.compare || config.axis != before.axis {
            shadows = [:]
            bottomDisagreement = nil
        }
        sourceHasMore = pageableItems(besideRefreshed: window.heldExtraItems).map { window.cursor < $0 } ?? true
        for edge in FeedEdge.allCases where edges[edge].load == .exhausted && hasItems(beyond: edge) {
            edges[edge].load = .idle
        }
        for edge in FeedEdge.allCases {
            guard let failure = edges[edge].failure else { continue }
            if !hasItems(beyond: edge) {
                abandonRetry(failure, reason: .feedExhausted, at: edge, into: &effects)
                edges[edge].load = .idle
            } else if config.retryPolicy != before.retryPolicy {
                // The new policy decides about the failure on show, with a fresh budget of retries.
                abandonRetry(failure, reason: .retryPolicyChanged, at: edge, into: &effects)
                var redecided = failure
                redecided.retries = 0
                decideRetry(&redecided, at: edge, into: &effects)
                edges[edge].load = .failed(redecided)
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
}

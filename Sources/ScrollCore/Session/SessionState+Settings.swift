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
        if config.compare != before.compare || config.rules.axis != before.rules.axis {
            shadows = [:]
            bottomDisagreement = nil
        }
        sourceHasMore = pageableItems(besideRefreshed: window.heldExtraItems).map { window.cursor < $0 } ?? true
        // The controller takes the new settings: new rules start from the current position without firing on
        // it, an edge with more again loads again, and a failed page is decided afresh.
        let decisions = ask(.settingsChanged(config.feedSettings))
        if let report = lastGeometry, controller.reachedBottom != edges.bottom.reached {
            edges.bottom.reached = controller.reachedBottom
            let distance = report.geometry.along(config.rules.axis).distanceToBottom
            let events = FeedEdge.bottom.events
            effects.append(
                .log(
                    LogEntry(
                        edges.bottom.reached ? events.reached : events.left, geometrySeq: report.seq,
                        ["distanceToBottom": .number(distance), "trigger": JSONValue(Trigger.configChanged)])))
        }
        carryOut(decisions, geometrySeq: nil, into: &effects)
        if config.windowSize != before.windowSize {
            fitWindow(into: &effects)
        }
        if config.newMessageEveryMs != before.newMessageEveryMs {
            if before.newMessageEveryMs > 0 { cancel(.newMessage, into: &effects) }
            scheduleNextMessage(into: &effects)
        }
        effects.append(.log(LogEntry(.configChanged, ["changed": .object(changed)])))
    }
}

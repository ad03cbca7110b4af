extension SessionState {
    // MARK: New messages (`newMessageEveryMs`)

    /// Schedules the next arrival, when the setting asks for arrivals.
    mutating func scheduleNextMessage(into effects: inout [SessionEffect]) {
        guard lifecycle == .open, config.newMessageEveryMs > 0 else { return }
        schedule(.newMessage, afterMilliseconds: config.newMessageEveryMs, into: &effects)
    }

    /// A new message arrives at the bottom. It shows at once when the session holds the feed's end (else
    /// it waits for the last page), and the view follows it only when the user is at the bottom: a user
    /// reading older messages is not pulled down.
    mutating func messageArrives(into effects: inout [SessionEffect]) {
        guard lifecycle == .open, config.newMessageEveryMs > 0 else { return }
        if let itemCap, window.items.count + window.heldArrivals.count >= itemCap {
            // The session holds all it may: arrivals stop until a reset or a setting restarts them.
            effects.append(.log(LogEntry(.messageArrived, ["added": false, "reason": JSONValue(Reason.itemCap)])))
            return
        }
        let message = FeedSource.arrivedMessage(window.countArrival(), seed: config.seed)
        var data: [String: JSONValue] = ["id": .string(message.id)]
        if sourceHasMore {
            window.hold(message)
            data["held"] = true
            data["follow"] = false
        } else if window.trimmed.bottom > 0 || makeRoom(for: 1, landingAt: .bottom, into: &effects) == 0 {
            // The page holds a window further up: the message waits below it, loaded back at the bottom.
            window.appendArrival(message, shown: false)
            data["follow"] = false
            data["shown"] = false
        } else {
            window.appendArrival(message, shown: true)
            sendItems(.append, [message], into: &effects)
            let decisions = ask(.itemsArrived)
            data["follow"] = .bool(decisions.contains(.followsArrivals))
            carryOut(decisions, geometrySeq: nil, into: &effects)
        }
        data["total"] = .int(window.items.count)
        effects.append(.log(LogEntry(.messageArrived, data)))
        if data["follow"] == true {
            effects.append(.log(LogEntry(.scrollToBottom, ["trigger": JSONValue(Trigger.newMessage)])))
        }
        scheduleNextMessage(into: &effects)
    }

    // MARK: Anchoring

    /// After a prepend the page keeps what the user sees: its first geometry that has rendered the prepend
    /// (`rev`) must show the anchor item where the geometry just before it did. The page measures the two
    /// in one task, around the prepend, so no scrolling comes between; the distance is logged
    /// (`anchorKept` within 1 px, else `anchorDrift`). A page that does not report `rev` is not checked.
    mutating func checkAnchor(_ report: GeometryReport, into effects: inout [SessionEffect]) {
        guard let pending = anchorCheckRev, let rendered = report.rev, rendered >= pending else { return }
        anchorCheckRev = nil
        guard let before = lastGeometry, let beforeRev = before.rev, beforeRev < pending,
            let was = before.anchor, let now = report.anchor
        else { return }
        var data: [String: JSONValue] = ["id": .string(was.id), "rev": .int(pending)]
        if now.id == was.id {
            let px = (now.offset - was.offset)
            data["px"] = .number((px * 100).rounded() / 100)
            effects.append(.log(LogEntry(abs(px) > 1 ? .anchorDrift : .anchorKept, geometrySeq: report.seq, data)))
        } else {
            // The item the user saw is no longer first in view: it moved by at least its own height.
            data["px"] = .null
            data["now"] = .string(now.id)
            effects.append(.log(LogEntry(.anchorDrift, geometrySeq: report.seq, data)))
        }
    }
}

extension SessionState {
    // MARK: Refreshing

    /// The synthetic refresh completed: its new items go on top (into the page, or above a window further
    /// down), or it fails as drawn, and the controller hears how it ended.
    mutating func completeRefresh(failing: Bool, into effects: inout [SessionEffect]) {
        if failing {
            effects.append(.log(LogEntry(.refreshFailed, ["reason": JSONValue(Reason.simulatedFailure)])))
            carryOut(ask(.refreshFailed), geometrySeq: nil, into: &effects)
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
                let scrolledIn = lastGeometry.map { $0.geometry.along(config.rules.axis).distanceToTop > 0.5 } ?? false
                sendItems(.prepend, Array(fresh.suffix(landing)), into: &effects)
                if scrolledIn, !fresh.isEmpty { anchorCheckRev = rev }
                if landing < fresh.count { data["shown"] = .int(landing) }
            } else {
                data["shown"] = false
            }
            effects.append(.log(LogEntry(.refreshFinished, data)))
            carryOut(ask(.refreshFinished(addedItems: landing, shown: shown)), geometrySeq: nil, into: &effects)
        }
    }
}

extension SessionState {
    // MARK: Geometry

    /// One frame's geometry: the preset's rules decide, each edge's rule is logged as it changes, and what
    /// fires starts (a refresh, a page load at either edge, a return to the origin).
    mutating func receive(_ report: GeometryReport, now: Int64, into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        checkAnchor(report, into: &effects)
        lastGeometry = report
        let seq = report.seq
        let axis = report.geometry.along(config.axis)
        let verdict = config.preset.evaluate(
            report.geometry, phase: report.phase, config: config, refreshing: refreshing, memory: &memory)

        note(.bottom, reached: verdict.reachedBottom, distance: axis.distanceToBottom, geometrySeq: seq, into: &effects)
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
        if hasTopEdge {
            note(.top, reached: verdict.reachedTop, distance: axis.distanceToTop, geometrySeq: seq, into: &effects)
        }
        if verdict.refreshFires {
            triggerRefresh(trigger: .pull, geometrySeq: seq, into: &effects)
        }
        // While a jump loads its window or the page scrolls to its item, the edges are the jump's doing.
        if verdict.loadFires {
            ruleFired(at: .bottom, geometrySeq: seq, into: &effects)
        }
        // A feed that opened at its first item has nothing above it: the top rule stays quiet there (a
        // bounded window's top rule loads back what it trimmed, while something is above).
        if verdict.loadPreviousFires, config.twoWay || hasPrevious {
            ruleFired(at: .top, geometrySeq: seq, into: &effects)
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

    /// An edge's rule fired: its page loads, unless a jump is under way.
    private mutating func ruleFired(at edge: FeedEdge, geometrySeq: Int, into effects: inout [SessionEffect]) {
        if jump != .idle {
            suppressForJump(edge, geometrySeq: geometrySeq, into: &effects)
        } else {
            triggerLoad(edge, trigger: edge.ruleTrigger, geometrySeq: geometrySeq, into: &effects)
        }
    }

    // MARK: The origin (`offsetObserving`)

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

    /// The throttle's timer: the latest origin it held back, if it still differs from the last one logged.
    mutating func flushOrigin(now: Int64, into effects: inout [SessionEffect]) {
        originLog.flushScheduled = false
        guard config.preset.behavior.observesOrigin, let origin = currentOrigin, origin != originLog.last?.origin
        else {
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
    var currentOrigin: ScrollPoint? {
        lastGeometry.map { ScrollPoint(x: -$0.geometry.contentOffset.x, y: -$0.geometry.contentOffset.y) }
    }

    /// Logs `edge`'s rule turning on or off (`reachedBottom` / `leftBottom`, `reachedTop` / `leftTop`) with
    /// the distance to that edge.
    private mutating func note(
        _ edge: FeedEdge, reached: Bool, distance: Double, geometrySeq seq: Int, into effects: inout [SessionEffect]
    ) {
        guard reached != edges[edge].reached else { return }
        edges[edge].reached = reached
        let field = edge == .bottom ? "distanceToBottom" : "distanceToTop"
        effects.append(
            .log(
                LogEntry(reached ? edge.events.reached : edge.events.left, geometrySeq: seq, [field: .number(distance)])
            ))
    }
}

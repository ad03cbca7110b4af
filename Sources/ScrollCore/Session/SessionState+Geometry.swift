extension SessionState {
    // MARK: Geometry

    /// One frame's geometry: the controller decides (the preset's rules, then what they start: a refresh, a
    /// page load at either edge, a return to the origin), each edge's rule is logged as it changes, and the
    /// decisions are carried out.
    mutating func receive(_ report: GeometryReport, now: Int64, into effects: inout [SessionEffect]) {
        guard lifecycle == .open else { return }
        checkAnchor(report, into: &effects)
        lastGeometry = report
        let seq = report.seq
        let axis = report.geometry.along(config.rules.axis)
        holdRules()
        let decisions = ask(.geometryChanged(report.geometry, phase: report.phase))
        let verdict = controller.verdict

        note(.bottom, reached: verdict.reachedBottom, distance: axis.distanceToBottom, geometrySeq: seq, into: &effects)
        if verdict.pullStarted {
            effects.append(.log(LogEntry(.pullStarted, geometrySeq: seq, ["distance": .number(verdict.pull.distance)])))
        }
        if verdict.becameEligible {
            effects.append(
                .log(
                    LogEntry(
                        .refreshEligible, geometrySeq: seq,
                        ["distance": .number(verdict.pull.distance), "threshold": .number(config.rules.pullThreshold)]))
            )
        }
        if hasTopEdge {
            note(.top, reached: verdict.reachedTop, distance: axis.distanceToTop, geometrySeq: seq, into: &effects)
        }
        // The jump settles before the view is told to go back to the top.
        carryOut(decisions.filter { $0 != .returnedToOrigin }, geometrySeq: seq, into: &effects)
        settleJump(after: report, into: &effects)
        carryOut(decisions.filter { $0 == .returnedToOrigin }, geometrySeq: seq, into: &effects)
        if config.rules.behavior.observesOrigin {
            observeOrigin(now: now, into: &effects)
        }
        if config.compare {
            compare(report, into: &effects)
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
                schedule(.originFlush, afterMilliseconds: Int(interval - (now - last.at)), into: &effects)
            }
            return
        }
        logOrigin(origin, now: now, into: &effects)
    }

    /// The throttle's timer: the latest origin it held back, if it still differs from the last one logged.
    mutating func flushOrigin(now: Int64, into effects: inout [SessionEffect]) {
        originLog.flushScheduled = false
        guard config.rules.behavior.observesOrigin, let origin = currentOrigin, origin != originLog.last?.origin
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

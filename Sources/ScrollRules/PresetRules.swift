/// What a preset's rules remember from one geometry to the next.
package struct RuleMemory: Equatable, Hashable, Sendable {
    /// The bottom rule's value on the last geometry.
    public var reachedBottom = false
    /// The phase of the last geometry, to see the release.
    public var phase: FeedScrollPhase = .idle
    /// The pull as the preset sees it.
    public var pull = PullState()
    /// `playground`: the content length when items last landed; the first geometry with another length
    /// re-evaluates the bottom rule.
    public var contentLengthAtLanding: Double?
    /// `refreshOffsetObservable`: whether the offset was exactly (0, 0).
    public var atOrigin = true
    /// The top rule's value on the last geometry (presets that load previous pages).
    public var reachedTop = false
    /// The content length when older items last landed on top; the first geometry with another length
    /// re-evaluates the top rule, as `contentLengthAtLanding` does the bottom's.
    public var contentLengthAtTopLanding: Double?

    /// Nothing remembered: the rules start from scratch.
    public init() {}
}

/// What a preset's rules conclude from one geometry, before the controller's guards apply.
package struct RuleVerdict: Equatable, Sendable {
    /// The bottom rule's value (false for presets without one).
    public var reachedBottom = false
    /// The rule asks for a page load now.
    public var loadFires = false
    /// The pull went from nothing to something.
    public var pullStarted = false
    /// The pull became eligible to refresh.
    public var becameEligible = false
    /// The rule asks for a refresh now.
    public var refreshFires = false
    /// `refreshOffsetObservable`: the offset returned to exactly (0, 0).
    public var returnedToOrigin = false
    /// The top rule's value (false for presets without one).
    public var reachedTop = false
    /// The top rule asks for the previous page now.
    public var loadPreviousFires = false
    /// The pull once the rules ran on this geometry (what `pullStarted` and `refreshEligible` measure).
    public var pull = PullState()
}

extension Preset {
    /// Runs this preset's detection rules on one geometry.
    ///
    /// `refreshing` is the refresh indicator: some designs ignore or freeze the pull meanwhile.
    package func evaluate(
        _ geometry: FeedGeometry, phase: FeedScrollPhase, settings: FeedSettings, refreshing: Bool,
        memory: inout RuleMemory
    ) -> RuleVerdict {
        let axis = geometry.along(settings.axis)
        let released = memory.phase == .interacting && phase != .interacting
        defer { memory.phase = phase }
        var verdict = RuleVerdict()
        // Seed guard: an unmeasured content size is recorded but decides nothing.
        guard axis.contentLength != 0 else {
            verdict.reachedBottom = memory.reachedBottom
            verdict.pull = memory.pull
            return verdict
        }
        evaluateBottom(axis, settings: settings, memory: &memory, verdict: &verdict)
        evaluateTop(axis, settings: settings, memory: &memory, verdict: &verdict)
        evaluatePull(
            geometry, axis, released: released, settings: settings, refreshing: refreshing, memory: &memory,
            verdict: &verdict)
        verdict.pull = memory.pull
        return verdict
    }

    private func evaluateBottom(
        _ axis: AxisGeometry, settings: FeedSettings, memory: inout RuleMemory, verdict: inout RuleVerdict
    ) {
        let level: Bool
        switch self {
        case .offsetObserving, .refreshOffsetObservable:
            return
        case .customScrollView:
            level = axis.contentLength <= axis.offset + axis.containerLength
            verdict.loadFires = level && !memory.reachedBottom
        case .refreshableLegacy:
            let maxY = axis.contentLength - axis.offset
            level = maxY - settings.bottomThreshold <= axis.containerLength
            verdict.loadFires = level
        case .refreshable:
            level = axis.offset + axis.containerLength >= axis.contentLength - settings.bottomThreshold
            verdict.loadFires = level && !memory.reachedBottom
        case .playground, .chat:
            level = axis.distanceToBottom <= settings.bottomThreshold + AxisGeometry.slack
            let rearmed = Self.rearm(&memory.contentLengthAtLanding, contentLength: axis.contentLength)
            verdict.loadFires = level && (!memory.reachedBottom || rearmed)
        }
        memory.reachedBottom = level
        verdict.reachedBottom = level
    }

    /// The top rule of presets that load previous pages: the playground's bottom rule mirrored, edge-
    /// triggered within `topThreshold` (a pull counts as at the top), re-armed once older items land.
    private func evaluateTop(
        _ axis: AxisGeometry, settings: FeedSettings, memory: inout RuleMemory, verdict: inout RuleVerdict
    ) {
        // The playground's bounded window turns it on in every preset: its trimmed items load back at the top.
        guard settings.loadsPrevious else { return }
        let level = axis.distanceToTop <= settings.topThreshold + AxisGeometry.slack
        let rearmed = Self.rearm(&memory.contentLengthAtTopLanding, contentLength: axis.contentLength)
        verdict.loadPreviousFires = level && (!memory.reachedTop || rearmed)
        memory.reachedTop = level
        verdict.reachedTop = level
    }

    /// Whether an edge's rule is armed again: a page landed there (its content length then is `landed`) and
    /// the content has changed since, so the page is drawn. Said once for both edges; the landing is used up.
    private static func rearm(_ landed: inout Double?, contentLength: Double) -> Bool {
        guard let length = landed, length != contentLength else { return false }
        landed = nil
        return true
    }

    private func evaluatePull(
        _ geometry: FeedGeometry, _ axis: AxisGeometry, released: Bool, settings: FeedSettings, refreshing: Bool,
        memory: inout RuleMemory, verdict: inout RuleVerdict
    ) {
        let threshold = settings.pullThreshold
        func progress(_ pull: Double) -> Double {
            threshold > 0 ? min(max(pull / threshold, 0), 1) : (pull > 0 ? 1 : 0)
        }
        let before = memory.pull
        switch self {
        case .customScrollView, .offsetObserving, .chat:
            return
        case .refreshableLegacy:
            let offset = -axis.offset
            guard !refreshing else { break }
            memory.pull.distance = max(0, offset)
            memory.pull.progress = progress(offset)
            if released {
                memory.pull.eligible = offset > threshold
                verdict.refreshFires = memory.pull.eligible
            }
        case .refreshable:
            let pull = -axis.offset - axis.leadingInset
            memory.pull.distance = max(0, pull)
            if !memory.pull.eligible { memory.pull.progress = progress(pull) }
            if released, !memory.pull.eligible, pull > threshold {
                memory.pull.eligible = true
                verdict.refreshFires = true
            }
        case .refreshOffsetObservable:
            let distance = max(0, -axis.offset)
            memory.pull = PullState(
                distance: distance, progress: progress(distance), eligible: axis.offset < -threshold)
            verdict.refreshFires = memory.pull.eligible && !refreshing
            let atOrigin = geometry.contentOffset == .zero
            verdict.returnedToOrigin = atOrigin && !memory.atOrigin
            memory.atOrigin = atOrigin
        case .playground:
            // Pulls during a refresh are ignored: the indicator stays as it is until the refresh ends.
            guard !refreshing else { return }
            let pull = axis.pullDistance
            // The release decides on the arming the gesture had before it, whatever the release frame says.
            if released, memory.pull.eligible {
                verdict.refreshFires = true
            }
            memory.pull.distance = pull
            memory.pull.progress = progress(pull)
            if verdict.refreshFires {
                break
            } else if !memory.pull.eligible, pull >= threshold - AxisGeometry.slack {
                memory.pull.eligible = true
            } else if memory.pull.eligible, pull < 0.8 * threshold {
                memory.pull.eligible = false
            }
        }
        verdict.pullStarted = before.distance == 0 && memory.pull.distance > 0
        verdict.becameEligible = !before.eligible && memory.pull.eligible
    }
}

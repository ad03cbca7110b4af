import ScrollCore

/// Runs one ``Scenario`` through the logic, checking every ``Property`` after every input and timer.
public struct CheckRun {
    /// How long the user may sit at the end with more to load and nothing starting, ms.
    public static let stallLimitMs: Int64 = 3000
    /// The same when the preset retries with back-off after a failure, ms.
    public static let backoffStallLimitMs: Int64 = 15_000
    /// One frame, ms.
    static let frameMs: Int64 = 16

    public private(set) var session: LabSession
    /// The first violation of each property, in the order found.
    public private(set) var violations: [Violation] = []
    /// Stop (and stop recording) at the first violation of this property.
    let stopAt: Property?
    let home: Preset
    /// `home`'s behaviour, asked once: the checks read it after every input and timer.
    let behavior: PresetBehavior
    /// Whether gestures are a finger on the iOS model or the browser's scrolling.
    let physics: ScrollPhysics
    var stopped = false

    // Monitor state.
    private var landedPages = 0
    private var snapshots: [Int: [FeedItem]] = [:]
    private var lastItems: [FeedItem] = []
    /// The ids of `lastItems`, kept while `itemsIntact` holds: new items are checked against it, not the whole list.
    private var lastIDs: Set<String> = []
    private var stay: (contentLength: Double, asked: Bool)?
    private var stall: (since: Int64, afterFailure: Bool, excused: Bool)?
    private var failedSinceLastLoad = false
    private var lastPhase = FeedScrollPhase.idle
    /// Another preset ran since the last quiet moment: what it started is its own, not `home`'s.
    private var foreign = false
    /// Switched to `home` where its bottom rule already held: the rules start without firing (docs/decisions.md), so
    /// a stall is the switch's until the rule lets go.
    private var switchedAtBottom = false

    public init(
        _ scenario: Scenario, record: Bool = false, stopAt: Property? = nil,
        reducer: @escaping LabReducer = LabSession.scrollCore
    ) {
        var layout = scenario.layout
        layout.contentSize = scenario.contentSize
        session = LabSession(layout: layout, record: record, reducer: reducer)
        home = scenario.preset
        behavior = scenario.preset.behavior
        physics = scenario.physics
        self.stopAt = stopAt
        let opening = session.hello(scenario.settings)
        after(opening)
        // The page reports its geometry once the first items are laid out.
        report(.idle)
        for step in scenario.steps + [.pause(Scenario.finalPauseMs)] {
            guard !stopped else { break }
            perform(step)
        }
    }

    /// The first violation of `property`, if any.
    public func violation(of property: Property) -> Violation? { violations.first { $0.property == property } }

    /// Geometry messages sent.
    public var frames: Int { session.seq }

    // MARK: Steps

    private mutating func perform(_ step: Scenario.Step) {
        if physics == .ios, performTouch(step) { return }
        switch step {
        case .fling(let velocity):
            var speed = velocity
            for _ in 0..<3 { frame(.interacting) { $0.scroll(by: speed) } }
            while !stopped {
                speed *= 0.9
                let page = session.page
                if abs(speed) < 2 || (speed > 0 && page.scroll >= page.maxScroll) || (speed < 0 && page.scroll <= 0) {
                    break
                }
                frame(.decelerating) { [speed] in $0.scroll(by: speed) }
            }
            frame(.idle) { _ in }
        case .drag(let speed, let frames):
            for _ in 0..<frames where !stopped { frame(.interacting) { $0.scroll(by: speed) } }
            frame(.idle) { _ in }
        case .toEnd:
            frame(.idle) { $0.scroll = $0.maxScroll }
        case .toTop:
            frame(.idle) { $0.scroll = 0 }
        case .pull(let distance):
            if session.page.scroll > 0 { frame(.idle) { $0.scroll = 0 } }
            while !stopped, session.page.pull < distance {
                frame(.interacting) { $0.pull = min(distance, $0.pull + 8) }
            }
            while !stopped, session.page.pull > 0 {
                frame(.idle) { $0.pull = $0.pull * 0.6 < 0.5 ? 0 : $0.pull * 0.6 }
            }
        case .pause(let milliseconds):
            tick(to: session.now + Int64(milliseconds))
        case .resize(let height):
            frame(.idle) { $0.resize(containerHeight: height) }
        case .stroke(let moves, _):
            for move in moves where !stopped { frame(.interacting) { $0.scroll(by: move) } }
            frame(.idle) { _ in }
        case .switchPreset(let preset):
            let effects = session.configure(["preset": .string(preset.rawValue)])
            // The new rules start from the current position without firing on it (docs/decisions.md): a stall that
            // began before the switch is the switch's, not the preset's.
            if stall != nil { stall?.excused = true }
            stay = nil
            foreign = true
            if preset == home, session.state.edges.bottom.reached { switchedAtBottom = true }
            after(effects)
        }
    }

    /// A gesture step as a finger on the iOS model: the finger's frames, the lift at its speed, the model's
    /// frames until it rests. False for steps that are not gestures.
    private mutating func performTouch(_ step: Scenario.Step) -> Bool {
        let perSecond = 1000 / Double(Self.frameMs)
        switch step {
        case .fling(let velocity):
            for _ in 0..<3 { frame(.interacting) { $0.drag(by: velocity) } }
            lift(velocity: velocity * perSecond)
        case .drag(let speed, let frames):
            for _ in 0..<frames where !stopped { frame(.interacting) { $0.drag(by: speed) } }
            lift(velocity: speed * perSecond)
        case .pull(let distance):
            // `distance` is finger travel past the top: the rubber band shows about half of it.
            if session.page.scroll > 0 { frame(.idle) { $0.scroll = 0 } }
            var travelled = 0.0
            while !stopped, travelled < distance {
                let step = min(8, distance - travelled)
                travelled += step
                frame(.interacting) { $0.drag(by: -step) }
            }
            frame(.interacting) { $0.drag(by: 0) }
            lift(velocity: 0)
        case .stroke(let moves, let release):
            for move in moves where !stopped { frame(.interacting) { $0.drag(by: move) } }
            lift(velocity: release)
        case .toEnd, .toTop, .pause, .resize, .switchPreset:
            return false
        }
        return true
    }

    /// The finger lifts; the model's frames follow until it rests, then an idle frame.
    private mutating func lift(velocity: Double) {
        guard !stopped else { return }
        session.page.lift(velocity: velocity)
        var frames = 0
        // A bound well past the longest coast (momentum from 200 px a frame rests in about 7 s).
        while !stopped, session.page.motion.motion != .idle, frames < 1000 {
            frames += 1
            frame(.decelerating) { $0.advanceMotion(ms: Double(Self.frameMs)) }
        }
        frame(.idle) { _ in }
    }

    /// One frame: timers up to its time, the movement, then the geometry.
    private mutating func frame(_ phase: FeedScrollPhase, _ move: (inout SimulatedPage) -> Void) {
        guard !stopped else { return }
        tick(to: session.now + Self.frameMs)
        guard !stopped else { return }
        move(&session.page)
        report(phase)
    }

    /// Fires the timers due by `t`; the page reports again whenever its content changed.
    private mutating func tick(to t: Int64) {
        checkStall(at: session.now)
        while !stopped, let next = session.nextDue, next <= t {
            checkStall(at: next)
            guard !stopped, let fired = session.fireNext(upTo: t) else { break }
            after(fired.effects)
            report(lastPhase == .interacting ? .interacting : .idle)
        }
        guard !stopped else { return }
        checkStall(at: t)
        session.advanceClock(to: t)
    }

    private mutating func report(_ phase: FeedScrollPhase) {
        guard !stopped else { return }
        let geometry = session.page.geometry
        if let last = session.lastSent, last.geometry == geometry, last.phase == phase { return }
        beforeGeometry(geometry, phase: phase)
        guard !stopped, let effects = session.sendGeometry(phase: phase) else { return }
        if isHome,
            behavior.checks(.releaseGated),
            effects.contains(where: { if case .log(let entry) = $0 { entry.name == .refreshStarted } else { false } }),
            !(lastPhase == .interacting && phase != .interacting)
        {
            fail(
                .releaseGated,
                "a refresh started on a \(phase.rawValue) geometry after \(lastPhase.rawValue), not on a release")
        }
        lastPhase = phase
        after(effects)
    }

    private var isHome: Bool { session.state.config.rules.preset == home && !foreign }

    /// Ends the foreign period once `home` runs and nothing another preset started is left.
    private mutating func settleForeign() {
        guard foreign, session.state.config.rules.preset == home else { return }
        if session.loadsPending == 0, session.refreshesPending == 0, session.state.controller.refresh == .idle {
            foreign = false
        }
    }

    // MARK: Properties

    /// The design's own ask for a page, worked out as the reducer will on this geometry.
    private mutating func beforeGeometry(_ geometry: FeedGeometry, phase: FeedScrollPhase) {
        guard isHome, behavior.detectsBottom else { return }
        // `session.state` is read in place throughout: a copy of the session costs more than the check.
        var memory = session.state.controller.memory
        let verdict = home.evaluate(
            geometry, phase: phase, config: session.state.config, refreshing: session.state.refreshing,
            memory: &memory)
        let length = geometry.along(session.state.config.rules.axis).contentLength
        guard verdict.reachedBottom else {
            stay = nil
            return
        }
        if stay?.contentLength != length { stay = (length, false) }
        guard verdict.loadFires else { return }
        if stay!.asked, session.loadsPending > 0 {
            fail(
                .requestedOnce,
                "asked again for page \(session.state.edges.bottom.page + 1), in flight, without leaving the bottom")
        }
        stay!.asked = true
    }

    /// Checks what must hold after every input and timer.
    private mutating func after(_ effects: [SessionEffect]) {
        settleForeign()
        if switchedAtBottom, !session.state.edges.bottom.reached { switchedAtBottom = false }
        var itemsChanged = false
        for effect in effects {
            switch effect {
            case .log(let entry):
                observe(entry)
            case .send(.items):
                itemsChanged = true
            default:
                continue
            }
        }
        guard isHome else { return }
        if session.loadsPending > 1 { fail(.singleFlight, "\(session.loadsPending) page loads in flight") }
        if behavior.checks(.noLoadDuringRefresh), session.loadsPending > 0, session.refreshesPending > 0 {
            fail(.noLoadDuringRefresh, "a page load and a refresh in flight together")
        }
        // The `state` message's three fields, read without building the message (`currentState` takes them from
        // here; its indicator differs from the controller's only in the failures it leaves out).
        let loadingNextPage = session.state.loadingNextPage
        if loadingNextPage != (session.loadsPending > 0)
            || session.state.controller.indicator.bottomVisible != loadingNextPage
        {
            fail(
                .indicatorConsistent,
                "loadingNextPage \(loadingNextPage) with \(session.loadsPending) load(s) in flight")
        }
        let refreshing = session.state.refreshing
        if refreshing != (session.refreshesPending > 0) {
            fail(
                .indicatorConsistent,
                "refreshing \(refreshing) with \(session.refreshesPending) refresh(es) in flight")
        }
        if itemsChanged { checkItems() }
    }

    private mutating func observe(_ entry: LogEntry) {
        switch entry.name {
        case .loadMoreStarted:
            let page = entry.data["page"]?.number.map(Int.init) ?? 0
            if isHome, page <= landedPages {
                fail(.requestedOnce, "page \(page) requested again after it landed")
            }
            failedSinceLastLoad = false
        case .loadMoreFinished:
            landedPages = max(landedPages, entry.data["page"]?.number.map(Int.init) ?? 0)
            failedSinceLastLoad = false
        case .refreshFinished:
            // A refresh that lands while a failed page waits for its back-off retry leaves that failure open.
            let retrying = session.pending.contains { if case .loadRetry = $0.id { true } else { false } }
            if !retrying { failedSinceLastLoad = false }
        case .loadMoreFailed, .refreshFailed:
            failedSinceLastLoad = true
        default:
            break
        }
    }

    private mutating func checkItems() {
        // A bounded window (`windowSize`): the page holds a run of the session's items.
        let held = Array(session.state.window.pageItems)
        if open(.itemsIntact) { checkItemsIntact(held) }
        let rev = session.state.rev
        snapshots[rev] = held
        guard open(.resumeLosesNothing) else { return }
        for lag in 0...2 where rev - lag >= 1 {
            guard let before = snapshots[rev - lag] else { continue }
            var page = SimulatedPage(layout: session.page.layout)
            page.apply(ItemsMessage(op: .replace, rev: rev - lag, items: before, total: before.count, hasMore: true))
            for effect in session.resumeProbe(lastRev: rev - lag) {
                if case .send(.items(let message)) = effect { page.apply(message) }
            }
            if !Self.same(page.items[...], held[...]) {
                fail(
                    .resumeLosesNothing,
                    "a resume from rev \(rev - lag) leaves \(page.items.count) items, not \(held.count)")
            }
        }
    }

    /// The page shows the session's items (`held`, those of them the page holds), their ids are unique, and the
    /// items shown before are still there in order.
    private mutating func checkItemsIntact(_ held: [FeedItem]) {
        let items = session.state.window.items
        let page = session.page.items
        guard Self.same(page[...], held[...]) else {
            fail(.itemsIntact, "the page shows \(page.count) items, the session gives it \(held.count)")
            return
        }
        // Where the items shown before are now, if they are all still there in order.
        var kept: Range<Int>? = 0..<0
        if let first = lastItems.first {
            let start = items.firstIndex(of: first) ?? items.count
            let end = start + lastItems.count
            kept = end <= items.count && Self.equal(items, from: start, lastItems) ? start..<end : nil
        }
        // While the property holds the old ids are unique: only the new items need their ids checked.
        if let kept, !lastItems.isEmpty {
            if !Self.insertUnique(items[..<kept.lowerBound], into: &lastIDs)
                || !Self.insertUnique(items[kept.upperBound...], into: &lastIDs)
            {
                fail(.itemsIntact, "an item id repeats")
            }
        } else {
            lastIDs = Set(items.map(\.id))
            if lastIDs.count != items.count {
                fail(.itemsIntact, "an item id repeats")
            } else if kept == nil {
                fail(.itemsIntact, "items that were shown vanished or moved")
            }
        }
        lastItems = items
    }

    /// Whether `items` holds `run` from `start` on, as `==` on the copied run would say (a copy of the run costs
    /// more than the comparison).
    private static func equal(_ items: [FeedItem], from start: Int, _ run: [FeedItem]) -> Bool {
        // The whole list: the copy would have been the list itself, and `==` may find the two are one.
        if start == 0, run.count == items.count { return same(items[...], run[...]) }
        guard start + run.count <= items.count else { return false }
        return same(items[start..<start + run.count], run[...], asOne: false)
    }

    /// Whether two runs of items are equal, as `==` on arrays says: equal counts, then the same storage (`asOne`)
    /// or every item equal. Items are compared field by field where they lie: `==` on arrays copies each item
    /// it compares, and the copies' retains and releases were most of a check's comparing.
    static func same(_ a: ArraySlice<FeedItem>, _ b: ArraySlice<FeedItem>, asOne: Bool = true) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                if a.isEmpty || (asOne && a.baseAddress == b.baseAddress) { return true }
                for index in a.indices where !sameItem(a, b, index) { return false }
                return true
            }
        }
    }

    /// `FeedItem`'s `==`, field by field (ItemComparisonTests pins the fields, so a new one cannot be missed).
    @inline(__always)
    private static func sameItem(_ a: UnsafeBufferPointer<FeedItem>, _ b: UnsafeBufferPointer<FeedItem>, _ index: Int)
        -> Bool
    {
        a[index].id == b[index].id && a[index].title == b[index].title && a[index].subtitle == b[index].subtitle
            && a[index].height == b[index].height && a[index].extra == b[index].extra
    }

    /// Inserts the items' ids into `ids`; false when one is there already.
    private static func insertUnique(_ items: ArraySlice<FeedItem>, into ids: inout Set<String>) -> Bool {
        for item in items where !ids.insert(item.id).inserted { return false }
        return true
    }

    /// At the end with more to load and nothing in flight for too long: a stall.
    private mutating func checkStall(at t: Int64) {
        guard isHome, behavior.detectsBottom else {
            stall = nil
            return
        }
        guard session.page.atEnd, session.state.sourceHasMore, session.loadsPending == 0, session.refreshesPending == 0
        else {
            stall = nil
            return
        }
        guard let open = stall else {
            stall = (t, failedSinceLastLoad, false)
            return
        }
        guard !open.excused, !switchedAtBottom else { return }
        if open.afterFailure {
            // Per the preset's failure policy: a manual retry or none is the design's stated choice; back-off
            // may wait its delays.
            if session.state.config.rules.retryPolicy != .backoff { return }
            if t - open.since >= Self.backoffStallLimitMs {
                fail(.noStallAfterFailure, "\(t - open.since) ms at the end after a failure, nothing loading, hasMore")
            }
        } else if t - open.since >= Self.stallLimitMs {
            let distance = LabFormat.number(
                session.page.geometry.along(session.state.config.rules.axis).distanceToBottom)
            if session.state.edges.bottom.reached {
                fail(.noStall, "\(t - open.since) ms at the end, the bottom rule true but no load; hasMore")
            } else {
                fail(
                    .seesTheEnd,
                    "\(t - open.since) ms at the end (distanceToBottom \(distance) px), the bottom rule false; hasMore")
            }
        }
    }

    /// Whether a failure of `property` would still be recorded: it applies to `home` and has not failed yet.
    private func open(_ property: Property) -> Bool {
        behavior.checks(property) && violation(of: property) == nil
    }

    private mutating func fail(_ property: Property, _ detail: String) {
        guard open(property) else { return }
        violations.append(Violation(property: property, t: session.now, detail: detail))
        if property == stopAt { stopped = true }
    }
}

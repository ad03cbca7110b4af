import ScrollCore

/// One simulated session: the settings, the page, the user, and how long it runs.
public struct Simulation: Equatable, Sendable {
    /// The session's settings (`preset` among them); `seed` also seeds the user.
    public var config = ScrollConfig()
    /// The page's layout.
    public var layout = PageLayout()
    /// The simulated user.
    public var gesture = GestureKind.skim
    /// Simulated seconds.
    public var seconds = 60.0
    /// Frames per second.
    public var hz = 60.0
    /// The feed.
    public var source = FeedSource.synthetic
    /// A recording's hand (`--gesture trace:FILE`), run instead of ``gesture``.
    public var hand: RecordedHand?
    /// The most items the session holds (as `--max-session-items` holds a served one); nil: unbounded.
    public var itemCap: Int?

    public init() {}

    /// Runs the session with the user of ``gesture``.
    public func run() -> SimulationReport {
        if let hand { return run(hand: hand).report }
        var user = Gesture(gesture, seed: config.seed, physics: config.physics)
        return run(driver: &user)
    }

    /// Runs the session with any user. Intents with a ``FrameIntent/touch`` drive the iOS model (under
    /// `physics` `browser` they fall back to its scrolling); the others move the page as they say.
    public func run(driver: inout some GestureDriver) -> SimulationReport {
        var pageLayout = layout
        pageLayout.contentSize = config.contentSize
        var session = LabSession(source: source, layout: pageLayout, itemCap: itemCap)
        var meter = Meter(pullThreshold: config.rules.pullThreshold)
        let opening = session.hello(config.recordedJSON.object ?? [:])
        meter.observe(opening, session: session, at: 0)
        let frames = Int((seconds * hz).rounded())
        let end = Int64((seconds * 1000).rounded())
        var finger = 0.0
        var previous: Int64 = 0
        for frame in 1...max(1, frames) {
            let t = Int64((Double(frame) * 1000 / hz).rounded())
            while let fired = session.fireNext(upTo: t) {
                meter.observe(fired.effects, session: session, at: session.now)
            }
            session.advanceClock(to: t)
            session.page.advanceMotion(ms: Double(t - previous))
            previous = t
            let intent = driver.next(page: session.page, refreshing: session.state.refreshing)
            var phase = intent.phase
            switch intent.touch {
            case .drag(let delta)?:
                session.page.drag(by: delta)
                finger = delta * hz
                phase = session.page.motion.phase
            case .lift?:
                session.page.lift(velocity: finger)
                finger = 0
                phase = session.page.motion.phase
            case nil:
                if let pull = intent.pull, session.page.scroll <= 0 {
                    session.page.pull = max(0, pull)
                } else if intent.scrollBy != 0 {
                    session.page.pull = 0
                    session.page.scroll(by: intent.scrollBy)
                }
                if session.page.motion.motion != .idle { phase = session.page.motion.phase }
            }
            if let effects = session.sendGeometry(phase: phase) {
                meter.observe(effects, session: session, at: t)
            }
            meter.frame(session: session, at: t)
        }
        while let fired = session.fireNext(upTo: end) {
            meter.observe(fired.effects, session: session, at: session.now)
        }
        return meter.report(session: session, at: end, frames: frames)
    }
}

/// What a simulated user felt and what the session did.
public struct SimulationReport: Equatable, Sendable {
    /// Time spent at the end of the content while the feed had more, waiting for it, ms.
    public var stallTotalMs = 0
    /// The 95th percentile of the stall per page (every page asked for or waited for counts, 0 ms too), ms.
    public var stallP95Ms = 0
    /// The longest stall for one page, ms.
    public var stallMaxMs = 0
    /// `loadMoreStarted`.
    public var requestsStarted = 0
    /// `loadMoreSuppressed`.
    public var requestsSuppressed = 0
    /// `loadMoreCancelled`.
    public var requestsCancelled = 0
    /// `loadMoreFailed`.
    public var requestsFailed = 0
    /// Requests for a page number already requested before (retries after a failure or cancel included).
    public var requestsDuplicated = 0
    /// Pages that landed.
    public var pagesLoaded = 0
    /// Pages that landed whose first item never came into view.
    public var pagesNeverSeen = 0
    /// Pulls past the pull threshold, released.
    public var pulls = 0
    /// Refreshes a pull started.
    public var pullRefreshes = 0
    /// Pulls past the threshold that started no refresh.
    public var pullsWithoutRefresh = 0
    /// The most items in the page's DOM at once (all of them, until a `windowSize` setting exists).
    public var peakDOMItems = 0
    /// Items at the end.
    public var items = 0
    /// Geometry messages sent.
    public var geometries = 0

    public init() {}

    /// Refreshes per pull (0 without pulls).
    public var refreshesPerPull: Double { pulls == 0 ? 0 : Double(pullRefreshes) / Double(pulls) }

    /// The metrics by name, in report order, for tables, CSV and JSON.
    public var metrics: [(name: String, value: Double)] {
        [
            ("stallTotalMs", Double(stallTotalMs)), ("stallP95Ms", Double(stallP95Ms)),
            ("stallMaxMs", Double(stallMaxMs)), ("started", Double(requestsStarted)),
            ("suppressed", Double(requestsSuppressed)), ("cancelled", Double(requestsCancelled)),
            ("failed", Double(requestsFailed)), ("duplicated", Double(requestsDuplicated)),
            ("pagesLoaded", Double(pagesLoaded)), ("pagesNeverSeen", Double(pagesNeverSeen)),
            ("pulls", Double(pulls)), ("refreshesPerPull", refreshesPerPull),
            ("pullsWithoutRefresh", Double(pullsWithoutRefresh)), ("peakDOMItems", Double(peakDOMItems)),
            ("items", Double(items)),
        ]
    }
}

/// Watches one simulated session and measures it.
struct Meter {
    let pullThreshold: Double
    var report = SimulationReport()
    /// The stall in progress: since when, and the page waited for.
    var stall: (since: Int64, page: Int)?
    var stallByPage: [Int: Int] = [:]
    var requested: Set<Int> = []
    /// Pages that landed: where their first item starts (content y) and whether it came into view.
    var landed: [(top: Double, seen: Bool)] = []
    var firstUnseen = 0
    var contentHeight = 0.0
    /// The pull in progress: its deepest point and the refreshes it started.
    var pull: (deepest: Double, refreshes: Int, touched: Bool)?

    init(pullThreshold: Double) {
        self.pullThreshold = pullThreshold
    }

    mutating func observe(_ effects: [SessionEffect], session: LabSession, at t: Int64) {
        for effect in effects {
            switch effect {
            case .log(let entry):
                count(entry)
            case .send(.items(let message)) where message.op == .prepend:
                let added = message.items.reduce(0.0) { $0 + session.page.height(of: $1) }
                for index in landed.indices { landed[index].top += added }
            case .send(.items(let message)) where message.op == .append:
                landed.append((contentHeight, false))
            default:
                continue
            }
        }
        if session.page.contentHeight != contentHeight {
            // New content: whoever waited at the end has something to read.
            endStall(at: t)
            contentHeight = session.page.contentHeight
        }
        report.peakDOMItems = max(report.peakDOMItems, domItems(session))
    }

    mutating func count(_ entry: LogEntry) {
        switch entry.name {
        case .loadMoreStarted:
            report.requestsStarted += 1
            if let page = entry.data["page"]?.number.map(Int.init) {
                if !requested.insert(page).inserted { report.requestsDuplicated += 1 }
            }
        case .loadMoreSuppressed: report.requestsSuppressed += 1
        case .loadMoreCancelled: report.requestsCancelled += 1
        case .loadMoreFailed: report.requestsFailed += 1
        case .loadMoreFinished: report.pagesLoaded += 1
        case .refreshStarted where entry.data["trigger"] == "pull":
            if pull != nil { pull!.refreshes += 1 }
        default: break
        }
    }

    mutating func frame(session: LabSession, at t: Int64) {
        let page = session.page
        // Stall: at the end the user can reach, the feed has more, nothing new has come yet.
        if page.atEnd, session.state.sourceHasMore {
            if stall == nil { stall = (t, session.state.edges.bottom.page + 1) }
        } else {
            endStall(at: t)
        }
        // Pages seen: a page's first item comes into the viewport.
        let viewportEnd = page.scroll - page.layout.insetTop + page.layout.containerHeight
        while firstUnseen < landed.count, landed[firstUnseen].top < viewportEnd {
            landed[firstUnseen].seen = true
            firstUnseen += 1
        }
        // Pulls: from the first pixel past the top until it springs back; a fling's bounce at the top is
        // no pull (nothing was under the finger).
        if page.pull > 0 {
            let touched = (pull?.touched ?? false) || session.lastSent?.phase == .interacting
            pull = (max(pull?.deepest ?? 0, page.pull), pull?.refreshes ?? 0, touched)
        } else if let finished = pull {
            pull = nil
            if finished.deepest >= pullThreshold, finished.touched {
                report.pulls += 1
                report.pullRefreshes += finished.refreshes
                if finished.refreshes == 0 { report.pullsWithoutRefresh += 1 }
            }
        }
    }

    mutating func endStall(at t: Int64) {
        guard let open = stall else { return }
        stall = nil
        stallByPage[open.page, default: 0] += Int(t - open.since)
    }

    func domItems(_ session: LabSession) -> Int {
        // What the page holds: every item, or a bounded window's (`windowSize`).
        session.page.items.count
    }

    mutating func report(session: LabSession, at end: Int64, frames: Int) -> SimulationReport {
        endStall(at: end)
        var result = report
        let pages = requested.union(stallByPage.keys)
        let perPage = pages.map { stallByPage[$0] ?? 0 }.sorted()
        result.stallTotalMs = perPage.reduce(0, +)
        result.stallMaxMs = perPage.last ?? 0
        result.stallP95Ms = Self.percentile(perPage, 0.95)
        result.pagesNeverSeen = landed.count { !$0.seen }
        result.items = session.state.window.items.count
        result.geometries = session.seq
        return result
    }

    /// Nearest-rank percentile of sorted values (0 when empty).
    static func percentile(_ sorted: [Int], _ fraction: Double) -> Int {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}

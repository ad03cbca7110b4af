import ScrollCore
import ScrollLab
import ScrollRulesTestSupport
import Synchronization

/// Drives a `FeedController` the way an app does, beside a session (which holds a controller of its own):
/// every input and timer the session reduces is handed to the app's controller as an app would hand it —
/// geometry, how its loads and refreshes ended, what its feed has at either end, `tick` when a delay it
/// was given passes — and the actions of the two are compared step by step: which loads and refreshes
/// start, on which geometry `seq`, what is cancelled, and the retry schedule. The session asks its
/// controller with finer events (its own timers, what a bounded window shows); this checks that an app,
/// which knows less, is told the same.
struct Differential {
    /// One decision, as both sides can name it.
    struct Decision: Hashable, CustomStringConvertible {
        var what: String
        /// The geometry seq of the input that made it (nil: a timer, a completion, a person).
        var seq: Int?
        var description: String { seq.map { "\(what)@\($0)" } ?? what }
    }

    /// A step where the two disagreed.
    struct Mismatch: CustomStringConvertible {
        var t: Int64
        var input: String
        var session: [Decision]
        var controller: [Decision]
        var description: String { "t=\(t) \(input): session \(session) controller \(controller)" }
    }

    private(set) var controller: FeedController?
    private(set) var mismatches: [Mismatch] = []
    /// Decisions compared (both sides agreed on them).
    private(set) var decisions = 0

    /// One step the session took: the state before and after, what came in, at `now`, and its effects.
    mutating func observe(
        before: SessionState, _ input: LabInput, now: Int64, effects: [SessionEffect], after: SessionState
    ) {
        let entries = effects.compactMap { effect -> LogEntry? in
            if case .log(let entry) = effect { entry } else { nil }
        }
        let expected = Self.decisions(in: effects)
        // The app's generator gives back the session's jitter draws, recovered from the delays it logged.
        var random = Draws(Self.jitterDraws(in: entries, settings: after.config.feedSettings))
        var actions: [FeedAction] = []
        var seq: Int? = nil
        var label = "?"
        func app(_ event: FeedEvent) -> [FeedAction] {
            controller?.decide(event, now: now, using: &random).compactMap(\.action) ?? []
        }
        switch input {
        case .input(.message(.success(let message))):
            switch message {
            case .hello where before.lifecycle == .awaitingHello && after.lifecycle == .open:
                label = "hello"
                controller = FeedController(
                    settings: after.config.feedSettings, hasMore: after.hasMore, hasPrevious: after.hasPrevious)
            case .geometry(let report) where before.lifecycle == .open:
                label = "geometry \(report.seq)"
                seq = report.seq
                // An app holds its edge rules while it scrolls to an item.
                controller?.heldRules = before.jump == .idle ? [] : [.bottom, .top]
                actions = app(.geometryChanged(report.geometry, phase: report.phase))
            case .config where before.lifecycle == .open:
                label = "config"
                actions = app(.settingsChanged(after.config.feedSettings))
            case .refresh where before.lifecycle == .open:
                label = "refresh"
                actions = app(.refreshRequested)
            case .loadMore where before.lifecycle == .open:
                label = "loadMore"
                actions = app(.loadRequested(.bottom))
            case .loadPrevious where before.lifecycle == .open:
                label = "loadPrevious"
                actions = app(.loadRequested(.top))
            case .reset where before.lifecycle == .open:
                label = "reset"
                controller?.reset(hasMore: after.hasMore, hasPrevious: after.hasPrevious)
            default:
                label = "other message"
            }
        case .timer(let timer):
            label = "timer \(timer)"
            actions = Self.events(for: timer, before: before, entries: entries, effects: effects, after: after)
                .flatMap(app)
        case .input:
            label = "connection"
        }
        // What the app knows of its feed's ends after the step (a bounded window's trims, a setting).
        controller?.feedChanged(hasMore: after.hasMore, hasPrevious: after.hasPrevious)
        let got = actions.compactMap { Self.decision($0, seq: seq) }
        if got == expected {
            decisions += got.count
        } else {
            mismatches.append(Mismatch(t: now, input: label, session: expected, controller: got))
        }
    }

    /// What an app tells its controller when the session's `timer` fires: how a load or refresh ended, that
    /// a delay it was given passed, that new items arrived, that it dropped its loads for a jump.
    static func events(
        for timer: TimerID, before: SessionState, entries: [LogEntry], effects: [SessionEffect], after: SessionState
    ) -> [FeedEvent] {
        func logged(_ name: EventName) -> LogEntry? { entries.first { $0.name == name } }
        switch timer {
        case .pageLoad(let token), .previousLoad(let token):
            let edge: FeedEdge = timer == .pageLoad(token) ? .bottom : .top
            guard before.runtime.loads[edge] == token else { return [] }
            if logged(edge.events.failed) != nil { return [.loadFailed(edge)] }
            return [.loadFinished(edge, hasMore: after.hasItems(beyond: edge), shown: true)]
        case .refresh(let token):
            guard before.runtime.refresh == token else { return [] }
            guard let finished = logged(.refreshFinished) else { return [.refreshFailed] }
            // Items the page shows: all added, fewer when a window held some back, none when it held all.
            let shown = finished.data["shown"]
            let added = shown == .bool(false) ? 0 : Int(shown?.number ?? finished.data["added"]?.number ?? 0)
            return [.refreshFinished(addedItems: added, shown: true)]
        case .loadRetry, .previousRetry, .refreshHold:
            return [.tick]
        case .newMessage:
            let shown = effects.contains { if case .send(.items(let m)) = $0 { m.op == .append } else { false } }
            return shown ? [.itemsArrived] : []
        case .jump:
            // The jump dropped the loads in flight; the app cancels its own.
            return FeedEdge.allCases.filter { before.runtime.loads[$0] != nil && after.runtime.loads[$0] == nil }
                .map { .loadCancelled($0) }
        case .originFlush:
            return []
        }
    }

    /// The jitter the session drew for each retry it scheduled in one step, in order, from the delays it
    /// logged: drawn again from ``Draws``, `d % (half + 1)` is `d` (never more than the half), so the app's
    /// controller draws what the session drew.
    static func jitterDraws(in entries: [LogEntry], settings: FeedSettings) -> [UInt64] {
        entries.compactMap { entry -> UInt64? in
            guard entry.name == .loadMoreRetryScheduled || entry.name == .loadPreviousRetryScheduled,
                let number = entry.data["retry"]?.number, let delay = entry.data["delayMs"]?.number
            else { return nil }
            return UInt64(Int(delay) - settings.retryDelay(Int(number)) { _ in 0 })
        }
    }

    /// The session's decisions in one step's effects.
    static func decisions(in effects: [SessionEffect]) -> [Decision] {
        var result: [Decision] = []
        for effect in effects {
            switch effect {
            case .log(let entry):
                let seq = entry.geometrySeq
                switch entry.name {
                case .loadMoreStarted: result.append(Decision(what: "loadMore", seq: seq))
                case .loadPreviousStarted: result.append(Decision(what: "loadPrevious", seq: seq))
                case .refreshStarted: result.append(Decision(what: "refresh", seq: seq))
                case .loadMoreCancelled where entry.data["reason"] == .string("refreshStarted"):
                    result.append(Decision(what: "cancelLoadMore", seq: nil))
                case .loadMoreRetryScheduled, .loadPreviousRetryScheduled:
                    let edge = entry.name == .loadMoreRetryScheduled ? "bottom" : "top"
                    let delay = Int(entry.data["delayMs"]?.number ?? -1)
                    result.append(Decision(what: "retry(\(edge), \(delay))", seq: nil))
                case .loadMoreGaveUp: result.append(Decision(what: "gaveUp(bottom)", seq: nil))
                case .loadPreviousGaveUp: result.append(Decision(what: "gaveUp(top)", seq: nil))
                default: continue
                }
            case .schedule(.refreshHold, let delay):
                result.append(Decision(what: "wake(\(delay))", seq: nil))
            default:
                continue
            }
        }
        return result
    }

    /// A controller action as a decision; nil for the ones the session makes as commands to the page.
    static func decision(_ action: FeedAction, seq: Int?) -> Decision? {
        switch action {
        case .loadMore: Decision(what: "loadMore", seq: seq)
        case .loadPrevious: Decision(what: "loadPrevious", seq: seq)
        case .refresh: Decision(what: "refresh", seq: seq)
        case .cancelLoadMore: Decision(what: "cancelLoadMore", seq: nil)
        case .retry(let edge, let delay): Decision(what: "retry(\(edge.rawValue), \(delay))", seq: nil)
        case .gaveUp(let edge): Decision(what: "gaveUp(\(edge.rawValue))", seq: nil)
        case .wake(let delay): Decision(what: "wake(\(delay))", seq: nil)
        case .scrollToTop, .scrollToBottom: nil
        }
    }
}

/// A `Differential` the lab's reducer reports to (the reducer is `@Sendable`; one run uses it at a time).
final class DifferentialBox: Sendable {
    let differential = Mutex(Differential())
    let session: LabReducer

    /// `session`: ScrollCore's reducer, or one with a bug put in on purpose.
    init(session: @escaping LabReducer = LabSession.scrollCore) {
        self.session = session
    }

    /// The session's reducer, with every step also handed to the app's controller.
    var reducer: LabReducer {
        { [self] state, input, now in
            let before = state
            let effects = session(&state, input, now)
            let after = state
            differential.withLock { $0.observe(before: before, input, now: now, effects: effects, after: after) }
            return effects
        }
    }
}

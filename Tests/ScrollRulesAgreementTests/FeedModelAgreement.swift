import ScrollCore
import ScrollLab
import ScrollRulesTestSupport
import ScrollRulesUI
import Synchronization
import Testing

@testable import ScrollRules

/// The app's `FeedModel` driven through what a session went through, step by step on a manual clock: the
/// session's steps are recorded first (on the lab's virtual clock: timers fire when due), then handed to
/// the model as an app would see them — geometry, settings, a person's asks, its closures finishing when
/// the session's loads and refreshes landed (after their drawn latencies), new items, a jump dropping its
/// loads — while its own alarm fires its retries and holds. Every decision with an action, on both sides,
/// is kept with its virtual time (and geometry seq): the two lists must be equal.
struct FeedModelAgreement {
    /// What the app does at one step of the session.
    enum AppStep: Sendable {
        /// The session opened: the app makes its model.
        case open(FeedSettings, hasMore: Bool, hasPrevious: Bool)
        /// A geometry; `held`: the app holds its rules (it scrolls to an item).
        case geometry(FeedGeometry, FeedScrollPhase, seq: Int, held: Set<FeedEdge>)
        /// New settings.
        case settings(FeedSettings)
        /// A person's ask.
        case ask(FeedEvent)
        /// The app resets the feed.
        case reset(hasMore: Bool, hasPrevious: Bool)
        /// The edge's load closure returns (`hasMore`) or throws (nil).
        case loadEnds(FeedEdge, hasMore: Bool?)
        /// The refresh closure returns (`added`) or throws (nil).
        case refreshEnds(added: Int?)
        /// New items arrived at the bottom.
        case itemsArrived
        /// The app drops its loads at these edges (a jump).
        case dropLoads([FeedEdge])
        /// A retry or the hold came due: the model's own alarm runs it.
        case alarm
        /// Nothing for the app.
        case nothing
    }

    /// One recorded step: when, what the app does, the jitter the session drew, and the feed's ends after it.
    struct Recorded: Sendable {
        var t: Int64
        var step: AppStep
        var draws: [UInt64]
        var hasMore: Bool
        var hasPrevious: Bool
    }

    /// One decision, with its virtual time.
    struct Timed: Hashable, Sendable, CustomStringConvertible {
        var t: Int64
        var decision: Differential.Decision
        var description: String { "\(decision)@t\(t)" }
    }

    private(set) var steps: [Recorded] = []
    private(set) var expected: [Timed] = []
    private var opened = false

    /// One step the session took.
    mutating func observe(
        before: SessionState, _ input: LabInput, now: Int64, effects: [SessionEffect], after: SessionState
    ) {
        let entries = effects.compactMap { effect -> LogEntry? in
            if case .log(let entry) = effect { entry } else { nil }
        }
        expected += Differential.decisions(in: effects).map { Timed(t: now, decision: $0) }
        var step = AppStep.nothing
        switch input {
        case .input(.message(.success(let message))):
            switch message {
            case .hello where before.lifecycle == .awaitingHello && after.lifecycle == .open:
                opened = true
                step = .open(after.config.feedSettings, hasMore: after.hasMore, hasPrevious: after.hasPrevious)
            case .geometry(let report) where before.lifecycle == .open:
                step = .geometry(
                    report.geometry, report.phase, seq: report.seq, held: before.jump == .idle ? [] : [.bottom, .top])
            case .config where before.lifecycle == .open:
                step = .settings(after.config.feedSettings)
            case .refresh where before.lifecycle == .open: step = .ask(.refreshRequested)
            case .loadMore where before.lifecycle == .open: step = .ask(.loadRequested(.bottom))
            case .loadPrevious where before.lifecycle == .open: step = .ask(.loadRequested(.top))
            case .reset where before.lifecycle == .open:
                step = .reset(hasMore: after.hasMore, hasPrevious: after.hasPrevious)
            default: break
            }
        case .timer(let timer):
            let events = Differential.events(
                for: timer, before: before, entries: entries, effects: effects, after: after)
            switch events.first {
            case .loadFinished(let edge, let more, _)?: step = .loadEnds(edge, hasMore: more)
            case .loadFailed(let edge)?: step = .loadEnds(edge, hasMore: nil)
            case .refreshFinished(let added, _)?: step = .refreshEnds(added: added)
            case .refreshFailed?: step = .refreshEnds(added: nil)
            case .tick?: step = .alarm
            case .itemsArrived?: step = .itemsArrived
            case .loadCancelled?:
                step = .dropLoads(events.compactMap { if case .loadCancelled(let e) = $0 { e } else { nil } })
            default: break
            }
        case .input:
            break
        }
        guard opened else { return }
        steps.append(
            Recorded(
                t: now, step: step,
                draws: Differential.jitterDraws(in: entries, settings: after.config.feedSettings),
                hasMore: after.hasMore, hasPrevious: after.hasPrevious))
    }

    /// A generator the driver refills with each step's draws (the model holds it by reference).
    final class SharedDraws: RandomNumberGenerator, @unchecked Sendable {
        var values: [UInt64] = []
        func next() -> UInt64 { values.isEmpty ? 0 : values.removeFirst() }
    }

    /// The app's closures: each call waits until the driver ends it as the session's work ended, or until
    /// the model cancels it (a refresh or a reset dropped the load), as a network call would.
    @MainActor final class Work {
        /// Calls waiting, by number: which work, and how to end it.
        private var waiting: [Int: (work: FeedWork, continuation: CheckedContinuation<Int, any Error>)] = [:]
        private var calls = 0
        /// How many times each work's closure was called.
        private(set) var started: [FeedWork: Int] = [:]
        struct Dropped: Error {}

        func run(_ work: FeedWork) async throws -> Int {
            calls += 1
            let call = calls
            started[work, default: 0] += 1
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiting[call] = (work, continuation)
                    if Task.isCancelled { end(call, throwing: CancellationError()) }
                }
            } onCancel: {
                Task { @MainActor in self.end(call, throwing: CancellationError()) }
            }
        }

        /// The latest call of `work` still waiting.
        func latest(_ work: FeedWork) -> Int? { waiting.filter { $0.value.work == work }.keys.max() }

        func end(_ call: Int, returning value: Int) {
            waiting.removeValue(forKey: call)?.continuation.resume(returning: value)
        }

        func end(_ call: Int, throwing error: any Error) {
            waiting.removeValue(forKey: call)?.continuation.resume(throwing: error)
        }

        func endAll() {
            for call in waiting.keys { end(call, throwing: Dropped()) }
        }
    }

    /// Runs the recorded steps through a `FeedModel`; returns its decisions with their virtual times.
    /// `drawingJitter: false` gives the model no jitter (a control: its retries then differ).
    @MainActor
    func runModel(drawingJitter: Bool = true) async -> [Timed] {
        let clock = ManualFeedClock()
        let draws = SharedDraws()
        let work = Work()
        var model: FeedModel?
        var got: [Timed] = []
        var seq: Int?
        var decided: [FeedWork: Int] = [:]
        /// Lets the model's tasks run until `done` holds: they need a few turns of the main actor, not time, but
        /// other suites share the main actor, so the bound is generous and reaching it is a failure.
        func settle(_ done: () -> Bool, _ what: String) async {
            for _ in 0..<200_000 {
                if done() { return }
                await Task.yield()
            }
            Issue.record("the model did not settle (\(what))")
        }
        func alarmsRan() -> Bool {
            guard let model else { return true }
            return (model.runtime.timers.next?.due ?? .max) > clock.now()
        }
        /// Ends the work's call in flight as the session's ended (a value, or nil: it throws).
        func end(_ done: FeedWork, with value: Int?) async {
            guard let model, let ticket = model.runtime.ticket(of: done) else { return }
            // The closure's task may not have been called yet.
            await settle(
                { work.started[done, default: 0] == decided[done, default: 0] && work.latest(done) != nil },
                "\(done) called")
            guard let call = work.latest(done) else { return }
            if let value { work.end(call, returning: value) } else { work.end(call, throwing: Work.Dropped()) }
            await settle({ model.runtime.ticket(of: done) != ticket }, "\(done) reported")
        }
        for recorded in steps {
            draws.values = drawingJitter ? recorded.draws : []
            clock.advance(to: recorded.t)
            await settle(alarmsRan, "alarm at \(recorded.t)")
            switch recorded.step {
            case .open(let settings, let hasMore, let hasPrevious):
                let opened = FeedModel(
                    settings: settings, hasPrevious: hasPrevious,
                    loadMore: { try await work.run(.load(.bottom)) == 1 },
                    loadPrevious: { try await work.run(.load(.top)) == 1 },
                    refresh: { try await work.run(.refresh) }, clock: clock, random: draws)
                opened.hasMore = hasMore
                opened.onDecision = { decision in
                    switch decision {
                    case .loadStarted(let edge, _): decided[.load(edge), default: 0] += 1
                    case .refreshStarted: decided[.refresh, default: 0] += 1
                    default: break
                    }
                    if let action = decision.action, let projected = Differential.decision(action, seq: seq) {
                        got.append(Timed(t: clock.now(), decision: projected))
                    }
                }
                model = opened
            case .geometry(let geometry, let phase, let number, let held):
                model?.heldRules = held
                seq = number
                model?.send(.geometryChanged(geometry, phase: phase))
                seq = nil
            case .settings(let settings):
                model?.settings = settings
            case .ask(let event):
                model?.send(event)
            case .reset(let hasMore, let hasPrevious):
                model?.reset(hasMore: hasMore, hasPrevious: hasPrevious)
            case .loadEnds(let edge, let hasMore):
                await end(.load(edge), with: hasMore.map { $0 ? 1 : 0 })
            case .refreshEnds(let added):
                await end(.refresh, with: added)
            case .itemsArrived:
                model?.itemsArrived()
            case .dropLoads(let edges):
                // The app drops its loads (the model no longer waits for them), then its calls end.
                for edge in edges { model?.send(.loadCancelled(edge)) }
            case .alarm, .nothing:
                break
            }
            // What the app knows of its feed's ends after the step (a bounded window's trims, a setting).
            if let model, model.hasMore != recorded.hasMore || model.hasPrevious != recorded.hasPrevious {
                model.send(.feedChanged(hasMore: recorded.hasMore, hasPrevious: recorded.hasPrevious))
            }
        }
        // Work still waiting ends with the model.
        work.endAll()
        return got
    }

    /// The decisions at each virtual time, as multisets: timers due at the same moment may run in either
    /// order on the two sides (the model's alarm runs all that are due at once).
    static func byTime(_ list: [Timed]) -> [Int64: [String]] {
        Dictionary(grouping: list, by: \.t).mapValues { $0.map(\.decision.description).sorted() }
    }

    /// The first time at which the two lists differ, if any.
    static func firstDifference(_ session: [Timed], _ model: [Timed]) -> String? {
        let a = byTime(session)
        let b = byTime(model)
        for t in Set(a.keys).union(b.keys).sorted() where a[t] != b[t] {
            return "t=\(t): session \(a[t] ?? []) model \(b[t] ?? [])"
        }
        return nil
    }
}

/// A `FeedModelAgreement` the lab's reducer reports to.
final class AgreementBox: Sendable {
    let agreement = Mutex(FeedModelAgreement())

    /// ScrollCore's reducer, with every step also recorded for the app.
    var reducer: LabReducer {
        { [self] state, input, now in
            let before = state
            let effects = LabSession.scrollCore(&state, input, now)
            let after = state
            agreement.withLock { $0.observe(before: before, input, now: now, effects: effects, after: after) }
            return effects
        }
    }
}

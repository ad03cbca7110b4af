import ScrollCore

/// The hand taken out of a format-1 trace: what the user's finger, wheel or pointer did and what the page
/// itself did (jumps, resizes, preset switches, buttons), without what the recorded settings made happen.
/// ``Simulation`` runs it on the simulated page under any settings (``Simulation/hand``); docs/lab.md says
/// how each physics and each recorder is read.
public struct RecordedHand: Equatable, Sendable {
    /// One thing the hand or the page did.
    public enum Action: Equatable, Sendable {
        /// iOS: the finger is down and moves the content by this many px (positive: toward the end), net of
        /// the rubber band.
        case finger(Double)
        /// iOS: the finger lifts moving at this speed, px/s (momentum, or the spring back past an end).
        case lift(velocity: Double)
        /// Browser: the page scrolled by this many px (a wheel, a drag, or the browser's own momentum).
        case scroll(Double)
        /// Browser: the content shows this far past its top, px (0: let go).
        case pull(Double)
        /// The page jumped (a key, a script, a link) to the top, the end, or an offset.
        case jump(JumpTarget)
        /// The viewport's height became this, px.
        case resize(Double)
        /// A message the page sent besides geometry: a `config` (a preset switch, a setting), or a button's
        /// `refresh`, `loadMore`, `loadPrevious`, `reset`, `jump`.
        case message(JSONValue)
    }

    /// Where a jump went.
    public enum JumpTarget: Equatable, Sendable {
        case top
        case end
        /// `contentOffset` measured from the content's top, px.
        case offset(Double)
    }

    /// What happened at one moment of the recording.
    public struct Step: Equatable, Sendable {
        /// Milliseconds after the `hello`.
        public var t: Int64
        /// Done before the page reports.
        public var actions: [Action]
        /// The phase the recording reported then; nil when the page reported no geometry.
        public var phase: FeedScrollPhase?
        /// Done after the page reported (a finger that lifted after its last frame).
        public var afterReport: [Action] = []

        public init(t: Int64, actions: [Action], phase: FeedScrollPhase?, afterReport: [Action] = []) {
            self.t = t
            self.actions = actions
            self.phase = phase
            self.afterReport = afterReport
        }
    }

    /// Where the recording came from.
    public enum Origin: String, Equatable, Sendable {
        /// The playground's own page (or the lab's simulated one).
        case page
        /// `recorder.js` on someone's web app.
        case recorderJS
        /// `ScrollRulesUI`'s recorder in a SwiftUI app (`recorder.page` starts with `app:`).
        case swiftUI
    }

    /// The recording's name (its file's, or the header's `session`).
    public var name: String
    /// The server's defaults the trace was recorded with (its header).
    public var defaults: ScrollConfig
    /// `hello.config` as the page sent it.
    public var settings: [String: JSONValue]
    /// The feed (the header's `source`).
    public var source: FeedSource
    /// The page's layout, read from the first geometry.
    public var layout: PageLayout
    /// How the recording scrolled (`physics`).
    public var physics: ScrollPhysics
    public var origin: Origin
    public var steps: [Step]
    /// From the `hello` to the trace's last line, ms.
    public var durationMs: Int64
    /// The recording's usual time between two geometry reports, ms (the page's frame).
    public var frameMs: Int64
    /// The trace's decisions, their times counted from the `hello`.
    public var recordedDecisions: [TimedDecision]

    /// The settings the recording ran with: the header's defaults with `hello.config` over them.
    public var config: ScrollConfig {
        var config = defaults
        try? config.apply(settings.filter { ScrollConfig.settingNames.contains($0.key) })
        return config
    }

    /// The most steps a hand may have (a trace is read whole; this bounds the work a run does per hand).
    public static let stepLimit = 200_000
}

/// Why a trace gives no hand.
public enum HandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trace has no `hello`.
    case noHello
    /// The trace has no geometry: nothing moved.
    case noGeometry
    /// The trace has more steps than ``RecordedHand/stepLimit``.
    case tooLong(Int)
    /// The geometry on this line of the trace is past what the lab simulates (named in the text).
    case unsimulable(line: Int, String)

    public var description: String {
        switch self {
        case .noHello: "the trace has no hello: it is not a page's session"
        case .noGeometry: "the trace has no geometry: there is no hand to take"
        case .tooLong(let count): "the trace has \(count) steps, more than \(RecordedHand.stepLimit)"
        case .unsimulable(let line, let reason): "line \(line): \(reason)"
        }
    }
}

/// How a hand's run compares with its recording: the loads and refreshes each made, in order.
public struct HandAgreement: Equatable, Sendable {
    /// The decisions compared: a page load or a refresh starting.
    public static let compared: Set<EventName> = [.loadMoreStarted, .loadPreviousStarted, .refreshStarted]

    /// The recording's loads and refreshes (times from its `hello`).
    public var recorded: [TimedDecision]
    /// The run's.
    public var simulated: [TimedDecision]
    /// How far apart two decisions may be and still be the same, ms.
    public var toleranceMs: Int64

    public init(recorded: [TimedDecision], simulated: [TimedDecision], toleranceMs: Int64) {
        self.recorded = recorded.filter { Self.compared.contains($0.entry.name) }
        self.simulated = simulated.filter { Self.compared.contains($0.entry.name) }
        self.toleranceMs = toleranceMs
    }

    /// The first difference, or nil when the run made the same loads and refreshes, each within the tolerance.
    public var firstDifference: String? {
        for (index, pair) in zip(recorded, simulated).enumerated() {
            if pair.0.entry.name != pair.1.entry.name {
                return "decision \(index + 1): recorded \(pair.0.entry.name.rawValue) at \(pair.0.t) ms, "
                    + "simulated \(pair.1.entry.name.rawValue) at \(pair.1.t) ms"
            }
            if abs(pair.0.t - pair.1.t) > toleranceMs {
                return "\(pair.0.entry.name.rawValue) (decision \(index + 1)): recorded at \(pair.0.t) ms, "
                    + "simulated at \(pair.1.t) ms"
            }
        }
        if recorded.count != simulated.count {
            return "recorded \(recorded.count) loads and refreshes, simulated \(simulated.count)"
        }
        return nil
    }
}

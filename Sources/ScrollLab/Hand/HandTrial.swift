import ScrollCore

/// A `tryHand` message: run the hand of an uploaded trace on the simulated page under a preset and settings,
/// and answer with the recorded and the simulated loads and refreshes. Pure, and bounded whatever the trace
/// and the message say: the server runs it off its loop (`SessionHost+HandTrial`), the fuzzer end to end.
public enum HandTrial {
    /// What bounds one trial.
    public struct Limits: Equatable, Sendable {
        /// The most lines of trace, header included (`--max-fork-lines`).
        public var maxLines: Int
        /// The most items the simulated session holds (`--max-session-items`, lowered further by the trace's
        /// own `itemCap`): what a trial may grow, whatever its hand asks for.
        public var maxItems: Int
        /// The most simulated seconds, whatever the trace's length.
        public var maxSeconds: Double

        public init(maxLines: Int, maxItems: Int, maxSeconds: Double = HandTrial.maxSeconds) {
            self.maxLines = maxLines
            self.maxItems = maxItems
            self.maxSeconds = maxSeconds
        }
    }

    /// The most simulated seconds one trial runs, whatever the trace's length: with ``Limits/maxItems``, the
    /// trace's size (`--max-fork-bytes`, `--max-fork-lines`) and the page's frame (≥ 4 ms), it bounds the
    /// work of one message.
    public static let maxSeconds = 120.0
    /// The most decisions a row of the answer lists.
    public static let maxDecisions = 500
    /// The most keys of `settings`.
    public static let maxSettings = 64

    /// A trial that ran: the answer without its `swift` (the server writes that), and the settings tried.
    public struct Outcome: Sendable {
        /// The `handResult` message, every field but `swift`.
        public var answer: [String: JSONValue]
        /// The settings the hand ran under.
        public var config: ScrollConfig
    }

    /// Whether the text is a `tryHand` message.
    public static func isOne(_ text: [UInt8]) -> Bool {
        (try? JSONParser.parse(text))?.object?["type"] == "tryHand"
    }

    /// The answer when the trial's page went before it finished.
    public static let abandoned = ProtocolError(.notReady, "the hand trial's page went")

    /// Reads the trace and the request and runs it: the answer, or why not. `stop` is asked before each step
    /// of the work and at every simulated frame (with its time, ms); once it says yes the trial ends with
    /// ``abandoned`` at that frame.
    public static func run(
        upload: [UInt8], request text: [UInt8], limits: Limits, stop: (Int64) -> Bool = { _ in false }
    ) -> Result<Outcome, ProtocolError> {
        guard let request = (try? JSONParser.parse(text))?.object else {
            return .failure(ProtocolError(.badJSON, "tryHand must be a JSON object"))
        }
        // The settings first: a bad one is refused before the trace is read.
        let fields: [String: JSONValue]
        switch settings(of: request) {
        case .success(let read): fields = read
        case .failure(let error): return .failure(error)
        }
        let lineCount = upload.count(where: { $0 == 0x0A }) + (upload.last == 0x0A ? 0 : 1)
        guard lineCount <= limits.maxLines else {
            return .failure(
                ProtocolError(.badMessage, "a trace is limited to \(limits.maxLines) lines (--max-fork-lines)"))
        }
        if stop(0) { return .failure(abandoned) }
        let hand: RecordedHand
        let itemCap: Int
        do {
            let trace = try Trace.parse(bytes: upload)
            if stop(0) { return .failure(abandoned) }
            hand = try RecordedHand(trace: trace)
            itemCap = max(1, min(limits.maxItems, trace.header.itemCap ?? .max))
        } catch {
            return .failure(ProtocolError(.badMessage, "the trace gives no hand: \(error)"))
        }
        if stop(0) { return .failure(abandoned) }
        var simulation = Simulation(hand: hand)
        simulation.seconds = min(simulation.seconds, limits.maxSeconds)
        simulation.itemCap = itemCap
        // The one check every setting goes through, as a `config` message's (and `--set`'s, from its text).
        do {
            try simulation.config.apply(fields)
        } catch {
            return .failure(ProtocolError(.badMessage, error.description, field: error.field))
        }
        // Only what the request changed: the preset is named on its own, and the defaults that follow it
        // (`pullThreshold`, `retryPolicy`) are the preset's, not a change to report.
        var changed: [String: JSONValue] = [:]
        let recordedSettings = hand.config.json.object ?? [:]
        let named = Set(fields.keys).subtracting(["preset"])
        for (key, value) in simulation.config.json.object ?? [:]
        where named.contains(key) && recordedSettings[key] != value {
            changed[key] = value
        }
        let run = simulation.run(hand: hand, record: true, stop: stop)
        if run.stopped { return .failure(abandoned) }
        let agreement = HandAgreement(
            recorded: hand.recordedDecisions, simulated: run.trace?.recordedDecisions ?? [],
            toleranceMs: hand.frameMs + 1)
        func row(_ decisions: [TimedDecision]) -> JSONValue {
            .array(
                decisions.prefix(maxDecisions).map { decision in
                    var item: [String: JSONValue] = [
                        "t": .int(Int(decision.t)), "name": .string(decision.entry.name.rawValue),
                    ]
                    if let page = decision.entry.data["page"] { item["page"] = page }
                    if let trigger = decision.entry.data["trigger"] { item["trigger"] = trigger }
                    return .object(item)
                })
        }
        var metrics: [String: JSONValue] = [:]
        for (name, value) in run.report.metrics { metrics[name] = .number(value) }
        let answer: [String: JSONValue] = [
            "type": "handResult", "preset": .string(simulation.config.rules.preset.rawValue),
            "recordedPreset": .string(hand.config.rules.preset.rawValue), "settings": .object(changed),
            "physics": .string(hand.physics.rawValue), "seconds": .number(simulation.seconds),
            "recorded": row(agreement.recorded), "simulated": row(agreement.simulated),
            "same": .bool(agreement.firstDifference == nil),
            "difference": agreement.firstDifference.map { .string($0) } ?? .null,
            "report": .object(metrics),
        ]
        return .success(Outcome(answer: answer, config: simulation.config))
    }

    /// `preset` and `settings` as one `config` message's fields. A string value is read as `--set` reads its
    /// text (the page sends `KEY=VALUE` as typed), a number or boolean is taken as it is; the settings' own
    /// check (``ScrollConfig/apply(_:)``) then holds each to its range.
    static func settings(of request: [String: JSONValue]) -> Result<[String: JSONValue], ProtocolError> {
        var fields: [String: JSONValue] = [:]
        if let preset = request["preset"] {
            guard preset.string != nil else {
                return .failure(ProtocolError(.badMessage, "field \"preset\" must be a string", field: "preset"))
            }
            fields["preset"] = preset
        }
        guard let settings = request["settings"] else { return .success(fields) }
        guard let given = settings.object, given.count <= maxSettings else {
            return .failure(
                ProtocolError(
                    .badMessage, "field \"settings\" must be an object of at most \(maxSettings) keys",
                    field: "settings"))
        }
        for (key, value) in given {
            switch value {
            case .string(let text): fields[key] = ScrollConfig.value(ofText: text)
            case .number, .bool: fields[key] = value
            case .null, .array, .object:
                return .failure(
                    ProtocolError(
                        .badMessage, "setting \"\(ClientText.excerpt(key))\" must be a string, number or boolean",
                        field: key))
            }
        }
        return .success(fields)
    }
}

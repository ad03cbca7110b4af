import LWSTransport
import ScrollCore
import ScrollLab

/// A `tryHand` message: run the hand of the trace sent before it (in `forkTrace` pieces) on the simulated
/// page under a preset and settings, and answer `handResult` with the recorded and the simulated loads and
/// refreshes. The page's "Try this hand under…" sends it on a connection of its own, before any `hello`.
enum HandTrial {
    /// The most simulated seconds one trial runs, whatever the trace's length: the work per message is bounded
    /// by this, the trace's size (`--max-fork-bytes`, `--max-fork-lines`) and the page's frame (≥ 4 ms).
    static let maxSeconds = 120.0
    /// The most decisions a row of the answer lists.
    static let maxDecisions = 500

    /// Whether the text is a `tryHand` message.
    static func isOne(_ text: [UInt8]) -> Bool {
        (try? JSONParser.parse(text))?.object?["type"] == "tryHand"
    }

    /// Reads the trace and the request and runs it: the `handResult` answer, or why not.
    static func run(upload: [UInt8], request text: [UInt8], maxLines: Int) -> Result<JSONValue, ProtocolError> {
        guard let request = (try? JSONParser.parse(text))?.object else {
            return .failure(ProtocolError(.badJSON, "tryHand must be a JSON object"))
        }
        let lineCount = upload.count(where: { $0 == 0x0A }) + (upload.last == 0x0A ? 0 : 1)
        guard lineCount <= maxLines else {
            return .failure(
                ProtocolError(.badMessage, "a trace is limited to \(maxLines) lines (--max-fork-lines)"))
        }
        let hand: RecordedHand
        do {
            hand = try RecordedHand(trace: Trace.parse(String(decoding: upload, as: UTF8.self)))
        } catch {
            return .failure(ProtocolError(.badMessage, "the trace gives no hand: \(error)"))
        }
        var simulation = Simulation(hand: hand)
        simulation.seconds = min(simulation.seconds, maxSeconds)
        var changed: [String: JSONValue] = [:]
        var assignments: [(String, String)] = []
        if let preset = request["preset"] {
            guard let name = preset.string else {
                return .failure(ProtocolError(.badMessage, "field \"preset\" must be a string"))
            }
            assignments.append(("preset", name))
        }
        if let settings = request["settings"] {
            guard let fields = settings.object, fields.count <= 64 else {
                return .failure(ProtocolError(.badMessage, "field \"settings\" must be an object of at most 64 keys"))
            }
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .string(let text): assignments.append((key, text))
                case .number(let number): assignments.append((key, LabFormat.number(number)))
                case .bool(let flag): assignments.append((key, flag ? "true" : "false"))
                default:
                    return .failure(
                        ProtocolError(.badMessage, "setting \"\(key)\" must be a string, number or boolean"))
                }
            }
        }
        for (key, value) in assignments {
            guard ScrollConfig.settings.contains(where: { $0.name == key }) else {
                return .failure(ProtocolError(.badMessage, "unknown setting \"\(key)\""))
            }
            do {
                try simulation.apply(key: key, text: value)
            } catch {
                return .failure(ProtocolError(.badMessage, "\(error)"))
            }
        }
        let recordedSettings = hand.config.json.object ?? [:]
        for (key, value) in simulation.config.json.object ?? [:] where recordedSettings[key] != value {
            changed[key] = value
        }
        let run = simulation.run(hand: hand, record: true)
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
        // The settings that won, as an app takes them (what `export` writes; physics is the page's, not a rule).
        var export = ExportCommand()
        export.config = simulation.config
        export.config.physics = ScrollConfig().physics
        return .success([
            "type": "handResult", "preset": .string(simulation.config.preset.rawValue),
            "recordedPreset": .string(hand.config.preset.rawValue), "settings": .object(changed),
            "physics": .string(hand.physics.rawValue), "seconds": .number(simulation.seconds),
            "recorded": row(agreement.recorded), "simulated": row(agreement.simulated),
            "same": .bool(agreement.firstDifference == nil),
            "difference": agreement.firstDifference.map { .string($0) } ?? .null,
            "report": .object(metrics), "swift": .string(export.render()),
        ])
    }
}

extension SessionHost {
    /// The most `tryHand` runs at once; one more is refused with `not_ready` (it may try again).
    static let maxHandTrialsInProgress = 4

    /// Runs a `tryHand` on the trace this connection sent before it, off the service thread, and answers on the
    /// same connection (``handTried(_:on:loop:)``).
    func tryHand(_ text: [UInt8], on id: ConnectionID, at time: Int64, loop: WebServerLoop) {
        guard handTrials[id] == nil, handTrials.count < Self.maxHandTrialsInProgress else {
            refuse(
                ProtocolError(.notReady, "the server is running other hands: send tryHand again shortly"), on: id,
                at: time, loop: loop)
            return
        }
        guard uploads.hasUpload(for: id), case (let upload, let held)? = uploads.take(id) else {
            refuse(
                ProtocolError(.badMessage, "send the trace first, in forkTrace pieces"), on: id, at: time, loop: loop)
            return
        }
        let maxLines = options.maxForkLines
        let work: @Sendable () -> Result<JSONValue, ProtocolError> = {
            HandTrial.run(upload: upload, request: text, maxLines: maxLines)
        }
        handTrials[id] = held
        if let tryHandOffLoop {
            tryHandOffLoop(id, work)
        } else {
            handTried(work(), on: id, loop: loop)
        }
    }

    /// A `tryHand` ran: its answer (or why not) goes to the connection, if it is still there.
    func handTried(_ result: Result<JSONValue, ProtocolError>, on id: ConnectionID, loop: WebServerLoop) {
        if let freed = handTrials.removeValue(forKey: id) { uploads.release(freed) }
        guard links[id] != nil else { return }
        switch result {
        case .success(let answer): loop.send(answer.jsonBytes, to: id)
        case .failure(let error): refuse(error, on: id, at: now, loop: loop)
        }
    }
}

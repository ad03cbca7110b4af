import LWSTransport
import ScrollCore
import ScrollLab

extension HandTrial {
    /// Runs a trial (``HandTrial/run(upload:request:limits:stop:)``) and writes its `handResult`: the answer
    /// with `swift`, the settings that won as an app takes them (what `export` writes; physics is the page's,
    /// not a rule).
    static func answer(
        upload: [UInt8], request: [UInt8], limits: Limits, cancellation: ForkCancellation? = nil
    ) -> Result<JSONValue, ProtocolError> {
        let ran = run(upload: upload, request: request, limits: limits) { _ in cancellation?.isCancelled == true }
        return ran.map { outcome in
            var export = ExportCommand()
            export.config = outcome.config
            export.config.physics = ScrollConfig().physics
            // The same settings as data, for the page's "Export these settings": the preset and every setting
            // that differs from its defaults, the recording's own (its latencies) included, as the Swift has them.
            let tried = export.config.json.object ?? [:]
            var exported: [String: JSONValue] = ["preset": .string(export.config.rules.preset.rawValue)]
            for (setting, _) in export.changed { exported[setting.name] = tried[setting.name] }
            var answer = outcome.answer
            answer["swift"] = .string(export.render())
            answer["export"] = .object(exported)
            return .object(answer)
        }
    }
}

extension SessionHost {
    /// The most `tryHand` trials queued or running at once; one more is refused with `not_ready` (it may try
    /// again).
    static let maxHandTrialsInProgress = 4
    /// The most of them from one client address, so one client cannot hold every slot.
    static let maxHandTrialsPerPeer = 2

    /// What bounds one trial.
    var handTrialLimits: HandTrial.Limits {
        HandTrial.Limits(maxLines: options.maxForkLines, maxItems: options.maxSessionItems)
    }

    /// Queues a `tryHand` on the trace this connection sent before it; it runs off the service thread
    /// (``tryHandOffLoop``), one at a time, and answers on the same connection (``handTried(_:on:loop:)``).
    /// A page that goes takes its trial out of the queue, or stops it within a simulated frame.
    func tryHand(_ text: [UInt8], on id: ConnectionID, at time: Int64, loop: WebServerLoop) {
        guard uploads.hasUpload(for: id) else {
            refuse(
                ProtocolError(.badMessage, "send the trace first, in forkTrace pieces"), on: id, at: time, loop: loop)
            return
        }
        let peer = uploads.peer(of: id) ?? loop.peerAddress(of: id) ?? "unknown"
        if handTrialQueue.isQueued(id) {
            refuse(
                ProtocolError(.notReady, "this connection's hand is being tried: wait for its handResult"), on: id,
                at: time, loop: loop)
            return
        }
        if let refusal = handTrialQueue.refusal(for: peer) {
            // The trace stays: the page sends tryHand again, not the trace.
            let reason =
                switch refusal {
                case .full(let capacity): "the server is running \(capacity) hands"
                case .peerFull(let perPeer): "this address already has \(perPeer) hands being tried"
                }
            refuse(
                ProtocolError(.notReady, "\(reason): send tryHand again shortly (the trace is kept)"), on: id, at: time,
                loop: loop)
            return
        }
        guard case (let upload, let held)? = uploads.take(id) else { return }
        let limits = handTrialLimits
        let cancellation = ForkCancellation()
        let work: @Sendable () -> Result<JSONValue, ProtocolError> = {
            HandTrial.answer(upload: upload, request: text, limits: limits, cancellation: cancellation)
        }
        handTrialQueue.enqueue(
            HandTrialQueue.Entry(connection: id, peer: peer, work: work, cancellation: cancellation, upload: held))
        startNextHandTrial(loop: loop)
    }

    /// Starts the next queued trial if none runs: off the service thread (``tryHandOffLoop``), or in place.
    func startNextHandTrial(loop: WebServerLoop) {
        guard let entry = handTrialQueue.startNext() else { return }
        if let tryHandOffLoop {
            tryHandOffLoop(entry.connection, entry.work)
        } else {
            handTried(entry.work(), on: entry.connection, loop: loop)
        }
    }

    /// A `tryHand` ran: its answer (or why not) goes to the connection, if it is still there.
    func handTried(_ result: Result<JSONValue, ProtocolError>, on id: ConnectionID, loop: WebServerLoop) {
        if let freed = handTrialQueue.finished() { uploads.release(freed) }
        // A trial's working memory was its thread's: given back once the queue pauses.
        scheduleMemoryReturn(loop: loop)
        defer { startNextHandTrial(loop: loop) }
        guard links[id] != nil else { return }
        switch result {
        case .success(let answer): loop.send(answer.jsonBytes, to: id)
        case .failure(let error): refuse(error, on: id, at: now, loop: loop)
        }
    }
}

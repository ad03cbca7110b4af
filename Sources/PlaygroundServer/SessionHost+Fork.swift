import LWSTransport
import ScrollCore

/// A `forkTrace` message: one piece of the parent trace a fork's `hello` will continue from.
enum ForkTraceChunk {
    /// The most bytes of parent trace one connection may send (the pieces together).
    static let maxBytes = 8 * 1024 * 1024

    /// Whether the text is a `forkTrace` message (a JSON object whose `type` is `"forkTrace"`).
    static func isOne(_ text: [UInt8]) -> Bool {
        (try? JSONParser.parse(text))?.object?["type"] == "forkTrace"
    }
}

extension SessionHost {
    /// Keeps a piece of a parent trace sent before `hello`; refuses a piece without `text` or past
    /// ``ForkTraceChunk/maxBytes`` (what was sent so far is then dropped).
    func receiveForkTrace(_ text: [UInt8], on id: ConnectionID, at time: Int64, loop: WebServerLoop) {
        guard let piece = (try? JSONParser.parse(text))?.object?["text"]?.string else {
            refuse(
                ProtocolError(.badMessage, "field \"text\" must be a string (a piece of the parent trace)"), on: id,
                at: time, loop: loop)
            return
        }
        let received = (forkUploads[id]?.count ?? 0) + piece.utf8.count
        guard received <= ForkTraceChunk.maxBytes else {
            forkUploads[id] = nil
            refuse(
                ProtocolError(.badMessage, "a parent trace is limited to \(ForkTraceChunk.maxBytes) bytes"), on: id,
                at: time, loop: loop)
            return
        }
        forkUploads[id, default: []] += piece.utf8
    }

    /// Opens a fork: a new session rebuilt by replaying the parent trace up to `fork.at`, then handed to
    /// this page as if it resumed it there (a `hello` with `resume: "fork"`, logged `sessionForked`), then `hello.config`
    /// applied as a `config` message. The fork's trace starts with the parent's header (its settings,
    /// source and limits, so a replay rebuilds the same state), a `fork` reference, and the parent's lines
    /// up to the moment with the decisions they make; its clock continues the parent's, so
    /// `replay` of the fork reproduces it exactly. Nothing is created when the fork is refused.
    func openFork(_ fork: ForkRequest, hello: Hello, on id: ConnectionID, reading: Int64, loop: WebServerLoop) {
        let now = reading / 1_000_000
        guard let upload = forkUploads.removeValue(forKey: id), !upload.isEmpty else {
            refuse(
                ProtocolError(.badMessage, "a fork needs its parent trace: send it in forkTrace messages before hello"),
                on: id, at: now, loop: loop)
            return
        }
        let parent: Trace
        do {
            parent = try Trace.parse(String(decoding: upload, as: UTF8.self))
        } catch {
            refuse(ProtocolError(.badMessage, "the parent trace cannot be read: \(error)"), on: id, at: now, loop: loop)
            return
        }
        let sessionID = SessionID(number: nextSessionNumber)
        let token = Self.makeToken()
        let rebuilt = Replay.rebuild(parent, through: fork.at, id: sessionID.description, resumeToken: token)
        guard rebuilt.state.isOpen else {
            let opened = parent.lines.first.map { " (its hello is at t=\($0.t))" } ?? ""
            refuse(
                ProtocolError(.badMessage, "field \"fork.at\" is before the parent's session opened\(opened)"), on: id,
                at: now, loop: loop)
            return
        }
        // The settings asked for are applied after the rebuild; refused now, not half-way through.
        var probe = rebuilt.state.config
        do {
            try probe.apply(hello.config)
        } catch {
            refuse(ProtocolError(.badMessage, error.description, field: error.field), on: id, at: now, loop: loop)
            return
        }

        var header = parent.header
        header.session = sessionID.description
        header.server = PlaygroundServer.version
        header.format = Trace.formatVersion
        header.fork = Trace.Fork(parent: fork.parent, parentSession: parent.header.session, at: fork.at)
        let trace = options.logDirectory.map { TraceFile(directory: $0, header: header) }
        for line in Self.interleaved(rebuilt) { trace?.record(line) }

        var state = rebuilt.state
        state.forkedFrom = header.fork
        let hosted = Hosted(id: sessionID, state: state, since: WallClock.iso8601Now(), trace: trace)
        hosted.geometryPacer = GeometryPacer(ratePerSecond: options.maxGeometryPerSecond)
        hosted.connection = id
        hosted.clockOffset = now - fork.at
        sessions[sessionID] = hosted
        links[id]?.session = sessionID
        accept(hosted, on: id, loop: loop)
        // Timers the parent had asked for still run, as far from the moment as they were.
        for pending in rebuilt.pendingTimers {
            let delay = Int(max(0, pending.due - fork.at))
            perform([.schedule(pending.timer, afterMilliseconds: delay)], for: hosted, at: fork.at, loop: loop)
        }
        var inputs = [Array(#"{"type":"hello","version":1,"resume":"fork"}"#.utf8)]
        if !hello.config.isEmpty {
            var fields = hello.config
            fields["type"] = "config"
            inputs.append(JSONValue.object(fields).jsonBytes)
        }
        for input in inputs {
            hosted.trace?.recordInput(input, isJSON: true, at: fork.at)
            let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(input) }
            handle(.message(decoded), on: hosted, at: fork.at, loop: loop)
        }
    }

    /// The parent's lines up to the moment with the decisions they made, each decision after the inputs of
    /// its time (a replay reads only their order among decisions).
    static func interleaved(_ rebuilt: Rebuilt) -> [Trace.Line] {
        var lines: [Trace.Line] = []
        var decisions = rebuilt.decisions[...]
        for line in rebuilt.lines {
            while let next = decisions.first, next.t < line.t {
                lines.append(.decision(t: next.t, next.entry))
                decisions.removeFirst()
            }
            lines.append(line)
        }
        lines += decisions.map { .decision(t: $0.t, $0.entry) }
        return lines
    }
}

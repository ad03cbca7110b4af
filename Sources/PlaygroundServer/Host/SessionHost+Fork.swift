import LWSTransport
import ScrollCore

/// A `forkTrace` message: one piece of the parent trace a fork's `hello` will continue from.
enum ForkTraceChunk {
    /// Whether the text is a `forkTrace` message (a JSON object whose `type` is `"forkTrace"`).
    static func isOne(_ text: [UInt8]) -> Bool {
        (try? JSONParser.parse(text))?.object?["type"] == "forkTrace"
    }
}

/// What bounds a fork, whatever its parent trace says: a parent's header may lower a limit, never raise it.
struct ForkLimits: Sendable {
    /// The most bytes of parent trace (`--max-fork-bytes`).
    var maxBytes: Int
    /// The most lines of parent trace, header included (`--max-fork-lines`).
    var maxLines: Int
    /// The most items a session holds (`--max-session-items`).
    var itemCap: Int
    /// The largest message a page may send (`--max-message`).
    var maxMessageBytes: Int
}

/// A fork's parent, read and replayed off the service thread (``SessionHost/rebuildFork``).
enum ForkRebuild: Sendable {
    /// The fork is refused with this error; nothing was created.
    case refused(ProtocolError)
    /// The session as it stood at the moment, the fork's header, and the trace lines that rebuild it
    /// (encoded, one per line), ready for its trace file.
    case rebuilt(Rebuilt, header: Trace.Header, lines: [UInt8])
}

extension SessionHost {
    /// The most forks queued or being rebuilt at once; one more is refused with `not_ready` (it may send
    /// its hello again; its parent trace is kept).
    static let maxForksInProgress = 4
    /// The most of them from one client address, so one client cannot hold every slot.
    static let maxForksPerPeer = 2

    /// The limits a fork is held to.
    var forkLimits: ForkLimits {
        ForkLimits(
            maxBytes: options.maxForkBytes, maxLines: options.maxForkLines, itemCap: options.maxSessionItems,
            maxMessageBytes: options.maxMessageBytes)
    }

    /// Keeps a piece of a parent trace sent before `hello`, restarting the hello timeout; refuses a piece without
    /// `text` or past `--max-fork-bytes` (what was sent so far is then dropped), and closes with 1013 a connection
    /// whose piece would take the uploads held past `--max-upload-bytes` (or its address past half of it).
    func receiveForkTrace(_ text: [UInt8], on id: ConnectionID, at time: Int64, loop: WebServerLoop) {
        guard let piece = (try? JSONParser.parse(text))?.object?["text"]?.string else {
            refuse(
                ProtocolError(.badMessage, "field \"text\" must be a string (a piece of the parent trace)"), on: id,
                at: time, loop: loop)
            return
        }
        let peer = uploads.peer(of: id) ?? loop.peerAddress(of: id) ?? "unknown"
        switch uploads.append(piece.utf8, for: id, peer: peer) {
        case nil:
            // The hello timeout counts from the last piece: a large trace over a slow link is not closed midway;
            // a connection that goes quiet still is.
            if links[id]?.helloTimer != nil {
                pauseHelloTimer(id, loop: loop)
                armHelloTimer(id, loop: loop)
            }
        case .tooLarge(let maxBytes):
            refuse(
                ProtocolError(.badMessage, "a parent trace is limited to \(maxBytes) bytes (--max-fork-bytes)"),
                on: id, at: time, loop: loop)
        case .serverFull(let maxBytes):
            refuse(
                ProtocolError(
                    .serverFull,
                    "the server holds \(maxBytes) bytes of uploaded traces (--max-upload-bytes): send it again later"),
                on: id, at: time, loop: loop)
            loop.close(id, code: 1013, reason: "uploads full")
        case .peerFull(let maxBytes):
            refuse(
                ProtocolError(
                    .serverFull,
                    "this address holds \(maxBytes) bytes of uploaded traces (half of --max-upload-bytes): "
                        + "send it again later"),
                on: id, at: time, loop: loop)
            loop.close(id, code: 1013, reason: "uploads full")
        }
    }

    /// Opens a fork: a new session rebuilt by replaying the parent trace up to `fork.at`, then handed to
    /// this page as if it resumed it there (a `hello` with `resume: "fork"`, logged
    /// `sessionForked`), then `hello.config`
    /// applied as a `config` message. The rebuild runs off the service thread (``rebuildOffLoop``), so other
    /// sessions are answered meanwhile; the connection waits for its `welcome`. Nothing is created when the
    /// fork is refused.
    func openFork(_ fork: ForkRequest, hello: Hello, on id: ConnectionID, reading: Int64, loop: WebServerLoop) {
        let now = reading / 1_000_000
        guard uploads.hasUpload(for: id) else {
            refuse(
                ProtocolError(.badMessage, "a fork needs its parent trace: send it in forkTrace messages before hello"),
                on: id, at: now, loop: loop)
            return
        }
        let peer = loop.peerAddress(of: id) ?? "unknown"
        if let refusal = forkQueue.refusal(for: peer) {
            // The parent trace stays: the page sends its hello again, not the trace.
            let reason =
                switch refusal {
                case .full(let capacity): "the server is rebuilding \(capacity) forks"
                case .peerFull(let perPeer): "this address already has \(perPeer) forks being rebuilt"
                }
            refuse(
                ProtocolError(.notReady, "\(reason): send hello again shortly (the parent trace is kept)"), on: id,
                at: now, loop: loop)
            return
        }
        guard case (let upload, let held)? = uploads.take(id) else { return }
        // Its hello came in time: the rebuild may take longer than the hello timeout (it is bounded by
        // --max-fork-lines, and the queue by maxForksInProgress).
        links[id]?.forking = hello
        pauseHelloTimer(id, loop: loop)
        let limits = forkLimits
        let token = Self.makeToken()
        let cancellation = ForkCancellation()
        let work: @Sendable () -> ForkRebuild = {
            Self.rebuild(upload, fork: fork, limits: limits, resumeToken: token, cancellation: cancellation)
        }
        forkQueue.enqueue(
            ForkQueue.Entry(connection: id, peer: peer, work: work, cancellation: cancellation, upload: held))
        startNextFork(loop: loop)
    }

    /// Starts the next queued rebuild if none runs: off the service thread (``rebuildOffLoop``), or in place.
    func startNextFork(loop: WebServerLoop) {
        guard let entry = forkQueue.startNext() else { return }
        if let rebuildOffLoop {
            rebuildOffLoop(entry.connection, entry.work)
        } else {
            forkRebuilt(entry.work(), on: entry.connection, loop: loop)
        }
    }

    /// Reads the parent, holds it to the server's limits and replays it to the moment: pure, off the loop.
    /// `cancellation`: the page went; the rebuild stops at the next point it looks (before it starts, and
    /// between reading the parent and replaying it).
    static func rebuild(
        _ upload: [UInt8], fork: ForkRequest, limits: ForkLimits, resumeToken: String,
        cancellation: ForkCancellation? = nil
    ) -> ForkRebuild {
        let abandoned = ForkRebuild.refused(ProtocolError(.notReady, "the fork's page went"))
        if cancellation?.isCancelled == true { return abandoned }
        let lineCount = upload.count(where: { $0 == 0x0A }) + (upload.last == 0x0A ? 0 : 1)
        guard lineCount <= limits.maxLines else {
            return .refused(
                ProtocolError(
                    .badMessage, "a parent trace is limited to \(limits.maxLines) lines (--max-fork-lines)"))
        }
        var parent: Trace
        do {
            parent = try Trace.parse(bytes: upload)
        } catch {
            return .refused(ProtocolError(.badMessage, "the parent trace cannot be read: \(error)"))
        }
        if cancellation?.isCancelled == true { return abandoned }
        parent.header.hold(
            toItemCap: limits.itemCap,
            maxMessageBytes: limits.maxMessageBytes)
        let rebuilt = Replay.rebuild(parent, through: fork.at, id: "fork", resumeToken: resumeToken)
        guard rebuilt.state.lifecycle == .open else {
            let opened = parent.lines.first.map { " (its hello is at t=\($0.t))" } ?? ""
            return .refused(
                ProtocolError(.badMessage, "field \"fork.at\" is before the parent's session opened\(opened)"))
        }
        var header = parent.header
        header.server = PlaygroundServer.version
        header.format = Trace.formatVersion
        header.fork = Trace.Fork(parent: fork.parent, parentSession: parent.header.session, at: fork.at)
        var lines: [UInt8] = []
        for line in rebuilt.traceLines { lines += line.jsonLine }
        return .rebuilt(rebuilt, header: header, lines: lines)
    }

    /// A fork's rebuild is done: the session opens on the connection that asked, if it is still there. The
    /// fork's trace starts with the parent's header (its settings, source and limits as held to the server's,
    /// so a replay rebuilds the same state), a `fork` reference, and the parent's lines up to the moment with
    /// the decisions they make; its clock continues the parent's, so `replay` of the fork reproduces it.
    func forkRebuilt(_ result: ForkRebuild, on id: ConnectionID, loop: WebServerLoop) {
        if let freed = forkQueue.finished() { uploads.release(freed) }
        defer { startNextFork(loop: loop) }
        guard let hello = links[id]?.forking else { return }
        links[id]?.forking = nil
        // A refused fork leaves the page without a session: it has the hello timeout again to say hello.
        defer { if links[id]?.session == nil { armHelloTimer(id, loop: loop) } }
        let reading = clock()
        let now = reading / 1_000_000
        guard case .rebuilt(var rebuilt, var header, let lines) = result, let fork = hello.fork else {
            if case .refused(let error) = result { refuse(error, on: id, at: now, loop: loop) }
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
        // Other pages may have taken the last places while this one was rebuilt.
        let peer = loop.peerAddress(of: id) ?? "unknown"
        guard admitNewSession(from: peer, on: id, at: now, makeRoom: true, loop: loop) else { return }

        let sessionID = SessionID(number: nextSessionNumber)
        rebuilt.rename(sessionID.description)
        header.session = sessionID.description
        let trace = options.logDirectory.map { TraceFile(directory: $0, header: header) }
        trace?.recordEncoded(lines)

        var state = rebuilt.state
        state.forkedFrom = header.fork
        let hosted = Hosted(id: sessionID, state: state, since: WallClock.iso8601Now(), trace: trace)
        hosted.geometryPacer = GeometryPacer(ratePerSecond: options.maxGeometryPerSecond)
        hosted.connection = id
        hosted.peer = peer
        hosted.clockOffset = now - fork.at
        sessions[sessionID] = hosted
        links[id]?.hosted = hosted
        accept(hosted, on: id, welcomed: false, loop: loop)
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
}

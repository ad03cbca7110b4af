import Foundation
import LWSTransport
import ScrollCore
import ScrollLab
import Synchronization
import SystemCalls

/// Connects WebSockets to ScrollCore sessions: decodes messages, runs the reducer, and carries out its
/// effects (sends, timers on the libwebsockets loop, the event log). Also keeps sessions through a
/// disconnect for the resume grace.
///
/// Confined to the service thread: the server calls it there, with the `WebServerLoop` it acts through.
final class SessionHost: WebServerDelegate {
    let options: PlaygroundOptions
    let log: EventLog
    /// The log folder's cap (`--max-log-bytes`); nil when there is no folder or no cap.
    let logBudget: LogBudget?
    /// Set from any thread when the server is stopping: closes are then not resumable.
    let isShuttingDown = Atomic<Bool>(false)

    /// Refused messages a connection may send in one second; one more closes it with 1008.
    static let maxRefusalsPerSecond = 20
    /// Jumps a connection may send in one second; more are refused (`rate_limited`), and count as refused
    /// messages, so a flood of them closes the connection like any other.
    static let maxJumpsPerSecond = 20

    /// The host's one clock: monotonic nanoseconds, read once per input. The core and the trace see it in
    /// milliseconds, the geometry pace in nanoseconds.
    let clock: () -> Int64
    /// Open WebSockets.
    var links: [ConnectionID: Link] = [:]
    /// Connections with a message going out in parts, and what waits behind it (SessionHost+Outbox).
    var outboxes: [ConnectionID: Outbox] = [:]
    var sessions: [SessionID: Hosted] = [:]
    var sessionIDsByToken: [String: SessionID] = [:]
    var nextSessionNumber: Int
    /// Parent traces sent in `forkTrace` messages before `hello`, by connection, within
    /// `--max-upload-bytes` (SessionHost+Fork).
    var uploads: PendingUploads
    /// The estimated bytes of the sessions held for resume, within `--max-held-bytes`
    /// (SessionHost+MemoryBudget).
    var heldSessionBytes = 0
    /// Why no new session can be recorded (`traces/` cannot be created), checked at start and again for
    /// each new session while it lasts; nil when traces can be written.
    var tracesUnavailable: String?
    /// When each kind of recording trouble was last said on standard error (host clock, nanoseconds).
    var recordingNoticeTimes: [String: Int64] = [:]
    /// Forks queued or being rebuilt (SessionHost+Fork).
    var forkQueue = ForkQueue(capacity: SessionHost.maxForksInProgress, perPeer: SessionHost.maxForksPerPeer)
    /// Runs a fork's rebuild off the service thread, then ``forkRebuilt(_:on:loop:)`` on it (set by
    /// PlaygroundServer); nil runs it in place.
    var rebuildOffLoop: ((ConnectionID, @escaping @Sendable () -> ForkRebuild) -> Void)?
    /// Runs a `tryHand` off the service thread, then ``handTried(_:on:loop:)`` on it (set by
    /// PlaygroundServer); nil runs it in place.
    var tryHandOffLoop: ((ConnectionID, @escaping @Sendable () -> Result<JSONValue, ProtocolError>) -> Void)?
    /// Whether a ``scheduleMemoryReturn(loop:)`` is pending.
    var memoryReturnPending = false
    /// `tryHand` trials queued or running, with the trace each holds (SessionHost+HandTrial). A running trial
    /// whose page went still counts until it returns (within a simulated frame).
    var handTrialQueue = HandTrialQueue(
        capacity: SessionHost.maxHandTrialsInProgress, perPeer: SessionHost.maxHandTrialsPerPeer)

    init(
        options: PlaygroundOptions, log: EventLog, logBudget: LogBudget? = nil,
        clock: @escaping () -> Int64 = SessionHost.monotonicNanoseconds()
    ) {
        self.options = options
        self.log = log
        self.logBudget = logBudget
        self.clock = clock
        uploads = PendingUploads(maxPerUpload: options.maxForkBytes, maxBytes: options.maxUploadBytes)
        nextSessionNumber = Self.firstFreeSessionNumber(in: options.logDirectory)
        // Logged, not traced: the server's housekeeping, like an eviction.
        logBudget?.removed = { [log, maxBytes = options.maxLogBytes] session, bytes in
            log.record(
                LogEntry(
                    .traceRemoved, ["reason": "maxLogBytes", "bytes": .int(bytes), "maxLogBytes": .int(maxBytes)]),
                session: session.description)
        }
        logBudget?.enforce()
        checkTracesFolder()
    }

    /// Session ids go on from the traces already in the log folder, so a trace file holds one session,
    /// ever, across restarts.
    private static func firstFreeSessionNumber(in logDirectory: String?) -> Int {
        guard let logDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: "\(logDirectory)/traces")
        else { return 1 }
        let numbers = names.compactMap { name -> Int? in
            guard name.hasSuffix(".jsonl") else { return nil }
            return SessionID(name.dropLast(".jsonl".count))?.number
        }
        return (numbers.max() ?? 0) + 1
    }

    /// Milliseconds since the host started: the core's clock.
    var now: Int64 { clock() / 1_000_000 }

    /// A clock of nanoseconds since the call.
    static func monotonicNanoseconds() -> () -> Int64 {
        #if os(Linux)
            // `ContinuousClock`'s own clock, read directly: its `now`, the `Duration` subtraction and
            // `components` cost about 550 instructions an input under callgrind, this about 60.
            let start = Syscall.bootTimeNanoseconds()
            return { Syscall.bootTimeNanoseconds() - start }
        #else
            let start = ContinuousClock.now
            return {
                let elapsed = ContinuousClock.now - start
                return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            }
        #endif
    }

    // MARK: WebServerDelegate

    func serverStarted(on loop: WebServerLoop) {
        flushTracesEverySecond(loop: loop)
    }

    func connectionOpened(_ id: ConnectionID, on loop: WebServerLoop) {
        links[id] = Link()
        armHelloTimer(id, loop: loop)
    }

    /// Stops the hello timeout while the server works for the connection (a fork's rebuild, a hand trial):
    /// that work is bounded by its own limits and may take longer; ``armHelloTimer(_:loop:)`` starts it again.
    func pauseHelloTimer(_ id: ConnectionID, loop: WebServerLoop) {
        guard let timer = links[id]?.helloTimer else { return }
        loop.cancel(timer)
        links[id]?.helloTimer = nil
    }

    /// Closes the connection if it has not said an accepted `hello` within `--hello-timeout`.
    func armHelloTimer(_ id: ConnectionID, loop: WebServerLoop) {
        let timeout = options.helloTimeoutMilliseconds
        links[id]?.helloTimer = loop.schedule(afterMilliseconds: timeout) { [weak self] loop in
            self?.helloTimedOut(id, after: timeout, loop: loop)
        }
    }

    /// Room for one more WebSocket: connections without a session have a cap of their own, so they cannot
    /// take the places of sessions.
    func admitsConnection() -> Bool {
        links.values.count { $0.session == nil } < options.maxConnecting && activeSessionCount < options.maxSessions
    }

    private func helloTimedOut(_ id: ConnectionID, after milliseconds: Int, loop: WebServerLoop) {
        guard links[id]?.session == nil else { return }
        links[id]?.helloTimer = nil
        // As `--hello-timeout` was given: 10 s, 1.5 s.
        let seconds =
            milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
        refuse(
            ProtocolError(.notReady, "no hello within \(seconds) s"), on: id, at: now, counted: false, loop: loop)
        loop.close(id, code: 1008, reason: "no hello in time")
    }

    func connection(_ id: ConnectionID, received text: [UInt8], on loop: WebServerLoop) {
        // One reading of the clock per input, so the trace holds exactly the time the core saw.
        let reading = clock()
        let time = reading / 1_000_000
        let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(text) }
        guard let hosted = session(of: id) else {
            if links[id]?.forking != nil {
                if case .success(.ping(let pingID)) = decoded {
                    deliver(.pong(id: pingID), to: id, loop: loop)
                } else {
                    refuse(
                        ProtocolError(.notReady, "the fork is being rebuilt: wait for its welcome"), on: id, at: time,
                        loop: loop)
                }
                return
            }
            switch decoded {
            case .success(.hello(let hello)): greet(hello, raw: text, on: id, reading: reading, loop: loop)
            case .success(.ping(let pingID)): deliver(.pong(id: pingID), to: id, loop: loop)
            case .success: refuse(ProtocolError(.notReady, "send hello first"), on: id, at: time, loop: loop)
            case .failure(let error) where error.code == .unknownType && ForkTraceChunk.isOne(text):
                receiveForkTrace(text, on: id, at: time, loop: loop)
            case .failure(let error) where error.code == .unknownType && HandTrial.isOne(text):
                tryHand(text, on: id, at: time, loop: loop)
            case .failure(let error): refuse(error, on: id, at: time, loop: loop)
            }
            return
        }
        switch decoded {
        case .success(.geometry(let report)):
            admitGeometry(report, raw: text, on: hosted, reading: reading, loop: loop)
        case .success(.ping(let pingID)):
            // A ping changes nothing in the session and does not flush held geometry, so pings cannot be
            // used to skip the pace.
            hosted.trace?.recordInput(text, isJSON: true, at: hosted.time(reading))
            handle(.message(.success(.ping(id: pingID))), on: hosted, at: hosted.time(reading), loop: loop)
        case .success(.jump) where links[id]?.jumps.count(at: time, limit: Self.maxJumpsPerSecond, past: true) == true:
            // Dropped before the session sees it, and not traced: the session never received it.
            refuse(
                ProtocolError(.rateLimited, "at most \(Self.maxJumpsPerSecond) jumps a second: this one was dropped"),
                on: id, at: time, loop: loop)
        default:
            flushHeldGeometry(of: hosted, reading: reading, loop: loop)
            hosted.trace?.recordInput(text, isJSON: decoded.isJSON, at: hosted.time(reading))
            handle(.message(decoded), on: hosted, at: hosted.time(reading), loop: loop)
        }
    }

    func connection(_ id: ConnectionID, violated violation: InboundViolation, on loop: WebServerLoop) {
        let kind: InboundViolationKind
        switch violation {
        case .tooLarge: kind = .tooLarge
        case .binary: kind = .binary
        }
        guard let hosted = session(of: id) else {
            if kind == .tooLarge {
                let error = ProtocolError(.tooLarge, "messages are limited to \(options.maxMessageBytes) bytes")
                refuse(error, on: id, at: now, counted: false, loop: loop)
            }
            return
        }
        let reading = clock()
        let time = hosted.time(reading)
        flushHeldGeometry(of: hosted, reading: reading, loop: loop)
        hosted.trace?.record(.violation(t: time, kind))
        handle(.violation(kind), on: hosted, at: time, loop: loop)
    }

    func connectionClosed(_ id: ConnectionID, code: UInt16?, on loop: WebServerLoop) {
        let link = links.removeValue(forKey: id)
        outboxes[id] = nil
        uploads.drop(id)
        // A fork nobody waits for leaves the queue now with its parent (and its rebuild stops if running).
        if link?.forking != nil {
            for freed in forkQueue.cancel(id) { uploads.release(freed) }
        }
        // So does a hand trial: queued, it goes with its trace; running, it stops within a simulated frame.
        for freed in handTrialQueue.cancel(id) { uploads.release(freed) }
        if let timer = link?.helloTimer { loop.cancel(timer) }
        guard let sessionID = link?.session, let hosted = sessions[sessionID], hosted.connection == id else { return }
        hosted.connection = nil
        let resumable = !isShuttingDown.load(ordering: .relaxed)
        let reading = clock()
        let time = hosted.time(reading)
        hosted.disconnectedAt = reading / 1_000_000
        flushHeldGeometry(of: hosted, reading: reading, loop: loop)
        hosted.trace?.record(.closed(t: time, code: code.map(Int.init), resumable: resumable))
        handle(.closed(code: code.map(Int.init), resumable: resumable), on: hosted, at: time, loop: loop)
        // A held session takes no descriptor: its trace reopens when the page resumes.
        hosted.trace?.close()
        guard resumable else { return }
        hosted.graceTimer = loop.schedule(afterMilliseconds: options.resumeGraceMilliseconds) { [weak self] loop in
            self?.expire(sessionID, loop: loop)
        }
        countHeld(hosted, loop: loop)
    }

    /// The session a connection said hello for, if any.
    private func session(of id: ConnectionID) -> Hosted? {
        links[id]?.hosted
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse? {
        APIRoutes.handle(request, host: self)
    }

    // MARK: Sessions

    private func greet(_ hello: Hello, raw: [UInt8], on id: ConnectionID, reading: Int64, loop: WebServerLoop) {
        let time = reading / 1_000_000
        if let token = hello.resume, let sessionID = sessionIDsByToken[token], let hosted = sessions[sessionID] {
            adopt(hosted, on: id, lastRev: hello.lastRev, raw: raw, reading: reading, loop: loop)
            return
        }
        let peer = loop.peerAddress(of: id) ?? "unknown"
        // A fork makes its room once it is rebuilt, so a refused one evicts nothing.
        guard admitNewSession(from: peer, on: id, at: time, makeRoom: hello.fork == nil, loop: loop) else { return }
        if let fork = hello.fork {
            openFork(fork, hello: hello, on: id, reading: reading, loop: loop)
            return
        }
        // The number is taken only if hello is accepted, so a refused hello leaves no gap and no file.
        let sessionID = SessionID(number: nextSessionNumber)
        let state = SessionState(
            id: sessionID.description, resumeToken: Self.makeToken(), config: options.defaults, source: options.source,
            itemCap: options.maxSessionItems)
        var header = Trace.Header(
            session: sessionID.description, server: PlaygroundServer.version, config: options.defaults,
            source: options.source,
            maxMessageBytes: options.maxMessageBytes, itemCap: options.maxSessionItems)
        header.recorder = hello.record
        var trace = options.logDirectory.map { TraceFile(directory: $0, header: header) }
        // Decided before hello is answered, so the welcome can say it; the file is created on acceptance.
        var notRecorded: String?
        if trace != nil, let reason = checkTracesFolder() {
            trace = nil
            notRecorded = reason
        } else if let pending = trace?.pendingBytes, logBudget?.admitsNewTrace(bytes: pending) == false {
            trace = nil
            notRecorded = notRecordedReason
        }
        let hosted = Hosted(id: sessionID, state: state, since: WallClock.iso8601Now(), trace: trace)
        hosted.notRecorded = notRecorded
        hosted.peer = peer
        hosted.geometryPacer = GeometryPacer(ratePerSecond: options.maxGeometryPerSecond)
        hosted.connection = id
        trace?.recordInput(raw, isJSON: true, at: time)
        // Registered before reducing so its log entries find it; dropped again if hello is refused.
        sessions[sessionID] = hosted
        links[id]?.hosted = hosted
        handle(.message(.success(.hello(hello))), on: hosted, at: time, loop: loop)
        guard hosted.state.lifecycle == .open else {
            sessions[sessionID] = nil
            links[id]?.hosted = nil
            return
        }
        accept(hosted, on: id, loop: loop)
    }

    /// A new session's hello was accepted on `id`: its number is taken, its token resumes it, its page's
    /// hello timer stops and its trace file is created. `welcomed`: its `welcome` has gone out already, so a
    /// trace that cannot be created is told in a `state`.
    func accept(_ hosted: Hosted, on id: ConnectionID, welcomed: Bool = true, loop: WebServerLoop) {
        nextSessionNumber += 1
        sessionIDsByToken[hosted.state.resumeToken] = hosted.id
        if let timer = links[id]?.helloTimer {
            loop.cancel(timer)
            links[id]?.helloTimer = nil
        }
        do {
            if try hosted.trace?.create(within: logBudget) == false {
                hosted.trace = nil
                hosted.notRecorded = notRecordedReason
            }
        } catch {
            hosted.trace = nil
            hosted.notRecorded = "not recorded: \(error)"
            noteRecordingTrouble("create", "scroll-playground: session \(hosted.id) is not recorded: \(error)")
            // Its welcome has gone out saying it is recorded: a state says otherwise at once.
            if welcomed { sendRecordingStopped(of: hosted, loop: loop) }
        }
    }

    /// What `welcome` says of a session the full log folder could not take.
    private var notRecordedReason: String {
        "not recorded: the log folder is at --max-log-bytes (\(options.maxLogBytes)) and holds only live or "
            + "resumable sessions' traces"
    }

    /// Why the session is not recorded, or no longer, for its `welcome` and `state`; nil while it is.
    func recordingStopped(of hosted: Hosted) -> String? {
        if let reason = hosted.notRecorded { return reason }
        switch hosted.trace?.stopReason {
        case nil:
            return nil
        case .logFolderFull:
            return "recording stopped: the log folder reached --max-log-bytes (\(options.maxLogBytes)) with only "
                + "live or resumable sessions' traces; the trace ends at the last whole input"
        case .writeFailed(let error):
            return "recording stopped: the trace could not be written (\(error)); it ends at the last whole line"
        case .removed:
            return "recording stopped: the trace file was removed; it is not written again without its header"
        }
    }

    /// Why the session has no trace at all, for its `welcome`; nil when it has one. A trace that stopped
    /// still downloads and replays: that is news for a `state`, so a welcome's reason always means "none".
    func traceMissing(of hosted: Hosted) -> String? {
        guard hosted.trace == nil else { return nil }
        return hosted.notRecorded ?? "not recorded: the server runs without --log-dir DIR"
    }

    /// Gives a reconnecting page its session back, taking it from a connection not yet known to be dead.
    private func adopt(
        _ hosted: Hosted, on id: ConnectionID, lastRev: Int?, raw: [UInt8], reading: Int64, loop: WebServerLoop
    ) {
        let time = hosted.time(reading)
        flushHeldGeometry(of: hosted, reading: reading, loop: loop)
        if let grace = hosted.graceTimer {
            loop.cancel(grace)
            hosted.graceTimer = nil
        }
        if let previous = hosted.connection, previous != id {
            links[previous]?.hosted = nil
            loop.close(previous, code: 1008, reason: "session resumed elsewhere")
        }
        hosted.connection = id
        hosted.disconnectedAt = nil
        // It counts for the address that holds it now.
        hosted.peer = loop.peerAddress(of: id) ?? hosted.peer
        uncountHeld(hosted)
        links[id]?.hosted = hosted
        if let timer = links[id]?.helloTimer {
            loop.cancel(timer)
            links[id]?.helloTimer = nil
        }
        hosted.trace?.reopen()
        noteIfStopped(hosted, loop: nil)
        hosted.trace?.recordInput(raw, isJSON: true, at: time)
        perform(hosted.state.reduce(.resumed(lastRev: lastRev), now: time), for: hosted, at: time, loop: loop)
    }

    /// The resume grace ran out: the session's state goes.
    private func expire(_ sessionID: SessionID, loop: WebServerLoop) {
        guard let hosted = sessions[sessionID], hosted.connection == nil else { return }
        forget(hosted, loop: loop)
    }

    /// Drops a held session: its timers, its place and its token; its trace is written out, and may now be
    /// removed to make room.
    func forget(_ hosted: Hosted, loop: WebServerLoop) {
        uncountHeld(hosted)
        for timer in hosted.timers.values { loop.cancel(timer) }
        if let grace = hosted.graceTimer { loop.cancel(grace) }
        if let trace = hosted.trace {
            let bytes = trace.finish()
            if bytes > 0 { logBudget?.ended(hosted.id, path: trace.path, bytes: bytes) }
        }
        // Held sessions have no connection; were one still linked, its link would no longer find it.
        if let connection = hosted.connection { links[connection]?.hosted = nil }
        sessions[hosted.id] = nil
        sessionIDsByToken[hosted.state.resumeToken] = nil
        scheduleMemoryReturn(loop: loop)
    }

    /// After sessions end the heap keeps their memory (glibc returns little by itself: RSS stayed at 263 MiB a
    /// minute after a churn had ended); a second after the first of a burst of ends, its free pages go back.
    /// At most one pending, so a churn trims once a second at most.
    func scheduleMemoryReturn(loop: WebServerLoop) {
        guard !memoryReturnPending else { return }
        memoryReturnPending = true
        loop.schedule(afterMilliseconds: Self.memoryReturnDelayMilliseconds) { [weak self] loop in
            self?.memoryReturnPending = false
            loop.returnFreeMemory()
        }
    }

    /// How long after a session ends its memory is given back (a burst of ends is trimmed once).
    static let memoryReturnDelayMilliseconds = 1_000

    func handle(_ input: SessionInput, on hosted: Hosted, at time: Int64, loop: WebServerLoop) {
        let effects = hosted.state.handle(input, now: time, maxMessageBytes: options.maxMessageBytes)
        perform(effects, for: hosted, at: time, loop: loop)
    }

    func perform(_ effects: [SessionEffect], for hosted: Hosted, at time: Int64, loop: WebServerLoop) {
        var refusedOn: ConnectionID?
        for effect in effects {
            switch effect {
            case .send(let message):
                guard let connection = hosted.connection else { continue }
                // Sent as it is unless the recording's trouble must be noted: no copy of a `state` to change.
                if let reason = message.kind == .welcome ? traceMissing(of: hosted) : recordingStopped(of: hosted) {
                    deliver(message.noting(recordingStopped: reason), to: connection, loop: loop)
                } else if case .items = message {
                    deliver(message, to: connection, loop: loop)
                } else {
                    // Every geometry's `state` goes this way: encoded here, without handing the message on.
                    deliver(text: message.encoded(), coalescingKey: message.coalescingKey, to: connection, loop: loop)
                }
                if case .error(let error) = message, error.code.isRefusal { refusedOn = connection }
            case .schedule(let timer, let delay):
                if let previous = hosted.timers[timer] { loop.cancel(previous) }
                let sessionID = hosted.id
                hosted.timers[timer] = loop.schedule(afterMilliseconds: delay) { [weak self] loop in
                    self?.timerFired(timer, session: sessionID, loop: loop)
                }
            case .cancel(let timer):
                if let handle = hosted.timers.removeValue(forKey: timer) { loop.cancel(handle) }
            case .log(let entry):
                record(entry, session: hosted, at: time, loop: loop)
            }
        }
        if let connection = refusedOn, countRefusal(on: connection, at: time) {
            hosted.trace?.record(.violation(t: time, .tooManyRefusals))
            handle(.violation(.tooManyRefusals), on: hosted, at: time, loop: loop)
            loop.close(connection, code: 1008, reason: "too many refused messages")
        }
    }

    /// Counts a refused message; true once the connection is past ``maxRefusalsPerSecond``.
    private func countRefusal(on id: ConnectionID, at time: Int64) -> Bool {
        links[id]?.refusals.count(at: time, limit: Self.maxRefusalsPerSecond) ?? false
    }

    private func timerFired(_ timer: TimerID, session sessionID: SessionID, loop: WebServerLoop) {
        guard let hosted = sessions[sessionID] else { return }
        hosted.timers[timer] = nil
        let time = hosted.time(clock())
        hosted.trace?.record(.timer(t: time, timer))
        perform(hosted.state.reduce(.timerFired(timer), now: time), for: hosted, at: time, loop: loop)
        // A held session's timers still run: a page load or an arrival may add items while it waits.
        if hosted.graceTimer != nil, sessions[sessionID] === hosted { countHeld(hosted, loop: loop) }
    }

    /// Answers a message refused before hello with `error` and logs `protocolError`; the connection stays,
    /// unless it is past ``maxRefusalsPerSecond`` (with `counted`).
    func refuse(_ error: ProtocolError, on id: ConnectionID, at time: Int64, counted: Bool = true, loop: WebServerLoop)
    {
        for effect in SessionState.refusal(error) {
            switch effect {
            case .send(let message): deliver(message, to: id, loop: loop)
            case .log(let entry): record(entry, session: nil, fallbackName: id.description, loop: loop)
            case .schedule, .cancel: break
            }
        }
        guard counted, countRefusal(on: id, at: time) else { return }
        refuse(
            ProtocolError(.tooManyErrors, "too many refused messages in one second: the connection closes (1008)"),
            on: id, at: time, counted: false, loop: loop)
        loop.close(id, code: 1008, reason: "too many refused messages")
    }

    /// Stamps and fans out an event; a session's own events also go to its page, live.
    private func record(
        _ entry: LogEntry, session hosted: Hosted?, fallbackName: String = "-", at time: Int64? = nil,
        loop: WebServerLoop
    ) {
        let bytes = log.record(entry, session: hosted?.state.id ?? fallbackName)
        guard let hosted else { return }
        hosted.trace?.recordDecision(bytes, at: time ?? now)
        if let connection = hosted.connection {
            deliver(text: ServerMessage.eventMessage(encodedRecord: bytes), to: connection, loop: loop)
        }
    }

    /// Flushes every open trace. With a loop, a page whose trace stops now is told at once in a `state`.
    func flushTraces(notifying loop: WebServerLoop? = nil) {
        for hosted in sessions.values {
            guard let trace = hosted.trace else { continue }
            let wasStopped = trace.isStopped
            trace.flush()
            guard trace.isStopped, !wasStopped else { continue }
            noteIfStopped(hosted, loop: loop)
        }
        log.reopenIfRemoved()
    }

    /// Traces are block-buffered (a line per frame per session is too many writes); this keeps the files
    /// at most a second behind for people reading them live.
    private func flushTracesEverySecond(loop: WebServerLoop) {
        guard options.logDirectory != nil else { return }
        loop.schedule(afterMilliseconds: 1000) { [weak self] loop in
            self?.flushTraces(notifying: loop)
            self?.flushTracesEverySecond(loop: loop)
        }
    }

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

extension Result<ClientMessage, ProtocolError> {
    /// Whether the message was JSON (a trace keeps it as `message`, else as `text`).
    var isJSON: Bool {
        if case .failure(let error) = self, error.code == .badJSON { return false }
        return true
    }
}

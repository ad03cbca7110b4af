import LWSTransport
import ScrollCore
import Synchronization

/// Connects WebSockets to ScrollCore sessions: decodes messages, runs the reducer, and carries out its
/// effects (sends, timers on the libwebsockets loop, the event log). Also keeps sessions through a
/// disconnect for the resume grace.
///
/// Confined to the service thread, like the `WebServer` that calls it.
final class SessionHost: WebServerDelegate {
    /// One session and what the transport holds for it.
    final class Hosted {
        var state: SessionState
        var connection: ConnectionID?
        var timers: [TimerID: TimerHandle] = [:]
        var graceTimer: TimerHandle?
        let since: String
        let trace: TraceFile?
        /// Paces its geometry (`--max-geometry-rate`); set when the session opens.
        var geometryPacer = GeometryPacer<HeldGeometry>(ratePerSecond: 240)

        init(state: SessionState, since: String, trace: TraceFile?) {
            self.state = state
            self.since = since
            self.trace = trace
        }
    }

    let options: PlaygroundOptions
    let log: EventLog
    /// Set once, right after the server is made (the server needs its delegate first).
    var server: WebServer!
    /// Set from any thread when the server is stopping: closes are then not resumable.
    let isShuttingDown = Atomic<Bool>(false)

    private let clock = ContinuousClock()
    private let startedAt: ContinuousClock.Instant
    /// Open WebSockets, with the session each belongs to once it said hello.
    private var connections: [ConnectionID: String?] = [:]
    private(set) var sessions: [String: Hosted] = [:]
    private var sessionIDsByToken: [String: String] = [:]
    private var nextSessionNumber = 1

    init(options: PlaygroundOptions, log: EventLog) {
        self.options = options
        self.log = log
        startedAt = clock.now
    }

    /// Milliseconds since the host started: the core's clock.
    var now: Int64 {
        let elapsed = clock.now - startedAt
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    // MARK: WebServerDelegate

    func connectionOpened(_ id: ConnectionID) {
        connections[id] = .some(nil)
    }

    func connection(_ id: ConnectionID, received text: [UInt8]) {
        // One reading of the clock per input, so the trace holds exactly the time the core saw.
        let time = now
        let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(text) }
        guard let hosted = session(of: id) else {
            switch decoded {
            case .success(.hello(let hello)): greet(hello, raw: text, on: id, at: time)
            case .success(.ping(let pingID)): server.send(ServerMessage.pong(id: pingID).encoded(), to: id)
            case .success: refuse(ProtocolError(.notReady, "send hello first"), on: id)
            case .failure(let error): refuse(error, on: id)
            }
            return
        }
        if case .success(.geometry(let report)) = decoded {
            admitGeometry(report, raw: text, on: hosted, at: time)
            return
        }
        flushHeldGeometry(of: hosted, before: decoded, at: time)
        hosted.trace?.record(.input(t: time, text: text))
        handle(.message(decoded), on: hosted, at: time)
    }

    func connection(_ id: ConnectionID, violated violation: InboundViolation) {
        let kind: InboundViolationKind = violation == .tooLarge ? .tooLarge : .binary
        guard let hosted = session(of: id) else {
            if kind == .tooLarge {
                refuse(ProtocolError(.tooLarge, "messages are limited to \(options.maxMessageBytes) bytes"), on: id)
            }
            return
        }
        let time = now
        flushHeldGeometry(of: hosted, at: time)
        hosted.trace?.record(.violation(t: time, kind))
        handle(.violation(kind), on: hosted, at: time)
    }

    func connectionClosed(_ id: ConnectionID, code: UInt16?) {
        guard let hosted = session(of: id), hosted.connection == id else {
            connections[id] = nil
            return
        }
        connections[id] = nil
        hosted.connection = nil
        let resumable = !isShuttingDown.load(ordering: .relaxed)
        let time = now
        flushHeldGeometry(of: hosted, at: time)
        hosted.trace?.record(.closed(t: time, code: code.map(Int.init), resumable: resumable))
        handle(.closed(code: code.map(Int.init), resumable: resumable), on: hosted, at: time)
        hosted.trace?.flush()
        guard resumable else { return }
        let sessionID = hosted.state.id
        hosted.graceTimer = server.schedule(afterMilliseconds: options.resumeGraceMilliseconds) { [weak self] in
            self?.expire(sessionID)
        }
    }

    /// The session a connection said hello for, if any.
    private func session(of id: ConnectionID) -> Hosted? {
        (connections[id] ?? nil).flatMap { sessions[$0] }
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse? {
        APIRoutes.handle(request, host: self)
    }

    // MARK: Sessions

    private func greet(_ hello: Hello, raw: [UInt8], on id: ConnectionID, at time: Int64) {
        if let token = hello.resume, let sessionID = sessionIDsByToken[token], let hosted = sessions[sessionID] {
            adopt(hosted, on: id, lastRev: hello.lastRev, raw: raw, at: time)
            return
        }
        let number = nextSessionNumber
        nextSessionNumber += 1
        let sessionID = "s\(number)"
        let state = SessionState(
            id: sessionID, resumeToken: Self.makeToken(), config: options.defaults, source: options.source)
        let header = Trace.Header(
            session: sessionID, server: PlaygroundServer.version, config: options.defaults, source: options.source,
            maxMessageBytes: options.maxMessageBytes)
        let trace = options.logDirectory.flatMap { try? TraceFile(directory: $0, header: header) }
        let hosted = Hosted(state: state, since: WallClock.iso8601Now(), trace: trace)
        hosted.geometryPacer = GeometryPacer(ratePerSecond: options.maxGeometryPerSecond)
        hosted.connection = id
        trace?.record(.input(t: time, text: raw))
        // Registered before reducing so its log entries find it; dropped again if hello is refused.
        sessions[sessionID] = hosted
        connections[id] = sessionID
        handle(.message(.success(.hello(hello))), on: hosted, at: time)
        if hosted.state.isOpen {
            sessionIDsByToken[state.resumeToken] = sessionID
        } else {
            sessions[sessionID] = nil
            connections[id] = .some(nil)
        }
    }

    /// Gives a reconnecting page its session back, taking it from a connection not yet known to be dead.
    private func adopt(_ hosted: Hosted, on id: ConnectionID, lastRev: Int?, raw: [UInt8], at time: Int64) {
        flushHeldGeometry(of: hosted, at: time)
        if let grace = hosted.graceTimer {
            server.cancel(grace)
            hosted.graceTimer = nil
        }
        if let previous = hosted.connection, previous != id {
            connections[previous] = .some(nil)
            server.close(previous, code: 1008, reason: "session resumed elsewhere")
        }
        hosted.connection = id
        connections[id] = hosted.state.id
        hosted.trace?.record(.input(t: time, text: raw))
        perform(hosted.state.reduce(.resumed(lastRev: lastRev), now: time), for: hosted, at: time)
    }

    /// The resume grace ran out: the session's state goes.
    private func expire(_ sessionID: String) {
        guard let hosted = sessions[sessionID], hosted.connection == nil else { return }
        for timer in hosted.timers.values { server.cancel(timer) }
        hosted.trace?.flush()
        sessions[sessionID] = nil
        sessionIDsByToken[hosted.state.resumeToken] = nil
    }

    func handle(_ input: SessionInput, on hosted: Hosted, at time: Int64) {
        let effects = hosted.state.handle(input, now: time, maxMessageBytes: options.maxMessageBytes)
        perform(effects, for: hosted, at: time)
    }

    private func perform(_ effects: [SessionEffect], for hosted: Hosted, at time: Int64) {
        for effect in effects {
            switch effect {
            case .send(let message):
                guard let connection = hosted.connection else { continue }
                server.send(message.encoded(), to: connection, coalescingKey: message.coalescingKey)
            case .schedule(let timer, let delay):
                if let previous = hosted.timers[timer] { server.cancel(previous) }
                let sessionID = hosted.state.id
                hosted.timers[timer] = server.schedule(afterMilliseconds: delay) { [weak self] in
                    self?.timerFired(timer, session: sessionID)
                }
            case .cancel(let timer):
                if let handle = hosted.timers.removeValue(forKey: timer) { server.cancel(handle) }
            case .log(let entry):
                record(entry, session: hosted, at: time)
            }
        }
    }

    private func timerFired(_ timer: TimerID, session sessionID: String) {
        guard let hosted = sessions[sessionID] else { return }
        hosted.timers[timer] = nil
        let time = now
        hosted.trace?.record(.timer(t: time, timer))
        perform(hosted.state.reduce(.timerFired(timer), now: time), for: hosted, at: time)
    }

    /// Answers a message refused before hello with `error` and logs `protocolError`; the connection stays.
    private func refuse(_ error: ProtocolError, on id: ConnectionID) {
        for effect in SessionState.refusal(error) {
            switch effect {
            case .send(let message): server.send(message.encoded(), to: id)
            case .log(let entry): record(entry, session: nil, fallbackName: id.description)
            case .schedule, .cancel: break
            }
        }
    }

    /// Stamps and fans out an event; a session's own events also go to its page, live.
    private func record(_ entry: LogEntry, session hosted: Hosted?, fallbackName: String = "-", at time: Int64? = nil) {
        let record = log.record(entry, session: hosted?.state.id ?? fallbackName)
        guard let hosted else { return }
        hosted.trace?.recordDecision(record, at: time ?? now)
        if let connection = hosted.connection {
            server.send(ServerMessage.event(record).encoded(), to: connection)
        }
    }

    /// Flushes every open trace.
    func flushTraces() {
        for hosted in sessions.values { hosted.trace?.flush() }
    }

    /// Traces are block-buffered (a line per frame per session is too many writes); this keeps the files
    /// at most a second behind for people reading them live.
    func flushTracesEverySecond() {
        guard options.logDirectory != nil else { return }
        server.schedule(afterMilliseconds: 1000) { [weak self] in
            self?.flushTraces()
            self?.flushTracesEverySecond()
        }
    }

    private static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

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
    private var now: Int64 {
        let elapsed = clock.now - startedAt
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    // MARK: WebServerDelegate

    func connectionOpened(_ id: ConnectionID) {
        connections[id] = .some(nil)
    }

    func connection(_ id: ConnectionID, received text: [UInt8]) {
        let sessionID = connections[id] ?? nil
        let hosted = sessionID.flatMap { sessions[$0] }
        // One reading of the clock per input, so the trace holds exactly the time the core saw.
        let time = now
        hosted?.trace?.recordInput(text, at: time)
        let message: ClientMessage
        do {
            message = try ClientMessage.decode(text)
        } catch {
            refuse(error, on: id, session: hosted)
            return
        }
        switch message {
        case .ping(let pingID):
            server.send(ServerMessage.pong(id: pingID).encoded(), to: id)
        case .hello(let hello):
            if let hosted {
                run(.helloReceived(hello), on: hosted, at: time)
            } else {
                greet(hello, raw: text, on: id, at: time)
            }
        default:
            guard let hosted else {
                refuse(ProtocolError(.notReady, "send hello first"), on: id, session: nil)
                return
            }
            switch message {
            case .geometry(let report): run(.geometryReceived(report), on: hosted, at: time)
            case .config(let fields): run(.configReceived(fields), on: hosted, at: time)
            case .refresh: run(.refreshRequested, on: hosted, at: time)
            case .loadMore: run(.loadMoreRequested, on: hosted, at: time)
            case .reset: run(.resetRequested, on: hosted, at: time)
            case .hello, .ping: break
            }
        }
    }

    func connection(_ id: ConnectionID, violated violation: InboundViolation) {
        let hosted = (connections[id] ?? nil).flatMap { sessions[$0] }
        switch violation {
        case .tooLarge:
            refuse(ProtocolError(.tooLarge, "messages are limited to \(options.maxMessageBytes) bytes"), on: id, session: hosted)
        case .binary:
            record(LogEntry(.protocolError, ["code": "binary_frame", "message": "binary frames are not supported"]),
                   session: hosted, fallbackName: id.description)
        }
    }

    func connectionClosed(_ id: ConnectionID, code: UInt16?) {
        guard let sessionID = connections.removeValue(forKey: id) ?? nil, let hosted = sessions[sessionID],
            hosted.connection == id
        else { return }
        hosted.connection = nil
        let resumable = !isShuttingDown.load(ordering: .relaxed)
        var data: [String: JSONValue] = ["resumable": .bool(resumable)]
        data["code"] = code.map { .int(Int($0)) } ?? .null
        let time = now
        hosted.trace?.recordClosed(code: code, at: time)
        record(LogEntry(.sessionClosed, data), session: hosted, at: time)
        guard resumable else { return }
        hosted.graceTimer = server.schedule(afterMilliseconds: options.resumeGraceMilliseconds) { [weak self] in
            self?.expire(sessionID)
        }
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
        let trace = options.logDirectory.flatMap { directory in
            try? TraceFile(directory: directory, session: sessionID, defaults: options.defaults, source: options.source)
        }
        let hosted = Hosted(state: state, since: WallClock.iso8601Now(), trace: trace)
        hosted.connection = id
        trace?.recordInput(raw, at: time)
        // Registered before reducing so its log entries find it; dropped again if hello is refused.
        sessions[sessionID] = hosted
        connections[id] = sessionID
        run(.helloReceived(hello), on: hosted, at: time)
        if hosted.state.isOpen {
            sessionIDsByToken[state.resumeToken] = sessionID
        } else {
            sessions[sessionID] = nil
            connections[id] = .some(nil)
        }
    }

    /// Gives a reconnecting page its session back, taking it from a connection not yet known to be dead.
    private func adopt(_ hosted: Hosted, on id: ConnectionID, lastRev: Int?, raw: [UInt8], at time: Int64) {
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
        hosted.trace?.recordInput(raw, at: time)
        run(.resumed(lastRev: lastRev), on: hosted, at: time)
    }

    /// The resume grace ran out: the session's state goes.
    private func expire(_ sessionID: String) {
        guard let hosted = sessions[sessionID], hosted.connection == nil else { return }
        for timer in hosted.timers.values { server.cancel(timer) }
        hosted.trace?.close()
        sessions[sessionID] = nil
        sessionIDsByToken[hosted.state.resumeToken] = nil
    }

    private func run(_ event: SessionEvent, on hosted: Hosted, at time: Int64) {
        let effects = hosted.state.reduce(event, now: time)
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
        hosted.trace?.recordTimer(timer, at: time)
        run(.timerFired(timer), on: hosted, at: time)
    }

    /// Answers a refused message with `error`, logs `protocolError`, and keeps the session going.
    private func refuse(_ error: ProtocolError, on id: ConnectionID, session hosted: Hosted?) {
        server.send(ServerMessage.error(error).encoded(), to: id)
        var data: [String: JSONValue] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        if let ref = error.ref { data["ref"] = .int(ref) }
        record(LogEntry(.protocolError, data), session: hosted, fallbackName: id.description)
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

    /// Flushes every open trace (at shutdown).
    func flushTraces() {
        for hosted in sessions.values { hosted.trace?.flush() }
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

import CLibWebSockets
import SystemCalls

/// The libwebsockets side of ``WebServer``: owns the lws context, its C tables, the connections
/// and the timers, and the ``FrontDoor`` whose connections it adopts. Everything but ``execute(_:)`` and
/// ``stop()`` runs on the service thread: ``WebServer`` exposes the rest only through ``WebServerLoop``.
///
/// This file has the service loop, the loop's API (send, close, timers) and the state; the rest is in
/// extensions: the context and its C tables (`LWSServer+Context.swift`), lws's callbacks
/// (`LWSServer+Callbacks.swift`), WebSocket upgrade and receive (`LWSServer+WebSocket.swift`) and HTTP
/// answers (`LWSServer+HTTP.swift`). When a WebSocket's queue is written is ``LWSWriteGate``'s alone.
final class LWSServer: LWSCallbackHandler {

    /// Where the server stands, from made to destroyed.
    enum Phase {
        /// Created, `run()` not called yet.
        case idle
        /// Inside `run()`, serving.
        case running
        /// `stop()` seen: closing WebSockets with 1001, waiting for their closing handshakes.
        case draining
        /// Inside `lws_context_destroy`: lws closes what is left; nothing may be written.
        case destroying
        /// The context is gone.
        case finished
    }

    let configuration: WebServerConfiguration
    private(set) var port = 0
    var delegate: (any WebServerDelegate)?

    let upgradePolicy: UpgradePolicy
    let hostPolicy: HostPolicy
    let pathPolicy: StaticPathPolicy
    let memory = LWSMemory()
    // HTTP answers write with it directly; WebSockets only through `gate`.
    let writer: LWSWriter
    let gate: LWSWriteGate
    // The epoll loop the context runs on; it outlives the context.
    let loop: LWSEventLoop
    var context: OpaquePointer?
    var vhost: OpaquePointer?
    // What other threads hand the service thread: execute(_:)'s work, and stop().
    let inbox = LWSInbox<@Sendable (WebServerLoop) -> Void>()
    // lws's way back to handle(_:_:_:_:_:); it lives as long as the server, so longer than the context.
    lazy var callbackRoute = LWSCallbackRoute(self)
    // Owns the listening socket; lws listens on nothing (its vhost is CONTEXT_PORT_NO_LISTEN_SERVER).
    let door: FrontDoor
    private var adoptionScheduled = false
    // Set by LWS_CALLBACK_WSI_CREATE while lws adopts a socket: lws made a wsi for it, whose WSI_DESTROY
    // will tell the door the descriptor is free again.
    var adoptionCreatedWSI = false

    private(set) var phase = Phase.idle
    private var serviceThread: ThreadID?
    // By connection number; looked up for every message read and every answer sent.
    var connections = ConnectionTable<LWSServerConnection>()
    var httpResponses: [UInt64: PendingHTTPResponse] = [:]
    private var timers: [UInt64: ScheduledTimer] = [:]
    var lastConnectionID: UInt64 = 0
    var lastHTTPID: UInt64 = 0
    private var lastTimerID: UInt64 = 0
    private var graceExpired = false

    private struct ScheduledTimer {
        let timer: UnsafeMutablePointer<shim_ev_timer>
        let work: (WebServerLoop) -> Void
    }

    /// How many WebSockets may be open: the configured cap, lowered so that plain HTTP (e.g. `/healthz`)
    /// still finds a free descriptor when they are all taken.
    let effectiveMaxConnections: Int
    /// The descriptors left for connections (the front door's and libwebsockets' together).
    let connectionDescriptorLimit: Int

    init(configuration: WebServerConfiguration, delegate: any WebServerDelegate) throws {
        try Self.validate(configuration)
        guard let pathPolicy = StaticPathPolicy(publicDirectory: configuration.publicDirectory) else {
            throw WebServerError.publicDirectoryMissing(configuration.publicDirectory)
        }
        self.configuration = configuration
        self.delegate = delegate
        self.pathPolicy = pathPolicy
        let descriptors = Self.connectionDescriptorLimit(configuration)
        connectionDescriptorLimit = descriptors
        // Keep an eighth of the descriptors (at least 4) for HTTP requests and upgrades being refused.
        effectiveMaxConnections = min(configuration.maxConnections, max(1, descriptors - max(4, descriptors / 8)))
        self.upgradePolicy = UpgradePolicy(
            webSocketPath: configuration.webSocketPath,
            allowedOrigins: configuration.allowedOrigins,
            maxConnections: effectiveMaxConnections
        )
        self.hostPolicy = HostPolicy(listenHost: configuration.host)
        let writer = LWSWriter()
        self.writer = writer
        gate = LWSWriteGate(writer: writer, maxQueuedBytes: configuration.maxOutboundBytes)
        LWSLog.installIfNeeded()
        door = try FrontDoor(
            host: configuration.host, port: configuration.port,
            limits: FrontDoor.Limits(
                maxHeadBytes: configuration.maxRequestHeaderBytes,
                headTimeout: .milliseconds(configuration.requestHeadTimeoutMilliseconds),
                maxWaiting: max(1, min(configuration.maxPendingRequestHeads, descriptors / 4)),
                // Two below what lws may hold (fd_limit_per_thread below), so that lws never refuses an adoption.
                maxConnections: max(2, descriptors - 2)
            ),
            subprotocol: configuration.subprotocol, hostPolicy: hostPolicy)
        port = door.port
        loop = try LWSEventLoop()
        do {
            try createContext()
        } catch {
            destroyContext()
            throw error
        }
    }

    deinit {
        // Only reached without run() (or after it): nothing else can be using the context then.
        if context != nil {
            phase = .destroying
            destroyContext()
        }
    }

    // MARK: - Service loop

    func run() {
        precondition(phase == .idle, "WebServer.run() may be called once")
        serviceThread = .current
        phase = .running
        let server = UnownedServer(server: self)
        // Called on the door's thread: execute() is thread-safe, and the work runs here.
        door.start { server.server.execute { _ in server.server.scheduleAdoption() } }
        delegate?.serverStarted(on: WebServerLoop(self))
        drainInbox()
        while phase == .running, context != nil {
            loop.runOnce()
            gate.flushAnswers()
        }
        phase = .draining
        // No new connections from here: the listening socket closes, and connections the door still held or
        // had not handed on yet close unanswered.
        door.stop()
        for connection in connections.values {
            requestClose(connection, code: 1001, reason: "server shutting down", reading: false)
        }
        if !connections.isEmpty, context != nil {
            let grace = schedule(afterMilliseconds: configuration.shutdownGraceMilliseconds) { [unowned self] _ in
                self.graceExpired = true
            }
            while !connections.isEmpty, !graceExpired {
                loop.runOnce()
                gate.flushAnswers()
            }
            cancel(grace)
        }
        // Close the inbox, then run what it still holds: work is dropped only if it arrives later.
        inbox.close()
        drainInbox()
        phase = .destroying
        destroyContext()
        phase = .finished
        delegate = nil
    }

    // MARK: - Adopting the front door's connections

    /// Adopts the door's connections from a timer rather than from the EVENT_WAIT_CANCELLED callback that
    /// brought the news: lws services an adopted socket at once (it already holds the request head), and a
    /// timer runs before lws walks its table of descriptors, not in the middle of that walk.
    private func scheduleAdoption() {
        guard !adoptionScheduled, phase == .running else { return }
        adoptionScheduled = true
        _ = schedule(afterMilliseconds: 0) { [unowned self] _ in
            self.adoptionScheduled = false
            self.adoptHandoffs()
        }
    }

    private func adoptHandoffs() {
        for handoff in door.takeHandoffs() {
            guard phase == .running, let vhost else {
                Syscall.close(handoff.fd)
                door.released()
                continue
            }
            adoptionCreatedWSI = false
            // lws copies the bytes into the wsi's input list (adopt.c) and parses them before reading the
            // socket; on failure it closes the socket itself. Callbacks for the request may run inside.
            _ = handoff.bytes.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    lws_adopt_socket_vhost_readbuf(vhost, handoff.fd, $0.baseAddress, $0.count)
                }
            }
            // Without a wsi there will be no WSI_DESTROY to free the door's count.
            if !adoptionCreatedWSI { door.released() }
        }
    }

    /// Connections handed to lws and not yet closed by it (for tests).
    var adoptedConnectionCount: Int { door.handedOnCount }

    func stop() {
        inbox.requestStop()
    }

    func execute(_ work: @escaping @Sendable (WebServerLoop) -> Void) {
        _ = inbox.submit(work)
    }

    // Several cancels can collapse into one callback: take the whole inbox each time.
    func drainInbox() {
        let (work, stopRequested) = inbox.take()
        for item in work { item(WebServerLoop(self)) }
        if stopRequested, phase == .running { phase = .draining }
    }

    /// Stops the process if called off the service thread: a ``WebServerLoop`` smuggled to another thread
    /// (it is not `Sendable`, but `unsafe` code can still move it) would race the loop's state. Checked in
    /// every build, as SwiftNIO's `preconditionInEventLoop` is; BENCHMARKS.md has what it costs.
    func preconditionOnServiceThread() {
        precondition(
            serviceThread.map { $0 == .current } ?? true,
            "WebServerLoop used off the service thread (use WebServer.execute(_:) from other threads)"
        )
    }

    private var canWrite: Bool { phase == .running || phase == .draining }

    // MARK: - WebSocket API

    func send(_ bytes: [UInt8], to id: ConnectionID, coalescingKey: String?) {
        preconditionOnServiceThread()
        guard canWrite, let connection = connections[id.rawValue], connection.state == .open else { return }
        guard gate.enqueue(bytes, on: connection, coalescingKey: coalescingKey) else {
            // The client reads slower than the server writes. Holding more would let one client take
            // the server's memory; what is dropped the delegate can deliver again on resume, so the client's
            // messages still count until the socket is gone.
            requestClose(connection, code: 1008, reason: "outbound limit exceeded", reading: true)
            return
        }
    }

    func close(_ id: ConnectionID, code: UInt16, reason: String) {
        preconditionOnServiceThread()
        guard canWrite, let connection = connections[id.rawValue] else { return }
        requestClose(connection, code: code, reason: reason, reading: false)
    }

    func outboundBytes(of id: ConnectionID) -> Int {
        preconditionOnServiceThread()
        return connections[id.rawValue]?.output.queuedBytes ?? 0
    }

    /// Closes an open connection once its queue is written; `reading`: its messages are still delivered
    /// meanwhile.
    func requestClose(_ connection: LWSServerConnection, code: UInt16, reason: String, reading: Bool) {
        guard connection.state == .open else { return }
        connection.state = .closing(code: code, reason: reason, reading: reading)
        gate.closeAfterQueue(connection)
        // A client that does not read never makes the socket writeable: drop it if the close frame has not
        // gone out in time. Once it has, lws waits for the peer's acknowledgement under its own timeout.
        let id = connection.id.rawValue
        connection.closeTimer = schedule(afterMilliseconds: configuration.closeTimeoutMilliseconds) {
            [unowned self] _ in
            guard let connection = self.connections[id] else { return }
            connection.closeTimer = nil
            switch connection.state {
            case .closeSent: break
            default:
                // Only lws may free the wsi: this asks it to close the connection on its next service pass.
                lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
                // That is an lws timer due now, set outside an lws callback: have lws run it at once.
                if let context = self.context { LWSEventLoop.wake(context) }
            }
        }
    }

    // MARK: - Timers

    func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping (WebServerLoop) -> Void) -> TimerHandle {
        preconditionOnServiceThread()
        lastTimerID += 1
        let id = lastTimerID
        guard context != nil, phase != .destroying, phase != .finished else { return TimerHandle(rawValue: id) }
        let timer = UnsafeMutablePointer<shim_ev_timer>.allocate(capacity: 1)
        timer.initialize(to: shim_ev_timer())
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        timer.pointee.id = id
        timers[id] = ScheduledTimer(timer: timer, work: work)
        // The timer must stay at this address until it fires or is cancelled; it is freed only then.
        loop.startTimer(timer, afterMilliseconds: milliseconds, callback: lwsServerTimerFired)
        return TimerHandle(rawValue: id)
    }

    func cancel(_ handle: TimerHandle) {
        preconditionOnServiceThread()
        guard let entry = timers.removeValue(forKey: handle.rawValue) else { return }
        loop.stopTimer(entry.timer)
        entry.timer.deallocate()
    }

    fileprivate func timerFired(_ id: UInt64) {
        // libev has already stopped a one-shot timer before calling back: it may be freed.
        guard let entry = timers.removeValue(forKey: id) else { return }
        entry.timer.deallocate()
        entry.work(WebServerLoop(self))
    }

    func cancelAllTimers() {
        for entry in timers.values {
            loop.stopTimer(entry.timer)
            entry.timer.deallocate()
        }
        timers.removeAll()
    }

}

/// The server, for the front door's thread to call ``LWSServer/execute(_:)`` on: that thread is joined in
/// ``LWSServer/run()`` before the server can go away, and the work it queues runs on the service thread.
private struct UnownedServer: @unchecked Sendable {
    unowned(unsafe) let server: LWSServer
}

// The watcher is the first member of shim_ev_timer, which carries the owning server and the timer id.
private func lwsServerTimerFired(_ loop: OpaquePointer?, _ watcher: UnsafeMutablePointer<ev_timer>?, _ revents: Int32) {
    guard let watcher, let owner = shim_ev_timer_from_watcher(watcher).pointee.owner else { return }
    let id = shim_ev_timer_from_watcher(watcher).pointee.id
    Unmanaged<LWSServer>.fromOpaque(owner).takeUnretainedValue().timerFired(id)
}

import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// The libwebsockets side of ``WebServer``: owns the lws context, its C tables, the connections
/// and the timers, and the ``FrontDoor`` whose connections it adopts. Everything but ``execute(_:)`` and
/// ``stop()`` runs on the service thread: ``WebServer`` exposes the rest only through ``WebServerLoop``.
final class LWSServer: LWSCallbackHandler {

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

    private let upgradePolicy: UpgradePolicy
    private let hostPolicy: HostPolicy
    private let pathPolicy: StaticPathPolicy
    private let memory = LWSMemory()
    private let writer = LWSWriter()
    // The epoll loop the context runs on; it outlives the context.
    private let loop: LWSEventLoop
    private var context: OpaquePointer?
    private var vhost: OpaquePointer?
    // What other threads hand the service thread: execute(_:)'s work, and stop().
    private let inbox = LWSInbox<@Sendable (WebServerLoop) -> Void>()
    // lws's way back to handle(_:_:_:_:_:); it lives as long as the server, so longer than the context.
    private lazy var callbackRoute = LWSCallbackRoute(self)
    // Owns the listening socket; lws listens on nothing (its vhost is CONTEXT_PORT_NO_LISTEN_SERVER).
    private let door: FrontDoor
    private var adoptionScheduled = false
    // Set by LWS_CALLBACK_WSI_CREATE while lws adopts a socket: lws made a wsi for it, whose WSI_DESTROY
    // will tell the door the descriptor is free again.
    private var adoptionCreatedWSI = false

    private(set) var phase = Phase.idle
    private var serviceThread: pthread_t?
    private var connections: [UInt64: LWSServerConnection] = [:]
    private var httpResponses: [UInt64: PendingHTTPResponse] = [:]
    private var timers: [UInt64: ScheduledTimer] = [:]
    // The connection whose RECEIVE callback is delivering a message to the delegate: what the delegate
    // sends it then is written at the end of the loop pass (flushAnswers), not on a WRITEABLE pass.
    private var answering: UInt64?
    // Connections that were idle when a message arrived in this loop pass and have an answer queued: written
    // when the pass ends, so several messages read in one pass get their answers coalesced first.
    private var answersDue: [LWSServerConnection] = []
    private var lastConnectionID: UInt64 = 0
    private var lastHTTPID: UInt64 = 0
    private var lastTimerID: UInt64 = 0
    private var graceExpired = false

    private struct ScheduledTimer {
        let timer: UnsafeMutablePointer<shim_ev_timer>
        let work: (WebServerLoop) -> Void
    }

    /// A dynamic HTTP response whose body is still being written (or, once written, still held by lws).
    private struct PendingHTTPResponse {
        let wsi: OpaquePointer
        let request: HTTPRequest
        let status: Int
        var body: [UInt8]
        /// Streamed instead of `body`, a fragment per write.
        var file: HTTPFileBody?
        var written = 0
        /// When the last piece was handed to lws: a drop long after it was a stalled reader.
        var lastProgress = ContinuousClock.now

        var length: Int { file?.length ?? body.count }
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

    private static func validate(_ configuration: WebServerConfiguration) throws {
        guard (0...65_535).contains(configuration.port) else {
            throw WebServerError.invalidConfiguration("port \(configuration.port)")
        }
        guard configuration.webSocketPath.hasPrefix("/") else {
            throw WebServerError.invalidConfiguration("webSocketPath must start with /")
        }
        guard !configuration.subprotocol.isEmpty else {
            throw WebServerError.invalidConfiguration("empty subprotocol")
        }
        guard configuration.maxMessageBytes > 0, configuration.maxConnections > 0, configuration.maxOutboundBytes > 0,
            configuration.closeTimeoutMilliseconds > 0
        else {
            throw WebServerError.invalidConfiguration(
                "maxMessageBytes, maxConnections, maxOutboundBytes and closeTimeoutMilliseconds must be positive")
        }
        guard configuration.apiMounts.allSatisfy({ $0.hasPrefix("/") && $0.count > 1 && $0.utf8.count < 255 }) else {
            throw WebServerError.invalidConfiguration("apiMounts must be paths like /api")
        }
        guard
            configuration.crossOriginFiles.allSatisfy({
                $0.hasPrefix("/") && !$0.hasSuffix("/") && $0.utf8.count < 255
                    && StaticPathPolicy.isLexicallyAllowed($0)
            })
        else {
            throw WebServerError.invalidConfiguration("crossOriginFiles must be file paths like /recorder.js")
        }
        guard configuration.httpStallTimeoutSeconds > 0, configuration.reservedFileDescriptors >= 0 else {
            throw WebServerError.invalidConfiguration(
                "httpStallTimeoutSeconds must be positive and reservedFileDescriptors not negative")
        }
        guard configuration.requestHeadTimeoutMilliseconds > 0, configuration.maxPendingRequestHeads > 0 else {
            throw WebServerError.invalidConfiguration(
                "requestHeadTimeoutMilliseconds and maxPendingRequestHeads must be positive")
        }
        guard configuration.maxRequestHeaderBytes >= 1024,
            configuration.headerBufferBytes > configuration.maxRequestHeaderBytes,
            configuration.headerBufferBytes <= Int(UInt16.max)
        else {
            throw WebServerError.invalidConfiguration(
                "maxRequestHeaderBytes must be at least 1024 and below headerBufferBytes, which is at most 65535")
        }
        if configuration.pingIntervalSeconds > 0,
            configuration.hangupSeconds <= configuration.pingIntervalSeconds
                || configuration.hangupSeconds > Int(UInt16.max)
        {
            throw WebServerError.invalidConfiguration("hangupSeconds must exceed pingIntervalSeconds")
        }
    }

    /// The descriptors left for connections under the soft RLIMIT_NOFILE once the reserve is kept free
    /// (at most half the limit is reserved, so a low limit still serves a few connections).
    static func connectionDescriptorLimit(_ configuration: WebServerConfiguration) -> Int {
        let soft = min(FileDescriptorLimit.current.soft, 1 << 20)
        let reserved = min(configuration.reservedFileDescriptors, soft / 2)
        return max(8, soft - reserved)
    }

    // MARK: - Context

    private func createContext() throws {
        let protocolName = memory.cString(configuration.subprotocol)

        // The protocol array must outlive the context. The configured protocol is protocols[0]:
        // lws binds a WebSocket that names no subprotocol to protocols[0], and plain HTTP
        // (the file mount's filter callbacks) is also handled there.
        let protocols = memory.zeroed(lws_protocols.self, count: 2)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = lwsRoutedCallback
        protocols[0].per_session_data_size = MemoryLayout<UInt64>.size

        // Mounts, their strings and the MIME list must outlive the context.
        var mimeList: UnsafeMutablePointer<lws_protocol_vhost_options>?
        for (suffix, type) in Self.extraMimeTypes.reversed() {
            let option = memory.zeroed(lws_protocol_vhost_options.self)
            // lws matches `name` as a plain suffix; a name starting with "*" is a catch-all type
            // for every unknown suffix, which would defeat the 415 for unknown files.
            option.pointee.name = UnsafePointer(memory.cString(suffix))
            option.pointee.value = UnsafePointer(memory.cString(type))
            option.pointee.next = UnsafePointer(mimeList)
            mimeList = option
        }
        let fileMount = memory.zeroed(lws_http_mount.self)
        fileMount.pointee.mountpoint = UnsafePointer(memory.cString("/"))
        fileMount.pointee.mountpoint_len = 1
        fileMount.pointee.origin = UnsafePointer(memory.cString(pathPolicy.root.isEmpty ? "/" : pathPolicy.root))
        fileMount.pointee.def = UnsafePointer(memory.cString("index.html"))
        fileMount.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        fileMount.pointee.extra_mimetypes = UnsafePointer(mimeList)
        // With a protocol named, lws raises LWS_CALLBACK_ADD_HEADERS on it for each file it answers
        // (lws_http_serve), where crossOriginFiles get their CORS header; a missing file still reaches
        // LWS_CALLBACK_HTTP on that protocol, which is protocols[0] either way. (A mount of the file's own
        // would not do: lws redirects a path equal to a mountpoint to that path + "/".)
        if !configuration.crossOriginFiles.isEmpty { fileMount.pointee.protocol = UnsafePointer(protocolName) }
        var mounts = fileMount
        for prefix in configuration.apiMounts {
            // A callback mount: lws binds the request to the protocol named in `origin` and
            // raises LWS_CALLBACK_HTTP on it.
            let mount = memory.zeroed(lws_http_mount.self)
            mount.pointee.mountpoint = UnsafePointer(memory.cString(prefix))
            mount.pointee.mountpoint_len = UInt8(prefix.utf8.count)
            mount.pointee.origin = UnsafePointer(protocolName)
            mount.pointee.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
            mount.pointee.mount_next = UnsafePointer(mounts)
            mounts = mount
        }

        // The retry/idle policy is kept by pointer: it must outlive the context.
        let policy = memory.zeroed(lws_retry_bo_t.self)
        if configuration.pingIntervalSeconds > 0 {
            policy.pointee.secs_since_valid_ping = UInt16(clamping: configuration.pingIntervalSeconds)
            policy.pointee.secs_since_valid_hangup = UInt16(clamping: configuration.hangupSeconds)
        }

        var contextInfo = lws_context_creation_info()
        contextInfo.options = UInt64(LWS_SERVER_OPTION_EXPLICIT_VHOSTS)
        // lws_context_user() hands this back in every callback; the route outlives the context.
        contextInfo.user = callbackRoute.contextUser
        contextInfo.port = CONTEXT_PORT_NO_LISTEN
        // lws parses a request head into this buffer and drops the connection unanswered when it overflows
        // (parsers.c "Ran out of header data space"): keep it well above maxRequestHeaderBytes, which is
        // answered with 431 below.
        contextInfo.max_http_header_data = UInt16(configuration.headerBufferBytes)
        // The table of descriptors lws keeps: room for every connection the front door hands on (it stops at
        // two below this). lws adds 2 for its own descriptors; it refuses an adoption ("no space for new
        // conn") only when the table is full.
        contextInfo.fd_limit_per_thread = UInt32(max(4, connectionDescriptorLimit))
        loop.configure(&contextInfo)
        guard let context = lws_create_context(&contextInfo) else {
            throw WebServerError.contextCreationFailed
        }
        self.context = context

        var vhostInfo = lws_context_creation_info()
        // A server vhost without a listening socket of its own (vhost.c: no listen wsi is made): the front
        // door accepts, and hands each connection to lws_adopt_socket_vhost_readbuf on this vhost.
        vhostInfo.port = CONTEXT_PORT_NO_LISTEN_SERVER
        vhostInfo.protocols = UnsafePointer(protocols)
        vhostInfo.mounts = UnsafePointer(mounts)
        // Named only in lws's own log lines.
        vhostInfo.vhost_name = UnsafePointer(memory.cString("default"))
        vhostInfo.retry_and_idle_policy = UnsafePointer(policy)
        vhostInfo.options = UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
        guard let vhost = lws_create_vhost(context, &vhostInfo) else {
            throw WebServerError.contextCreationFailed
        }
        self.vhost = vhost
        loop.startHeartbeat(context)
        inbox.open(context)
    }

    /// MIME types by file suffix that lws 4.1.6's built-in table lacks (it answers 415 for an
    /// unknown suffix) or names with a legacy type (`application/font-woff2`). lws consults this
    /// list before its own table.
    static let extraMimeTypes: [(String, String)] = [
        (".mjs", "text/javascript"),
        (".map", "application/json"),
        (".woff2", "font/woff2"),
        (".webmanifest", "application/manifest+json"),
        (".wasm", "application/wasm"),
        (".webp", "image/webp"),
    ]

    private func destroyContext() {
        cancelAllTimers()
        inbox.close()  // from here execute() drops its work
        if let context {
            // Closes every connection left (their CLOSED callbacks run now, on this thread),
            // then frees the vhost; the mounts and protocols are freed only after this.
            loop.destroy(context)
        }
        context = nil
        vhost = nil
        memory.freeAll()
    }

    // MARK: - Service loop

    func run() {
        precondition(phase == .idle, "WebServer.run() may be called once")
        serviceThread = pthread_self()
        phase = .running
        let server = UnownedServer(server: self)
        // Called on the door's thread: execute() is thread-safe, and the work runs here.
        door.start { server.server.execute { _ in server.server.scheduleAdoption() } }
        delegate?.serverStarted(on: WebServerLoop(self))
        drainInbox()
        while phase == .running, context != nil {
            loop.runOnce()
            flushAnswers()
        }
        phase = .draining
        // No new connections from here: the listening socket closes, and connections the door still held or
        // had not handed on yet close unanswered.
        door.stop()
        for connection in connections.values {
            requestClose(connection, code: 1001, reason: "server shutting down")
        }
        if !connections.isEmpty, context != nil {
            let grace = schedule(afterMilliseconds: configuration.shutdownGraceMilliseconds) { [unowned self] _ in
                self.graceExpired = true
            }
            while !connections.isEmpty, !graceExpired {
                loop.runOnce()
                flushAnswers()
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
    private func drainInbox() {
        let (work, stopRequested) = inbox.take()
        for item in work { item(WebServerLoop(self)) }
        if stopRequested, phase == .running { phase = .draining }
    }

    // WebServerLoop only exists on the service thread; this catches one smuggled off it (debug builds).
    func assertServiceThread() {
        assert(
            serviceThread.map { pthread_equal($0, pthread_self()) != 0 } ?? true,
            "WebServerLoop used off the service thread (use WebServer.execute(_:) from other threads)"
        )
    }

    private var canWrite: Bool { phase == .running || phase == .draining }

    // MARK: - WebSocket API

    func send(_ bytes: [UInt8], to id: ConnectionID, coalescingKey: String?) {
        assertServiceThread()
        guard canWrite, let connection = connections[id.rawValue], connection.pendingClose == nil else { return }
        connection.outbound.enqueue(bytes, isBinary: false, coalescingKey: coalescingKey)
        if connection.outbound.byteCount > configuration.maxOutboundBytes {
            // The client reads slower than the server writes. Holding more would let one client take
            // the server's memory; what is dropped the delegate can deliver again on resume.
            connection.outbound.removeAll()
            connection.overflowed = true
            requestClose(connection, code: 1008, reason: "outbound limit exceeded")
            return
        }
        // An answer to the message being received, or to one received earlier in this pass, is written when
        // the pass ends (flushAnswers).
        if answering != id.rawValue, !connection.answerDue { lws_callback_on_writable(connection.wsi) }
    }

    func close(_ id: ConnectionID, code: UInt16, reason: String) {
        assertServiceThread()
        guard canWrite, let connection = connections[id.rawValue] else { return }
        requestClose(connection, code: code, reason: reason)
    }

    func outboundBytes(of id: ConnectionID) -> Int {
        assertServiceThread()
        return connections[id.rawValue]?.outbound.byteCount ?? 0
    }

    private func requestClose(_ connection: LWSServerConnection, code: UInt16, reason: String) {
        guard connection.pendingClose == nil else { return }
        connection.pendingClose = (code, reason)
        lws_callback_on_writable(connection.wsi)
        // A client that does not read never makes the socket writeable: drop it if the close frame has not
        // gone out in time. Once it has, lws waits for the peer's acknowledgement under its own timeout.
        let id = connection.id.rawValue
        connection.closeTimer = schedule(afterMilliseconds: configuration.closeTimeoutMilliseconds) {
            [unowned self] _ in
            guard let connection = self.connections[id] else { return }
            connection.closeTimer = nil
            if connection.sentCloseCode == nil {
                // Only lws may free the wsi: this asks it to close the connection on its next service pass.
                lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
                // That is an lws timer due now, set outside an lws callback: have lws run it at once.
                if let context = self.context { LWSEventLoop.wake(context) }
            }
        }
    }

    // MARK: - Timers

    func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping (WebServerLoop) -> Void) -> TimerHandle {
        assertServiceThread()
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
        assertServiceThread()
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

    private func cancelAllTimers() {
        for entry in timers.values {
            loop.stopTimer(entry.timer)
            entry.timer.deallocate()
        }
        timers.removeAll()
    }

    // MARK: - Callback dispatch

    func handle(
        _ wsi: OpaquePointer,
        _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?,
        _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // Raised on a fake wsi: never write to it.
            drainInbox()
            return 0

        // Every wsi on this vhost is a socket the front door handed on (the vhost has no listener).
        case LWS_CALLBACK_WSI_CREATE:
            if lws_get_vhost(wsi) == vhost { adoptionCreatedWSI = true }
            return 0

        case LWS_CALLBACK_WSI_DESTROY:
            if lws_get_vhost(wsi) == vhost { door.released() }
            return 0

        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi, to: input)

        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            // Already vetted in HTTP_CONFIRM_UPGRADE; re-checked in case lws skipped that step.
            return refusal(forUpgrade: wsi) == nil ? 0 : 1

        case LWS_CALLBACK_ESTABLISHED:
            return webSocketEstablished(wsi, user)

        case LWS_CALLBACK_RECEIVE:
            guard let connection = connection(user) else { return 0 }
            if let refusal = frameRefusal(connection) { return refusal }
            return received(connection, input, length)

        case LWS_CALLBACK_RECEIVE_PONG:
            guard let connection = connection(user) else { return 0 }
            connection.lastPong = .now
            return frameRefusal(connection) ?? 0

        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let connection = connection(user) else { return 0 }
            let result = writer.writeable(connection.wsi, connection)
            if result < 0 { connection.endedByServer = true }
            return result

        case LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL:
            if let connection = connection(user) { failUnnamedViolation(connection) }
            return 0

        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            guard let connection = connection(user) else { return 0 }
            connection.peerSentClose = true
            if let refusal = frameRefusal(connection) { return refusal }
            return peerClosed(connection, input.map { UnsafeRawBufferPointer(start: $0, count: length) })

        case LWS_CALLBACK_CLOSED:
            guard let id = sessionID(user), let connection = connections.removeValue(forKey: id) else { return 0 }
            if let timer = connection.closeTimer { cancel(timer) }
            // The server's code counts when it closed first, even if the peer never read the close frame.
            let code = connection.peerCloseCode ?? connection.sentCloseCode ?? connection.pendingClose?.code
            delegate?.connectionClosed(connection.id, code: code, on: WebServerLoop(self))
            return 0

        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            if LWSHeaders.totalLength(wsi) > configuration.maxRequestHeaderBytes {
                return refuse(wsi, status: 431, "Request Header Fields Too Large\n")
            }
            guard hostPolicy.accepts(LWSHeaders.value(wsi, WSI_TOKEN_HOST)) else {
                _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_FORBIDDEN.rawValue), nil)
                return 1
            }
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            // `length` is the decoded path's length: a longer one than the C string holds a %00, which
            // would otherwise cut the path short (`/x%00/../y` would be served as `/x`).
            let hasNUL = length > path.utf8.count
            if !hasNUL, isAPIPath(path) || pathPolicy.allows(path) { return 0 }
            // Refused paths are answered like missing files, so they reveal nothing.
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_NOT_FOUND.rawValue), nil)
            return 1

        case LWS_CALLBACK_HTTP:
            return httpRequest(wsi, user)

        case LWS_CALLBACK_ADD_HEADERS:
            return addFileHeaders(wsi, input)

        // One request per connection: the connection closes once a file is out, like after every other
        // answer (lws 4.1.6 also answered a request pipelined behind a file with a 403 of its own). lws's file
        // answers carry no `connection: close` (ADD_HEADERS adds only the CORS header of crossOriginFiles);
        // a client sees the close after the whole file.
        case LWS_CALLBACK_HTTP_FILE_COMPLETION:
            // Raised once the whole file is written (lws waits for its buffered output first): -1 closes.
            FrontDoor.discardUnreadInput(lws_get_socket_fd(wsi))
            return -1

        case LWS_CALLBACK_HTTP_WRITEABLE:
            if let id = sessionID(user), httpResponses[id] != nil {
                return httpWriteable(wsi, id)
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)

        case LWS_CALLBACK_HTTP_DROP_PROTOCOL, LWS_CALLBACK_CLOSED_HTTP:
            if let id = sessionID(user), let pending = httpResponses.removeValue(forKey: id) {
                reportDrop(pending)
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func sessionID(_ user: UnsafeMutableRawPointer?) -> UInt64? {
        let id = shim_lws_session_id(user)
        return id == 0 ? nil : id
    }

    private func connection(_ user: UnsafeMutableRawPointer?) -> LWSServerConnection? {
        sessionID(user).flatMap { connections[$0] }
    }

    // MARK: - Upgrade

    private func refusal(forUpgrade wsi: OpaquePointer) -> UpgradePolicy.Refusal? {
        guard phase == .running else { return .overCapacity }
        guard hostPolicy.accepts(LWSHeaders.value(wsi, WSI_TOKEN_HOST)) else { return .foreignHost }
        let refusal = upgradePolicy.evaluate(
            path: LWSHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? "",
            origin: LWSHeaders.value(wsi, WSI_TOKEN_ORIGIN),
            host: LWSHeaders.value(wsi, WSI_TOKEN_HOST),
            openConnections: connections.count
        )
        if refusal == nil, delegate?.admitsConnection() == false { return .overCapacity }
        return refusal
    }

    private func confirmUpgrade(_ wsi: OpaquePointer, to upgrade: UnsafeMutableRawPointer?) -> Int32 {
        let name = upgrade.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }?.lowercased()
        if LWSHeaders.totalLength(wsi) > configuration.maxRequestHeaderBytes {
            return refuse(wsi, status: 431, "Request Header Fields Too Large\n")
        }
        guard name == "websocket" else {
            // h2c would switch to HTTP/2, whose requests reach the mounts without the Host check and the
            // filters of this file; lws 4.1.6 has no option to turn it off. An empty upgrade name makes lws
            // go on as if none was asked for (server.c): the request is answered over HTTP/1.1.
            if let upgrade, name != nil { upgrade.assumingMemoryBound(to: CChar.self).pointee = 0 }
            return 0
        }
        guard let refusal = refusal(forUpgrade: wsi) else { return 0 }
        return refuse(wsi, status: refusal.status, refusal.text)
    }

    /// Answers the request on `wsi` with `status` and `text` and closes the connection; returns what the
    /// callback returns (1: lws must not handle the request further).
    ///
    /// lws_return_http_status would do, but before lws has parsed the request's version (in
    /// HTTP_CONFIRM_UPGRADE) it answers `HTTP/1.0`, which WebSocket clients may refuse to read.
    private func refuse(_ wsi: OpaquePointer, status: Int, _ text: String) -> Int32 {
        let response = HTTPResponse.text(text, status: status)
        guard writeHeaders(wsi, response, closing: true) else { return -1 }
        _ = writer.write(wsi, response.body[...], protocol: LWS_WRITE_HTTP_FINAL)
        return 1
    }

    private func webSocketEstablished(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard user != nil else { return -1 }
        lastConnectionID += 1
        // lws frees the per-session memory without running Swift code: keep only the integer id there.
        shim_lws_set_session_id(user, lastConnectionID)
        let connection = LWSServerConnection(id: ConnectionID(rawValue: lastConnectionID), wsi: wsi)
        connections[lastConnectionID] = connection
        delegate?.connectionOpened(connection.id, on: WebServerLoop(self))
        return 0
    }

    // MARK: - WebSocket receive and write

    private func received(_ connection: LWSServerConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32
    {
        let wsi = connection.wsi
        // After an overflow the session goes on until the socket is gone: what the client still sends
        // counts, and what it causes is delivered when it resumes.
        if connection.discardingInbound || (connection.pendingClose != nil && !connection.overflowed) { return 0 }
        if lws_frame_is_binary(wsi) != 0 {
            violate(connection, .binary)
            return 0
        }
        if connection.inbound.count + length > configuration.maxMessageBytes {
            violate(connection, .tooLarge)
            return 0
        }
        if let input, length > 0 {
            connection.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        // A message arrives in pieces of at most rx_buffer_size: deliver it when the final one is in.
        if lws_is_final_fragment(wsi) != 0 {
            let message = connection.inbound
            connection.inbound = []
            // RFC 6455 §8.1: a text message that is not UTF-8 fails the connection with 1007.
            guard String(validating: message, as: UTF8.self) != nil else {
                return fail(connection, code: 1007, reason: "text message is not UTF-8")
            }
            // Nothing waiting means no WRITEABLE is pending for this connection: the answer may go now.
            let wasIdle = connection.outbound.isEmpty
            answering = connection.id.rawValue
            delegate?.connection(connection.id, received: message, on: WebServerLoop(self))
            answering = nil
            answerAfterPass(connection, wasIdle: wasIdle)
        }
        return 0
    }

    /// What the delegate queued while handling a message goes out when this loop pass ends (``flushAnswers()``)
    /// if the connection was idle before (its queue empty, so no earlier message waits for WRITEABLE);
    /// otherwise it waits for WRITEABLE as ``send(_:to:coalescingKey:)`` does elsewhere. The queue is the same
    /// either way, so order and coalescing are the queue's: a second message read in the same pass replaces
    /// the first one's unwritten keyed answer, as a queue waiting for WRITEABLE does.
    private func answerAfterPass(_ connection: LWSServerConnection, wasIdle: Bool) {
        guard !connection.outbound.isEmpty, !connection.answerDue else { return }
        if wasIdle, connection.pendingClose == nil {
            connection.answerDue = true
            answersDue.append(connection)
        } else {
            lws_callback_on_writable(connection.wsi)
        }
    }

    /// Writes the answers of this loop pass, outside any lws callback, once every readable socket was read
    /// (SwiftNIO flushes on `channelReadComplete` for the same reason): one pass answers each connection
    /// once, however many of its messages the pass read, and at light load an answer still goes out
    /// without waiting for a WRITEABLE pass.
    ///
    /// What lws 4.1.6 does with a write outside WRITEABLE (README.coding.md still says "only from WRITEABLE",
    /// but its one-write-per-WRITEABLE check is compiled out, `if (0 && …)` in output.c): it sends at once;
    /// what the socket does not take (sent in pieces of at most the rx/tx buffer size) goes to the wsi's
    /// own output list and lws_write still returns the whole length (output.c); lws then holds back
    /// WRITEABLE callbacks until it has drained that list itself, and raises one WRITEABLE when it has, asked
    /// for or not. A second lws_write while bytes are held is appended in order but returns only what was
    /// drained, which ``LWSWriter/write(_:_:protocol:)`` would take for a failure: so nothing is written here while
    /// `lws_partial_buffered`, and the rest waits for WRITEABLE. `lws_send_pipe_choked` would also poll()
    /// the socket, a system call per answer; a socket that takes nothing is simply held by lws on the first
    /// write, and counts as choked from then.
    private func flushAnswers() {
        guard !answersDue.isEmpty else { return }
        let due = answersDue
        answersDue.removeAll(keepingCapacity: true)
        for connection in due {
            connection.answerDue = false
            // A connection closed during the pass has left the table, and its wsi is gone.
            guard connections[connection.id.rawValue] === connection, !connection.outbound.isEmpty else { continue }
            let wsi = connection.wsi
            // A close asked for meanwhile goes out on WRITEABLE, after the queue (requestClose asked for it).
            if connection.pendingClose == nil {
                while lws_partial_buffered(wsi) == 0,
                    let fragment = connection.outbound.nextFragment(maxBytes: LWSWriter.fragmentBytes)
                {
                    guard writer.write(wsi, fragment) else {
                        connection.endedByServer = true
                        // Outside a callback there is no -1 to return: lws closes it on its next pass.
                        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
                        if let context { LWSEventLoop.wake(context) }
                        break
                    }
                }
            }
            if !connection.outbound.isEmpty { lws_callback_on_writable(wsi) }
        }
    }

    // MARK: - RFC 6455 checks lws 4.1.6 leaves out

    /// -1 (after setting the close frame) if the frame being delivered breaks a rule lws does not check
    /// itself; nil to go on.
    private func frameRefusal(_ connection: LWSServerConnection) -> Int32? {
        // RFC 6455 §5.1: every frame from a client is masked; the server must fail the connection.
        if LWSFrameMask.isMasked(connection.wsi) == false {
            return fail(connection, code: 1002, reason: "client frames must be masked")
        }
        return nil
    }

    /// The peer's close frame (its payload in `payload`): recorded and echoed if valid, else answered as
    /// ``PeerCloseFrame/violation`` says.
    private func peerClosed(_ connection: LWSServerConnection, _ payload: UnsafeRawBufferPointer?) -> Int32 {
        let frame = PeerCloseFrame(payload: payload)
        if let violation = frame.violation { return fail(connection, code: violation.code, reason: violation.reason) }
        if let code = frame.code { connection.peerCloseCode = code }
        return 0  // lws echoes the close frame
    }

    /// lws 4.1.6 fails a connection for a few frames without naming a close code (ops-ws.c: a control frame
    /// over 125 bytes, RFC 6455 §5.5; a 64-bit length with its top bit set), so it would drop the TCP
    /// connection without a close frame. It raises WS_SERVER_DROP_PROTOCOL just before it decides whether
    /// to send one (close.c), so a code set here goes out: 1002. Every other way a connection ends is told
    /// apart first: the server's own close or kill, a close lws named itself (`lws_get_close_length`), the
    /// peer's close frame, the peer's TCP close (the socket reads end-of-file or fails), and lws's
    /// dead-peer hangup (no pong for `hangupSeconds`).
    private func failUnnamedViolation(_ connection: LWSServerConnection) {
        let wsi = connection.wsi
        guard phase == .running, connection.pendingClose == nil, connection.sentCloseCode == nil,
            !connection.peerSentClose, !connection.endedByServer, lws_get_close_length(wsi) == 0
        else { return }
        if configuration.pingIntervalSeconds > 0,
            ContinuousClock.now - connection.lastPong >= .seconds(configuration.hangupSeconds) - .seconds(1)
        {
            return
        }
        var byte: UInt8 = 0
        let fd = lws_get_socket_fd(wsi)
        let peeked = withUnsafeMutableBytes(of: &byte) {
            Syscall.recv(fd, into: $0, flags: Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        }
        switch peeked {
        case .success(let peeked) where peeked > 0: break
        case .failure(let error) where error.wouldBlock: break
        default: return  // end-of-file or a failed socket: the peer's TCP close
        }
        connection.inbound = []
        connection.discardingInbound = true
        connection.sentCloseCode = 1002
        LWSCloseReason.set(wsi, code: 1002, reason: "invalid frame length")
    }

    /// Closes at once with `code`: lws sends the close frame when the callback returns -1.
    private func fail(_ connection: LWSServerConnection, code: UInt16, reason: String) -> Int32 {
        connection.inbound = []
        connection.discardingInbound = true
        connection.sentCloseCode = code
        LWSCloseReason.set(connection.wsi, code: code, reason: reason)
        return -1
    }

    private func violate(_ connection: LWSServerConnection, _ violation: InboundViolation) {
        connection.inbound = []
        connection.discardingInbound = true
        // The delegate may queue an error frame now; the close goes out after it.
        delegate?.connection(connection.id, violated: violation, on: WebServerLoop(self))
        requestClose(connection, code: violation.closeCode, reason: violation.closeReason)
    }

    // MARK: - HTTP API

    private func isAPIPath(_ path: String) -> Bool {
        configuration.apiMounts.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    private func httpRequest(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard user != nil else {
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_INTERNAL_SERVER_ERROR.rawValue), nil)
            return 1
        }
        // One request per connection: the front door hands lws nothing after the first request's head and
        // keeps lws from reading more. Should lws parse a second request all the same (a client that fills a
        // receive buffer of several MB behind its request), the connection is dropped rather than answered
        // twice at once.
        if httpResponses.values.contains(where: { $0.wsi == wsi }) { return -1 }
        lastHTTPID += 1
        let id = lastHTTPID | (1 << 63)  // never collides with WebSocket ids
        shim_lws_set_session_id(user, id)

        let request = LWSHeaders.request(wsi)
        let response: HTTPResponse
        if let request, !isAPIPath(request.path) {
            // The file mount found no file: lws falls back to LWS_CALLBACK_HTTP on protocols[0].
            response = .text("Not Found\n", status: 404)
        } else if let request, request.method == "GET" || request.method == "HEAD" {
            response = delegate?.handle(request) ?? .text("Not Found\n", status: 404)
        } else if request != nil {
            response = .text("Method Not Allowed\n", status: 405)
        } else {
            response = .text("Bad Request\n", status: 400)
        }
        // Every answer says `connection: close` and the connection closes once it is written.
        guard writeHeaders(wsi, response, closing: true) else { return -1 }
        var pending = PendingHTTPResponse(
            wsi: wsi, request: request ?? HTTPRequest(method: "GET", path: ""), status: response.status,
            body: request?.method == "HEAD" ? [] : response.body)
        if request?.method != "HEAD", let file = response.file, file.length > 0 { pending.file = file }
        if pending.file == nil, pending.body.count <= LWSWriter.fragmentBytes {
            if !pending.body.isEmpty {
                guard writer.write(wsi, pending.body[...], protocol: LWS_WRITE_HTTP_FINAL) else { return -1 }
            }
            pending.written = pending.body.count
            return closeWhenWritten(wsi, id, pending)
        }
        httpResponses[id] = pending
        refreshStallTimeout(wsi)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// -1 (close now) once lws has handed the whole answer to the socket; else 0, keeping the answer until
    /// the WRITEABLE lws raises when it has written what the socket did not take (closing earlier would
    /// lose that tail).
    private func closeWhenWritten(_ wsi: OpaquePointer, _ id: UInt64, _ pending: PendingHTTPResponse) -> Int32 {
        if lws_partial_buffered(wsi) != 0 {
            httpResponses[id] = pending
            refreshStallTimeout(wsi)
            lws_callback_on_writable(wsi)
            return 0
        }
        httpResponses[id] = nil
        FrontDoor.discardUnreadInput(lws_get_socket_fd(wsi))
        return -1
    }

    // lws's HTTP timeout (5 s from the end of the request head, PENDING_TIMEOUT_HTTP_CONTENT) is not
    // restarted by our writes: without this a reader slower than 5 s for the whole answer loses the rest.
    private func refreshStallTimeout(_ wsi: OpaquePointer) {
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Int32(clamping: configuration.httpStallTimeoutSeconds))
    }

    private func reportDrop(_ pending: PendingHTTPResponse) {
        let idle = ContinuousClock.now - pending.lastProgress
        // lws's timeouts have a resolution of about a second.
        let stalled = idle >= .seconds(configuration.httpStallTimeoutSeconds) - .milliseconds(1_500)
        delegate?.httpResponseDropped(
            HTTPResponseDrop(
                request: pending.request, status: pending.status, bytesWritten: pending.written,
                bodyBytes: pending.length,
                reason: stalled ? .readerStalled(seconds: configuration.httpStallTimeoutSeconds) : .closedByClient
            ))
    }

    private func writeHeaders(_ wsi: OpaquePointer, _ response: HTTPResponse, closing: Bool = false) -> Bool {
        let start = writer.payloadStart
        let end = writer.payloadEnd
        var position: UnsafeMutablePointer<UInt8>? = start
        // Adds the status line, server, content-type, content-length and (with
        // HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE) the security headers.
        guard
            lws_add_http_common_headers(
                wsi, UInt32(clamping: response.status), response.contentType,
                lws_filepos_t(response.file?.length ?? response.body.count), &position, end
            ) == 0
        else { return false }
        // Before lws has parsed the request's version it writes an HTTP/1.0 status line; every client
        // here speaks HTTP/1.1 (lws itself answers nothing else).
        if start.pointee == UInt8(ascii: "H"), memcmp(start, "HTTP/1.0 ", 9) == 0 {
            (start + 7).pointee = UInt8(ascii: "1")
        }
        var added = LWSHeaders.add(wsi, name: "cache-control:", value: "no-store", at: &position, end: end)
        if closing {
            added = added && LWSHeaders.add(wsi, name: "connection:", value: "close", at: &position, end: end)
        }
        return added && lws_finalize_write_http_header(wsi, start, &position, end) == 0
    }

    /// The headers a file answer gets besides lws's own: `access-control-allow-origin: *` for the
    /// configuration's ``WebServerConfiguration/crossOriginFiles``. `input` is lws's
    /// `lws_process_html_args`, whose `p` is where the next header goes and `max_len` the room left.
    private func addFileHeaders(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?) -> Int32 {
        guard let input, !configuration.crossOriginFiles.isEmpty else { return 0 }
        let path = LWSHeaders.value(wsi, WSI_TOKEN_GET_URI) ?? LWSHeaders.value(wsi, WSI_TOKEN_HEAD_URI)
        guard let path, configuration.crossOriginFiles.contains(path) else { return 0 }
        let args = input.assumingMemoryBound(to: lws_process_html_args.self)
        guard let next = args.pointee.p else { return 0 }
        let start = UnsafeMutableRawPointer(next).assumingMemoryBound(to: UInt8.self)
        var position: UnsafeMutablePointer<UInt8>? = start
        guard
            LWSHeaders.add(
                wsi, name: "access-control-allow-origin:", value: "*", at: &position,
                end: start + Int(args.pointee.max_len)),
            let position
        else { return -1 }
        args.pointee.p = next + (position - start)
        args.pointee.max_len -= Int32(position - start)
        return 0
    }

    private func httpWriteable(_ wsi: OpaquePointer, _ id: UInt64) -> Int32 {
        guard var pending = httpResponses[id] else { return 0 }
        if pending.written == pending.length { return closeWhenWritten(wsi, id, pending) }
        let end = min(pending.length, pending.written + LWSWriter.fragmentBytes)
        let isLast = end == pending.length
        // A file is read a fragment at a time; one that shrank since it was opened cuts the answer off.
        let fragment = pending.file.map { $0.read(at: pending.written, count: end - pending.written)[...] }
        guard
            fragment.map({ $0.count == end - pending.written }) ?? true,
            writer.write(
                wsi, fragment ?? pending.body[pending.written..<end],
                protocol: isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP
            )
        else { return -1 }
        pending.written = end
        pending.lastProgress = ContinuousClock.now
        refreshStallTimeout(wsi)
        if isLast { return closeWhenWritten(wsi, id, pending) }
        httpResponses[id] = pending
        lws_callback_on_writable(wsi)
        return 0
    }
}

/// The server, for the front door's thread to call ``LWSServer/execute(_:)`` on: that thread is joined in
/// ``LWSServer/run()`` before the server can go away, and the work it queues runs on the service thread.
private struct UnownedServer: @unchecked Sendable {
    unowned(unsafe) let server: LWSServer
}

/// One open WebSocket on the server.
final class LWSServerConnection: LWSWebSocketOutput {
    let id: ConnectionID
    // Valid until LWS_CALLBACK_CLOSED, when the connection leaves the table.
    let wsi: OpaquePointer
    var outbound = OutboundQueue()
    var inbound: [UInt8] = []
    var discardingInbound = false
    var pendingClose: (code: UInt16, reason: String)?
    var sentCloseCode: UInt16?
    var peerCloseCode: UInt16?
    /// Drops the connection if the close frame cannot be written in time.
    var closeTimer: TimerHandle?
    /// The outbound queue went past its limit and was dropped; a 1008 close is pending.
    var overflowed = false
    /// An answer waits in ``LWSServer``'s answers of this loop pass; no WRITEABLE is asked for meanwhile.
    var answerDue = false
    /// The peer sent a close frame (with a code or without one).
    var peerSentClose = false
    /// The server dropped the connection itself (a failed write), so lws's close is no violation of the peer's.
    var endedByServer = false
    /// When lws last counted the connection as alive (opened, or a pong): its dead-peer hangup comes
    /// `hangupSeconds` after this.
    var lastPong = ContinuousClock.now

    init(id: ConnectionID, wsi: OpaquePointer) {
        self.id = id
        self.wsi = wsi
    }
}

// The watcher is the first member of shim_ev_timer, which carries the owning server and the timer id.
private func lwsServerTimerFired(_ loop: OpaquePointer?, _ watcher: UnsafeMutablePointer<ev_timer>?, _ revents: Int32) {
    guard let watcher, let owner = shim_ev_timer_from_watcher(watcher).pointee.owner else { return }
    let id = shim_ev_timer_from_watcher(watcher).pointee.id
    Unmanaged<LWSServer>.fromOpaque(owner).takeUnretainedValue().timerFired(id)
}

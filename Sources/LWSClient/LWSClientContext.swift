import CLibWebSockets
import LWSTransport
import Synchronization
import SystemCalls

/// Where and how a client connection connects.
struct ClientConnectRequest: Sendable {
    var host: String
    var port: Int
    var path: String
    var subprotocol: String?
    var origin: String?
}

/// The libwebsockets side of ``WebSocketClientContext``: one client-only lws context serviced by
/// its own thread, holding any number of connections.
///
/// Public calls become commands in the server's kind of inbox (``LWSInbox``); calls made on the service
/// thread itself (from a handler) apply at once. Writes, close frames and the callback trampoline are the
/// server's too (``LWSWriter``, ``PeerCloseFrame``, ``LWSCallbackRoute``).
final class LWSClientContext: LWSCallbackHandler, @unchecked Sendable {
    // @unchecked: `inbox` is a mutex and `lastID` an atomic; every other mutable property is
    // touched only on the service thread (or before it starts / after it is joined).
    typealias Handler = @Sendable (ClientConnectionID, ClientEvent) -> Void

    private enum Command: Sendable {
        case connect(UInt64, ClientConnectRequest, Handler)
        case send(UInt64, [UInt8], isBinary: Bool)
        case close(UInt64, code: UInt16, reason: String)
        case drop(UInt64)
    }

    private let inbox = LWSInbox<Command>()
    private let lastID = Atomic<UInt64>(0)
    private var thread: ServiceThread?

    // The epoll loop the context runs on (see LWSEventLoop); it outlives the context.
    private let loop: LWSEventLoop
    private var context: OpaquePointer?
    private let memory = LWSMemory()
    private let protocolName: UnsafeMutablePointer<CChar>
    private let writer = LWSWriter()
    // lws's way back to handle(_:_:_:_:_:); it lives as long as this object, so longer than the context.
    private lazy var callbackRoute = LWSCallbackRoute(self)
    private var running = true
    private var connections: [UInt64: LWSClientConnection] = [:]
    // Strings of ended connections; freed on a later service iteration, when lws has surely
    // released the wsi that referred to them.
    private var retiredMemory: [LWSMemory] = []

    init() throws {
        do {
            loop = try LWSEventLoop()
        } catch {
            throw ClientError.contextUnavailable
        }
        LWSLog.installIfNeeded()
        // The protocol array and its name must outlive the context.
        protocolName = memory.cString("lws-transport-client")
        let protocols = callbackRoute.protocols(named: protocolName, in: memory)

        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(protocols)
        // Without this option lws prefixes the client's Origin header with "http://".
        info.options = UInt64(LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN)
        // The route outlives the context.
        callbackRoute.route(&info)
        loop.configure(&info)
        guard let context = lws_create_context(&info) else {
            throw ClientError.contextUnavailable
        }
        self.context = context
        loop.startHeartbeat(context)
        inbox.open(context)
        thread = ServiceThread { [self] in serviceLoop() }
    }

    /// A new connection id; the connection itself is made on the service thread.
    func connect(_ request: ClientConnectRequest, handler: @escaping Handler) -> ClientConnectionID {
        let id = lastID.add(1, ordering: .relaxed).newValue
        submit(.connect(id, request, handler))
        return ClientConnectionID(rawValue: id)
    }

    func send(_ bytes: [UInt8], isBinary: Bool, to id: ClientConnectionID) {
        submit(.send(id.rawValue, bytes, isBinary: isBinary))
    }

    func close(_ id: ClientConnectionID, code: UInt16, reason: String) {
        submit(.close(id.rawValue, code: code, reason: reason))
    }

    func drop(_ id: ClientConnectionID) {
        submit(.drop(id.rawValue))
    }

    /// Stops the service loop, destroys the context (open connections end with `.closed(nil)`)
    /// and waits for the thread, unless called from the service thread itself.
    func shutdown() {
        inbox.requestStop()
        if let thread, !thread.isCurrent { thread.join() }
    }

    private func submit(_ command: Command) {
        if let thread, thread.isCurrent, running {
            apply(command)
            return
        }
        if !inbox.submit(command), case .connect(let id, _, let handler) = command {
            handler(ClientConnectionID(rawValue: id), .failed(.contextUnavailable))
        }
    }

    // MARK: - Service thread

    private func serviceLoop() {
        while running, context != nil {
            loop.runOnce()
        }
        running = false
        inbox.close()  // from here commands are refused
        if let context {
            // Closes what is still open; CLIENT_CLOSED / CONNECTION_ERROR run now, on this thread.
            loop.destroy(context)
        }
        context = nil
        for connection in connections.values {
            connection.emit(connection.isOpen ? .closed(code: nil) : .failed(.contextUnavailable))
        }
        connections.removeAll()
        for case .connect(let id, _, let handler) in inbox.take().work {
            handler(ClientConnectionID(rawValue: id), .failed(.contextUnavailable))
        }
        for block in retiredMemory { block.freeAll() }
        retiredMemory.removeAll()
        memory.freeAll()
    }

    func drainInbox() {
        for block in retiredMemory { block.freeAll() }
        retiredMemory.removeAll()
        let (commands, stop) = inbox.take()
        for command in commands { apply(command) }
        if stop { running = false }
    }

    private func apply(_ command: Command) {
        switch command {
        case .connect(let id, let request, let handler):
            open(id, request, handler)
        case .send(let id, let bytes, let isBinary):
            guard let connection = connections[id], connection.pendingClose == nil, !connection.dropRequested else {
                return
            }
            connection.outbound.enqueue(bytes, isBinary: isBinary)
            if let wsi = connection.wsi { lws_callback_on_writable(wsi) }
        case .close(let id, let code, let reason):
            guard let connection = connections[id], connection.pendingClose == nil else { return }
            connection.pendingClose = (code, reason)
            if let wsi = connection.wsi { lws_callback_on_writable(wsi) }
        case .drop(let id):
            guard let connection = connections[id] else { return }
            connection.dropRequested = true
            if let wsi = connection.wsi { Self.drop(wsi) }
        }
    }

    private func open(_ id: UInt64, _ request: ClientConnectRequest, _ handler: @escaping Handler) {
        guard let context else {
            handler(ClientConnectionID(rawValue: id), .failed(.contextUnavailable))
            return
        }
        let connection = LWSClientConnection(id: id, handler: handler)
        // The connect strings are kept until the connection has ended (see retiredMemory).
        let strings = connection.memory
        var info = lws_client_connect_info()
        info.context = context
        info.address = UnsafePointer(strings.cString(request.host))
        info.port = Int32(request.port)
        info.path = UnsafePointer(strings.cString(request.path))
        info.host = UnsafePointer(strings.cString("\(request.host):\(request.port)"))
        info.origin = request.origin.map { UnsafePointer(strings.cString($0)) }
        // Sent as Sec-WebSocket-Protocol; nil sends none.
        info.protocol = request.subprotocol.map { UnsafePointer(strings.cString($0)) }
        info.local_protocol_name = UnsafePointer(protocolName)
        info.ietf_version_or_minus_one = -1
        // Only the integer id rides on the wsi; lws never dereferences it.
        info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(id))
        connections[id] = connection
        if lws_client_connect_via_info(&info) == nil, connections[id] != nil {
            finish(connection, .failed(.connectionFailed("lws_client_connect_via_info failed")))
        }
    }

    /// Reports the last event of a connection and forgets it.
    private func finish(_ connection: LWSClientConnection, _ event: ClientEvent) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        connection.wsi = nil
        retiredMemory.append(connection.memory)
        connection.emit(event)
    }

    // Abrupt end: shut the socket down under lws (which still owns and later closes the fd), so
    // no close frame is sent; lws then sees the hang-up and reports CLIENT_CLOSED.
    private static func drop(_ wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        if fd >= 0 { Syscall.shutdownBoth(fd) }
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
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            guard let connection = connection(wsi) else { return 0 }
            // The status line of a refused upgrade is still readable here.
            let status = Int(lws_http_client_http_response(wsi))
            let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
            let error: ClientError =
                status > 0 && status != 101
                ? .handshakeFailed(status: status) : .connectionFailed(message)
            finish(connection, .failed(error))
            return 0

        case LWS_CALLBACK_CLIENT_FILTER_PRE_ESTABLISH:
            // Last moment the response headers exist: copy the selected subprotocol out.
            connection(wsi)?.subprotocol = LWSHeaders.value(wsi, WSI_TOKEN_PROTOCOL)
            return 0

        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            guard let connection = connection(wsi) else { return -1 }
            connection.wsi = wsi
            connection.isOpen = true
            connection.emit(.opened(subprotocol: connection.subprotocol))
            if connection.dropRequested {
                Self.drop(wsi)
            } else if !connection.outbound.isEmpty || connection.pendingClose != nil {
                lws_callback_on_writable(wsi)
            }
            return 0

        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard let connection = connection(wsi) else { return 0 }
            if let input, length > 0 {
                connection.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            }
            if lws_frame_is_binary(wsi) != 0 { connection.inboundIsBinary = true }
            // Frames arrive in pieces: deliver when the message's final piece is in.
            if lws_is_final_fragment(wsi) != 0 {
                let bytes = connection.inbound
                let isBinary = connection.inboundIsBinary
                connection.inbound = []
                connection.inboundIsBinary = false
                connection.emit(isBinary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self)))
            }
            return 0

        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard let connection = connection(wsi), !connection.dropRequested else { return 0 }
            return writer.writeable(wsi, connection)

        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            // `in` holds the peer's close payload; returning 0 lets lws echo it. A test client takes any code.
            let payload = input.map { UnsafeRawBufferPointer(start: $0, count: length) }
            if let connection = connection(wsi), let code = PeerCloseFrame(payload: payload).code {
                connection.peerCloseCode = code
            }
            return 0

        case LWS_CALLBACK_CLIENT_CLOSED:
            guard let connection = connection(wsi) else { return 0 }
            let code = connection.dropRequested ? nil : (connection.peerCloseCode ?? connection.sentCloseCode)
            finish(connection, .closed(code: code))
            return 0

        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func connection(_ wsi: OpaquePointer) -> LWSClientConnection? {
        guard let opaque = lws_get_opaque_user_data(wsi) else { return nil }
        return connections[UInt64(UInt(bitPattern: opaque))]
    }
}

/// One client WebSocket, owned by the service thread.
final class LWSClientConnection: LWSWebSocketOutput {
    let id: UInt64
    let handler: LWSClientContext.Handler
    let memory = LWSMemory()
    // Set at CLIENT_ESTABLISHED, cleared when the connection ends.
    var wsi: OpaquePointer?
    var isOpen = false
    var subprotocol: String?
    var outbound = OutboundQueue()
    var inbound: [UInt8] = []
    var inboundIsBinary = false
    var pendingClose: (code: UInt16, reason: String)?
    var dropRequested = false
    var sentCloseCode: UInt16?
    var peerCloseCode: UInt16?

    init(id: UInt64, handler: @escaping LWSClientContext.Handler) {
        self.id = id
        self.handler = handler
    }

    func emit(_ event: ClientEvent) {
        handler(ClientConnectionID(rawValue: id), event)
    }
}

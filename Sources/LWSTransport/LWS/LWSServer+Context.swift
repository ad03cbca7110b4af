import CLibWebSockets
import SystemCalls

/// The lws context and its vhost, with the C tables lws keeps by pointer (protocols, mounts, MIME types,
/// the retry policy), and the checks a configuration must pass first.
extension LWSServer {
    static func validate(_ configuration: WebServerConfiguration) throws {
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

    func createContext() throws {
        let protocolName = memory.cString(configuration.subprotocol)

        // The protocol array must outlive the context. The configured protocol is protocols[0]:
        // lws binds a WebSocket that names no subprotocol to protocols[0], and plain HTTP
        // (the file mount's filter callbacks) is also handled there.
        let protocols = callbackRoute.protocols(
            named: protocolName, sessionBytes: MemoryLayout<UInt64>.size, in: memory)

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
        // The route outlives the context.
        callbackRoute.route(&contextInfo)
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

    func destroyContext() {
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
}

import CLibWebSockets
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// WebSocket upgrades, what a WebSocket receives, and the RFC 6455 checks lws leaves out.
extension LWSServer {
    // MARK: - Upgrade

    func refusal(forUpgrade wsi: OpaquePointer) -> UpgradePolicy.Refusal? {
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

    func confirmUpgrade(_ wsi: OpaquePointer, to upgrade: UnsafeMutableRawPointer?) -> Int32 {
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

    func webSocketEstablished(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard user != nil else { return -1 }
        lastConnectionID += 1
        // lws frees the per-session memory without running Swift code: keep only the integer id there.
        shim_lws_set_session_id(user, lastConnectionID)
        let connection = LWSServerConnection(id: ConnectionID(rawValue: lastConnectionID), wsi: wsi)
        connections[lastConnectionID] = connection
        delegate?.connectionOpened(connection.id, on: WebServerLoop(self))
        return 0
    }

    // MARK: - WebSocket receive

    func received(_ connection: LWSServerConnection, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let wsi = connection.wsi
        // After an overflow the session goes on until the socket is gone: what the client still sends
        // counts, and what it causes is delivered when it resumes.
        guard connection.state.deliversMessages else { return 0 }
        if lws_frame_is_binary(wsi) != 0 {
            violate(connection, .binary)
            return 0
        }
        let message: [UInt8]
        if lws_is_final_fragment(wsi) != 0, connection.inbound.isEmpty {
            // A whole message in one piece (the common case): taken straight from lws's buffer.
            if length > configuration.maxMessageBytes {
                violate(connection, .tooLarge)
                return 0
            }
            message = input.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
        } else {
            if connection.inbound.count + length > configuration.maxMessageBytes {
                violate(connection, .tooLarge)
                return 0
            }
            if let input, length > 0 {
                connection.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
            }
            // A message arrives in pieces of at most rx_buffer_size: deliver it when the final one is in.
            guard lws_is_final_fragment(wsi) != 0 else { return 0 }
            message = connection.inbound
            connection.inbound = []
        }
        // RFC 6455 §8.1: a text message that is not UTF-8 fails the connection with 1007.
        guard UTF8Validation.isValid(message) else {
            return fail(connection, code: 1007, reason: "text message is not UTF-8")
        }
        // What the delegate sends meanwhile is an answer: the gate writes it when the pass ends.
        gate.answering(connection) {
            delegate?.connection(connection.id, received: message, on: WebServerLoop(self))
        }
        return 0
    }

    // MARK: - RFC 6455 checks lws 4.1.6 leaves out

    /// -1 (after setting the close frame) if the frame being delivered breaks a rule lws does not check
    /// itself; nil to go on.
    func frameRefusal(_ connection: LWSServerConnection) -> Int32? {
        // RFC 6455 §5.1: every frame from a client is masked; the server must fail the connection.
        if LWSFrameMask.isMasked(connection.wsi) == false {
            return fail(connection, code: 1002, reason: "client frames must be masked")
        }
        return nil
    }

    /// The peer's close frame (its payload in `payload`): recorded and echoed if valid, else answered as
    /// ``PeerCloseFrame/violation`` says.
    func peerClosed(_ connection: LWSServerConnection, _ payload: UnsafeRawBufferPointer?) -> Int32 {
        let frame = PeerCloseFrame(payload: payload)
        if let violation = frame.violation { return fail(connection, code: violation.code, reason: violation.reason) }
        connection.state = .peerClosed(code: frame.code ?? connection.state.closeCode)
        return 0  // lws echoes the close frame
    }

    /// lws 4.1.6 fails a connection for a few frames without naming a close code (ops-ws.c: a control frame
    /// over 125 bytes, RFC 6455 §5.5; a 64-bit length with its top bit set), so it would drop the TCP
    /// connection without a close frame. It raises WS_SERVER_DROP_PROTOCOL just before it decides whether
    /// to send one (close.c), so a code set here goes out: 1002. Every other way a connection ends is told
    /// apart first: the server's own close or kill and the peer's close frame (the connection is no longer
    /// open), a close lws named itself (`lws_get_close_length`), the peer's TCP close (the socket reads
    /// end-of-file or fails), and lws's dead-peer hangup (no pong for `hangupSeconds`).
    func failUnnamedViolation(_ connection: LWSServerConnection) {
        let wsi = connection.wsi
        guard phase == .running, connection.state == .open, lws_get_close_length(wsi) == 0 else { return }
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
        case .success(let count) where count > 0: break
        case .failure(let error) where error.wouldBlock: break
        default: return  // end-of-file or a failed socket: the peer's TCP close
        }
        connection.inbound = []
        connection.state = .closeSent(code: 1002, reading: false)
        LWSCloseReason.set(wsi, code: 1002, reason: "invalid frame length")
    }

    /// Closes at once with `code`: lws sends the close frame when the callback returns -1.
    private func fail(_ connection: LWSServerConnection, code: UInt16, reason: String) -> Int32 {
        connection.inbound = []
        connection.state = .closeSent(code: code, reading: false)
        LWSCloseReason.set(connection.wsi, code: code, reason: reason)
        return -1
    }

    /// Closes after what is queued, and what the delegate queues now (an error frame); nothing the client
    /// sends is delivered from here.
    private func violate(_ connection: LWSServerConnection, _ violation: InboundViolation) {
        connection.inbound = []
        delegate?.connection(connection.id, violated: violation, on: WebServerLoop(self))
        requestClose(connection, code: violation.closeCode, reason: violation.closeReason, reading: false)
        // Already closing after an overflow, whose close still read on.
        connection.state.stopDelivering()
    }
}

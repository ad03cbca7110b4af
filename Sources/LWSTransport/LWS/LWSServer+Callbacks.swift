import CLibWebSockets

/// lws's callbacks, each handed to the part of the server it concerns.
extension LWSServer {
    /// One lws callback, on the service thread; returns what lws expects of it.
    func handle(
        _ wsi: OpaquePointer,
        _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?,
        _ length: Int
    ) -> Int32 {
        switch reason {
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
            return gate.writeable(connection)

        case LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL:
            if let connection = connection(user) { failUnnamedViolation(connection) }
            return 0

        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            guard let connection = connection(user) else { return 0 }
            if let refusal = frameRefusal(connection) { return refusal }
            return peerClosed(connection, input.map { UnsafeRawBufferPointer(start: $0, count: length) })

        case LWS_CALLBACK_CLOSED:
            guard let id = sessionID(user), let connection = connections.removeValue(forKey: id) else { return 0 }
            if let timer = connection.closeTimer { cancel(timer) }
            gate.closed(connection)
            // The server's code counts when it closed first, even if the peer never read the close frame.
            delegate?.connectionClosed(connection.id, code: connection.state.closeCode, on: WebServerLoop(self))
            return 0

        case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
            return filterHTTPRequest(wsi, path: input, length: length)

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
            // An answer handed to lws whole, and lws holding none of it (its output is freed only after
            // these callbacks), reached the socket: the reader closed after the flush, before the WRITEABLE
            // that would have closed it here. Only an answer with bytes left is cut off.
            if let id = sessionID(user), let pending = httpResponses.removeValue(forKey: id),
                pending.written < pending.length || lws_partial_buffered(wsi) != 0
            {
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

}

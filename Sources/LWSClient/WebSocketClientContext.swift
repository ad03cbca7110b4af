/// A WebSocket client context with its own service thread, holding many connections (for load
/// generation); events of each connection go to that connection's handler on the service thread.
///
/// All methods are thread-safe. Calls made from a handler (on the service thread) take effect at
/// once; calls from other threads are queued and wake the service thread.
public final class WebSocketClientContext: Sendable {
    private let core: LWSClientContext

    /// Creates the lws client context and starts its service thread.
    /// - Throws: ``ClientError/contextUnavailable`` if libwebsockets cannot create it.
    public init() throws {
        core = try LWSClientContext()
    }

    deinit {
        core.shutdown()
    }

    /// Starts connecting to `ws://host:port/path`; `handler` receives, with this connection's id,
    /// `.opened` or `.failed`, then messages, then one `.closed`. It runs on the context's thread
    /// and may be shared by many connections. `subprotocol` nil sends no `Sec-WebSocket-Protocol`;
    /// `origin` nil sends no `Origin`. The `Host` header is `host:port`.
    public func connect(
        host: String = "127.0.0.1",
        port: Int,
        path: String = "/ws",
        subprotocol: String? = nil,
        origin: String? = nil,
        handler: @escaping @Sendable (ClientConnectionID, ClientEvent) -> Void
    ) -> ClientConnectionID {
        core.connect(
            ClientConnectRequest(host: host, port: port, path: path, subprotocol: subprotocol, origin: origin),
            handler: handler
        )
    }

    /// Queues a text message (bytes are sent as they are, as UTF-8 text).
    public func send(_ text: [UInt8], to id: ClientConnectionID) {
        core.send(text, isBinary: false, to: id)
    }

    /// Queues a binary message.
    public func sendBinary(_ bytes: [UInt8], to id: ClientConnectionID) {
        core.send(bytes, isBinary: true, to: id)
    }

    /// Closes with `code` after the queued messages are written.
    public func close(_ id: ClientConnectionID, code: UInt16 = 1000, reason: String = "") {
        core.close(id, code: code, reason: reason)
    }

    /// Ends the connection abruptly: the TCP socket is shut down without a close frame.
    public func drop(_ id: ClientConnectionID) {
        core.drop(id)
    }

    /// Ends every connection, destroys the context and joins the service thread (unless called
    /// from a handler). Later calls do nothing; later connects fail with `.contextUnavailable`.
    public func shutdown() {
        core.shutdown()
    }
}

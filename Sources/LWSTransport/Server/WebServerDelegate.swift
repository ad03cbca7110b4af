/// What the application does with connections, messages and API requests.
///
/// Every method is called on the service thread (the thread inside ``WebServer/run()``). Those that may
/// act on connections get the ``WebServerLoop``, the only way to send, close or schedule.
public protocol WebServerDelegate: AnyObject {
    /// The loop has started serving, before any connection: the place to start periodic work.
    func serverStarted(on loop: WebServerLoop)
    /// A WebSocket completed its handshake.
    func connectionOpened(_ id: ConnectionID, on loop: WebServerLoop)
    /// One whole, reassembled text message (valid UTF-8: other text closes the connection with 1007).
    func connection(_ id: ConnectionID, received text: [UInt8], on loop: WebServerLoop)
    /// The transport refused a message; after this callback returns it writes what the delegate
    /// queued (e.g. an `error` frame) and then closes with ``InboundViolation/closeCode``.
    func connection(_ id: ConnectionID, violated: InboundViolation, on loop: WebServerLoop)
    /// The connection ended. `code` is the close code of the closing handshake: the peer's, or the
    /// server's when the server closed first (also when the peer never read that close frame, e.g.
    /// 1008 after ``WebServerConfiguration/maxOutboundBytes``); nil when the peer dropped without one.
    func connectionClosed(_ id: ConnectionID, code: UInt16?, on loop: WebServerLoop)
    /// Answers a request under one of ``WebServerConfiguration/apiMounts``; nil answers 404.
    func handle(_ request: HTTPRequest) -> HTTPResponse?
    /// Whether one more WebSocket may open now, asked before its handshake is answered; false answers
    /// HTTP 503, like ``WebServerConfiguration/maxConnections``.
    func admitsConnection() -> Bool
    /// An answer of ``handle(_:)`` was cut off: its reader stalled past
    /// ``WebServerConfiguration/httpStallTimeoutSeconds`` or closed early. The default writes
    /// ``HTTPResponseDrop/description`` through ``LWSLog`` (standard error unless redirected).
    func httpResponseDropped(_ drop: HTTPResponseDrop)
}

extension WebServerDelegate {
    public func serverStarted(on loop: WebServerLoop) {}

    public func admitsConnection() -> Bool { true }

    public func httpResponseDropped(_ drop: HTTPResponseDrop) {
        LWSLog.report(drop.description)
    }
}

/// An HTTP + WebSocket server on one port, on libwebsockets: static files, a JSON API routed to
/// a delegate, and text WebSockets.
///
/// Confined to the service thread (the thread that calls ``run()``; before that, the thread that
/// created it) except ``stop()`` and ``execute(_:)``, which any thread may call.
public final class WebServer: @unchecked Sendable {
    // @unchecked: all mutable state is confined to the service thread (asserted in debug builds);
    // stop() and execute(_:) go through a mutex and lws_cancel_service.
    private let core: LWSServer

    /// Binds the listening socket and prepares the server; serving starts with ``run()``.
    ///
    /// The server keeps a strong reference to `delegate` until ``run()`` returns.
    /// - Throws: ``WebServerError``, e.g. `.cannotListen` when the port is in use.
    public init(configuration: WebServerConfiguration, delegate: any WebServerDelegate) throws {
        core = try LWSServer(configuration: configuration, delegate: delegate)
    }

    /// The configuration the server was created with.
    public var configuration: WebServerConfiguration { core.configuration }

    /// The port actually bound (differs from the configured one when that was 0). Thread-safe.
    public var port: Int { core.port }

    /// Services the event loop on the calling thread until ``stop()``; then closes every WebSocket
    /// with 1001 (waiting at most ``WebServerConfiguration/shutdownGraceMilliseconds`` for the
    /// closing handshakes), reports each to the delegate and destroys the context on this thread.
    public func run() {
        core.run()
    }

    /// Asks ``run()`` to shut down and return. Thread-safe; safe before ``run()`` (it then returns at once).
    public func stop() {
        core.stop()
    }

    /// Runs `work` on the service thread soon. Thread-safe. Work arriving after the context is
    /// destroyed is dropped.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        core.execute(work)
    }

    /// Queues a text message last. An unwritten message with the same `coalescingKey` is dropped, so
    /// only the newest is sent and it never overtakes what was queued before it; messages without a key
    /// are never dropped. Unknown or closing connections are ignored.
    public func send(_ text: [UInt8], to id: ConnectionID, coalescingKey: String? = nil) {
        core.send(text, to: id, coalescingKey: coalescingKey)
    }

    /// Closes a connection with `code` and `reason` once the messages queued before are written.
    public func close(_ id: ConnectionID, code: UInt16, reason: String) {
        core.close(id, code: code, reason: reason)
    }

    /// Runs `work` on the service thread after `ms` milliseconds unless cancelled first.
    @discardableResult
    public func schedule(afterMilliseconds ms: Int, _ work: @escaping () -> Void) -> TimerHandle {
        core.schedule(afterMilliseconds: ms, work)
    }

    /// Cancels a timer that has not fired; does nothing otherwise.
    public func cancel(_ timer: TimerHandle) {
        core.cancel(timer)
    }

    /// Bytes queued for `id` and not yet handed to the socket (0 for unknown connections).
    public func outboundBytes(of id: ConnectionID) -> Int {
        core.assertServiceThread()
        return core.outboundBytes(of: id)
    }

    /// Connections the front door handed to libwebsockets and libwebsockets has not closed yet. Thread-safe.
    var adoptedConnectionCount: Int { core.adoptedConnectionCount }
}

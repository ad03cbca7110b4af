/// An HTTP + WebSocket server on one port, on libwebsockets: static files, a JSON API routed to
/// a delegate, and text WebSockets.
///
/// This handle is `Sendable` and has only what any thread may do: ``run()``, ``stop()`` and
/// ``execute(_:)``. Sending, closing and timers belong to ``WebServerLoop``, which exists only on the
/// service thread (the thread inside ``run()``).
public final class WebServer: @unchecked Sendable {
    // @unchecked: the core's mutable state is reached only from the service thread, through run() and the
    // WebServerLoop values it hands out there; stop() and execute(_:) go through a mutex and
    // lws_cancel_service.
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

    /// Services the event loop on the calling thread (the service thread from then on) until ``stop()``;
    /// then closes every WebSocket with 1001 (waiting at most
    /// ``WebServerConfiguration/shutdownGraceMilliseconds`` for the closing handshakes), reports each to
    /// the delegate and destroys the context on this thread. Call it once.
    public func run() {
        core.run()
    }

    /// Asks ``run()`` to shut down and return. Thread-safe; safe before ``run()`` (it then returns at once).
    public func stop() {
        core.stop()
    }

    /// Runs `work` on the service thread soon, with the loop. Thread-safe; work given before ``run()``
    /// runs when it starts. Work arriving after the context is destroyed is dropped.
    public func execute(_ work: @escaping @Sendable (WebServerLoop) -> Void) {
        core.execute(work)
    }

    /// Connections the front door handed to libwebsockets and libwebsockets has not closed yet. Thread-safe.
    var adoptedConnectionCount: Int { core.adoptedConnectionCount }
}

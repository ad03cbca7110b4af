/// Everything ``WebServer`` needs to listen, serve files and accept WebSockets. What is the product's (its
/// subprotocol, its API paths) the application says; the defaults are the transport's own.
public struct WebServerConfiguration: Sendable {
    /// The address to listen on: an IPv4/IPv6 address, `"localhost"`, or `"0.0.0.0"`/`"::"` for all.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one, reported by ``WebServer/port``.
    public var port: Int = 8080
    /// The directory whose files are served at `/` (`index.html` for directories).
    public var publicDirectory: String
    /// The only path that accepts WebSocket upgrades.
    public var webSocketPath: String = "/ws"
    /// The WebSocket subprotocol; clients naming no subprotocol land on it too.
    public var subprotocol: String
    /// Origins accepted besides no `Origin` header and the server's own (`"http://" + Host`).
    public var allowedOrigins: [String] = []
    /// The largest inbound message, in bytes, before ``InboundViolation/tooLarge``.
    public var maxMessageBytes: Int = 64 * 1024
    /// The most simultaneous WebSockets; further upgrades get HTTP 503.
    public var maxConnections: Int = 1024
    /// The most bytes queued for one WebSocket and not yet written. A send that takes the queue past
    /// it drops what is queued and closes the connection with 1008: a client that does not read cannot
    /// make the server hold more. Messages sent with a coalescing key replace each other first.
    public var maxOutboundBytes: Int = 4 * 1024 * 1024
    /// How long a WebSocket the server is closing may take to accept the close frame (a client that
    /// does not read never does) before the TCP connection is dropped without it.
    public var closeTimeoutMilliseconds: Int = 2_000
    /// Idle seconds after which the server pings a WebSocket (0 disables dead-peer detection).
    public var pingIntervalSeconds: Int = 30
    /// Idle seconds after which a WebSocket that answered nothing is dropped; must exceed the ping interval.
    public var hangupSeconds: Int = 75
    /// How long ``WebServer/run()`` waits, after ``WebServer/stop()``, for clients to finish the
    /// 1001 closing handshake before it destroys the context anyway.
    public var shutdownGraceMilliseconds: Int = 2_000
    /// URL path prefixes routed to ``WebServerDelegate/handle(_:)`` instead of the file mount (e.g. `/api`);
    /// none by default.
    public var apiMounts: [String] = []
    /// Paths of public files answered with `Access-Control-Allow-Origin: *`, so that pages on any origin
    /// may read them (e.g. a script they import as a module); every other answer carries no CORS header.
    /// None by default.
    public var crossOriginFiles: [String] = []
    /// How long an HTTP answer may wait for its reader: every write of a dynamic answer restarts this
    /// clock, so a reader that keeps reading gets the whole answer however slowly it reads; one that
    /// reads nothing for this long is dropped and reported (``WebServerDelegate/httpResponseDropped(_:)``).
    public var httpStallTimeoutSeconds: Int = 30
    /// The largest request head served, request line, every header line (known to libwebsockets or not)
    /// and the final empty line included; a larger one gets HTTP 431 from the front door, whatever its size.
    public var maxRequestHeaderBytes: Int = 16 * 1024
    /// libwebsockets' per-request header buffer (at most 65,535 bytes); must exceed ``maxRequestHeaderBytes``,
    /// so that every head the front door lets through fits (libwebsockets stores a little more than the
    /// head's bytes: 8 bytes per header it does not know).
    public var headerBufferBytes: Int = 32 * 1024
    /// How long a new connection may take to send its whole request head before it is closed (with 408 when
    /// it sent part of one; silently when it sent nothing, like a browser's unused preconnection).
    public var requestHeadTimeoutMilliseconds: Int = 10_000
    /// Connections whose request head is still being read; when a new one arrives beyond this the oldest of
    /// them is closed, so connections that send nothing cannot keep other clients out.
    public var maxPendingRequestHeads: Int = 128
    /// File descriptors kept free for everything but connections (log and trace files, the terminal,
    /// libraries). libwebsockets accepts connections only while the process holds fewer than the soft
    /// `RLIMIT_NOFILE` minus this many, so it never runs into `EMFILE`; see ``FileDescriptorLimit``.
    public var reservedFileDescriptors: Int = 64

    /// A configuration serving `publicDirectory` and accepting WebSockets that speak `subprotocol`, with
    /// defaults for everything else.
    public init(publicDirectory: String, subprotocol: String) {
        self.publicDirectory = publicDirectory
        self.subprotocol = subprotocol
    }
}

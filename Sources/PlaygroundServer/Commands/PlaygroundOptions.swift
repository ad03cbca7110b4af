import ScrollCore

/// Everything `scroll-playground serve` can be told.
public struct PlaygroundOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// The page's files.
    public var publicDirectory: String
    /// Session settings before a page's `hello.config` applies.
    public var defaults = ScrollConfig()
    /// The feed: synthetic, or an `--items` file.
    public var source = FeedSource.synthetic
    /// Where `events.jsonl` and `traces/` go, if anywhere.
    public var logDirectory: String?
    /// The most bytes the log folder holds (`--max-log-bytes`; 0 = no cap): the oldest ended sessions'
    /// traces are removed to stay under it, and recording stops when only held sessions' traces are left.
    public var maxLogBytes = 1 << 30
    /// How the terminal shows events; nil prints nothing but the start line.
    public var terminalFormat: LogFormat? = .text
    /// The most sessions held at once, connected or waiting to be resumed (`--max-sessions`): more
    /// WebSockets get HTTP 503, one client address has at most half of them live, and a new session evicts
    /// a held one: of the address with the most sessions, the one that has waited longest for its page.
    public var maxSessions = 1024
    /// The most WebSockets that have not said `hello` yet (`--max-connecting`), besides the sessions.
    public var maxConnecting = 64
    /// How long a WebSocket may take to say `hello` before it is closed with 1008 (`--hello-timeout`).
    public var helloTimeoutMilliseconds = 10_000
    /// The most items one session holds (`--max-session-items`), refreshed ones included. However many, a
    /// resume or a jump sends them in parts that fit `--max-message` and `--max-outbound` (SessionHost+Outbox).
    public var maxSessionItems = 10_000
    /// Browser origins accepted besides the server's own.
    public var allowedOrigins: [String] = []
    /// How long a disconnected session waits for its page to resume it.
    public var resumeGraceMilliseconds = 60_000
    /// The largest message a page may send (`--max-message`); a larger one gets `too_large` and close 1009.
    public var maxMessageBytes = 64 * 1024
    /// Bytes queued for one page and not yet written (`--max-outbound`); past it the connection closes
    /// with 1008 and the session waits to be resumed.
    public var maxOutboundBytes = 4 * 1024 * 1024
    /// Geometry messages a session applies per second (`--max-geometry-rate`); the excess is coalesced,
    /// the newest winning, with one `rate_limited` error a second.
    public var maxGeometryPerSecond = 240
    /// The most bytes of parent trace a fork may send (`--max-fork-bytes`).
    public var maxForkBytes = 8 * 1024 * 1024
    /// The most lines of parent trace a fork may send, header included (`--max-fork-lines`).
    public var maxForkLines = 50_000
    /// The most bytes of traces uploaded in `forkTrace` pieces held at once, over every connection
    /// (`--max-upload-bytes`), counting those a fork's rebuild or a `tryHand` still works on; one client
    /// address holds at most half. Past it the upload is refused with `server_full` and close 1013.
    public var maxUploadBytes = 256 << 20
    /// The most bytes, estimated from their items, of the sessions held for resume (`--max-held-bytes`):
    /// past it held sessions are evicted (of the address with the most sessions, the one that has waited
    /// longest for its page). Live sessions never are.
    public var maxHeldBytes = 256 << 20
    /// Events kept in memory for `/api/events`.
    public var eventRingCapacity = 10_000
    /// Bytes of events kept in memory for `/api/events`.
    public var eventRingBytes = EventLog.defaultRingBytes

    public init(publicDirectory: String) {
        self.publicDirectory = publicDirectory
    }
}

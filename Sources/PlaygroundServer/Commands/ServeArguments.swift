import CommandLineOptions
import ScrollCore

/// What `scroll-playground serve` reads from its command line, before the folder and file it names are
/// checked: the options, plus `--public` and `--items` as given.
struct ServeArguments: Sendable {
    /// Everything but the page's folder and the feed, which come from the two paths below.
    var options = PlaygroundOptions(publicDirectory: "")
    /// `--public`, if given.
    var publicDirectory: String?
    /// `--items`, if given.
    var itemsFile: String?

    /// Where the server listens, what it serves and where it logs.
    static let serverOptions: [Option<ServeArguments>] = [
        .text("host", "ADDRESS", help: "address to listen on", \.options.host),
        .integer("port", help: "port, 0 = any free one", \.options.port, in: 0...65535),
        .text(
            "public", "DIR", help: "the page's files (default: ./Public, else the Public folder next to the package)",
            \.publicDirectory),
        .text(
            "items", "FILE.json", help: "page through a JSON array of {id, title, ...} instead of synthetic items",
            \.itemsFile),
        .text("log-dir", "DIR", help: "write DIR/events.jsonl and DIR/traces/SESSION.jsonl", \.options.logDirectory),
        .choice("log-format", help: "terminal event lines", \.options.terminalFormat),
        .repeatable(
            "allow-origin", "ORIGIN", help: "accept WebSockets from this browser origin too",
            \.options.allowedOrigins),
    ]

    /// What one page, or many, can make the server hold (docs/security.md, "Limits").
    static let limitOptions: [Option<ServeArguments>] = [
        .integer(
            "max-sessions",
            help: "sessions held, connected or awaiting resume, at most half of them live from one client "
                + "address; more WebSockets get HTTP 503, and a new session evicts a held one (the longest-waiting "
                + "of the address with the most)", \.options.maxSessions, in: 1...1_000_000),
        .integer(
            "max-connecting", help: "WebSockets that have not said hello yet, besides the sessions",
            \.options.maxConnecting, in: 1...100_000),
        .number(
            "hello-timeout", "S", help: "seconds a WebSocket may take to say hello; then close 1008",
            \.options.helloTimeoutSeconds, in: 0.1...3600, unit: "seconds"),
        .integer(
            "max-session-items",
            help: "items one session holds, lowered at start to fit --max-outbound; "
                + "at the cap hasMore is false", \.options.maxSessionItems, in: 1...10_000_000),
        .integer(
            "max-message", "BYTES", help: "largest message a page may send; larger closes with 1009",
            \.options.maxMessageBytes, in: 1024...16 * 1024 * 1024),
        .integer(
            "max-outbound", "BYTES",
            help: "bytes queued for a page that is not reading; past it the connection "
                + "closes with 1008 and the session waits to be resumed",
            \.options.maxOutboundBytes, in: 64 * 1024...1024 * 1024 * 1024),
        .integer(
            "max-geometry-rate",
            help: "geometry messages a session applies per second; the excess is coalesced, "
                + "the newest winning, with one rate_limited error a second",
            \.options.maxGeometryPerSecond, in: 1...100_000),
        .integer(
            "max-fork-bytes", "BYTES", help: "bytes of parent trace a fork (hello.fork) may send",
            \.options.maxForkBytes, in: 1024...64 * 1024 * 1024),
        .integer(
            "max-fork-lines", help: "lines of parent trace a fork may send, header included",
            \.options.maxForkLines, in: 2...1_000_000),
        .integer(
            "max-upload-bytes", "BYTES",
            help: "bytes of traces uploaded before hello (forkTrace) held at once over all connections, "
                + "at most half from one address; past it server_full and close 1013",
            \.options.maxUploadBytes, in: 64 * 1024...1 << 40),
        .integer(
            "max-held-bytes", "BYTES",
            help: "bytes (estimated from their items) of sessions awaiting resume; past it the "
                + "longest-waiting of the address with the most is evicted, never a live one",
            \.options.maxHeldBytes, in: 1024 * 1024...1 << 40),
        .number(
            "resume-grace", "S", help: "seconds a dropped session waits to be resumed",
            \.options.resumeGraceSeconds, in: 0...86_400, unit: "seconds"),
        .integer(
            "max-log-bytes", "BYTES",
            help: "bytes the --log-dir folder may hold, 0 = no cap; the oldest ended sessions' traces go first, "
                + "and recording stops when only live or resumable ones are left",
            \.options.maxLogBytes, in: 0...1 << 50),
    ]

    /// One option per session setting, generated from `ScrollConfig.settings`, which reads and checks the
    /// values: a page's `hello.config` or `config` message overrides them.
    static let sessionOptions: [Option<ServeArguments>] = ScrollConfig.commandLineSettings.map { setting in
        Option(
            setting.flag, ScrollConfig().json[setting.name]?.string == nil ? "N" : "NAME", help: setting.help,
            default: { arguments in arguments.options.defaults.commandLineDefault(setting.name) },
            apply: { (arguments, text) throws(OptionError) in
                do {
                    try arguments.options.defaults.apply(name: setting.name, text: text)
                } catch {
                    throw .rejected(option: setting.flag, reason: "\(error)", text: text)
                }
            })
    }

    /// The options of `serve` under their `--help` headings, in order.
    static let sections: [(heading: String, options: [Option<ServeArguments>])] = [
        ("Server options:", serverOptions + [.help()]),
        ("Limits (docs/security.md):", limitOptions),
        ("Session defaults (a page's hello.config or config message overrides them):", sessionOptions),
    ]

    /// Every option of `serve`, starting from the real defaults.
    static let parser = OptionParser(defaults: ServeArguments(), options: sections.flatMap(\.options))
}

import CommandLineOptions

/// What several modes are told besides their own flags: which server to measure, `--json`, and what to
/// pass the server the bench starts (everything after `--`).
struct Arguments: Sendable {
    /// `--url`: a running server instead of one the bench starts.
    var url: String?
    /// `--server-pid`: with `--url`, whose CPU and memory to read; 0 or absent reads none.
    var serverPID: Int?
    /// `--server`: the executable to start instead of the `scroll-playground` next to the bench.
    var server: String?
    /// `--json`: one JSON object instead of the table.
    var json = false
    /// Arguments after `--`, passed to `scroll-playground` when the bench starts it.
    var serverArguments: [String] = []

    /// A server that is already running.
    static let remote: [Option<Arguments>] = [
        .text("url", "ws://HOST:PORT/PATH", help: "any server speaking the playground protocol", \.url),
        .integer(
            "server-pid", "PID", help: "with --url: whose CPU and memory to read from /proc", \.serverPID,
            in: 0...Int(Int32.max)),
    ]

    /// The server the bench starts.
    static let spawn: [Option<Arguments>] = [
        .text("server", "PATH", help: "another scroll-playground executable to start", \.server)
    ]

    /// How the results are printed.
    static let output: [Option<Arguments>] = [
        .switch("json", help: "print one JSON object instead of the table", \.json)
    ]
}

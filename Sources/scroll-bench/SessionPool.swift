import CommandLineOptions
import LWSClient
import SystemCalls

/// The server a bench talks to: one it started, or `--url` (with `--server-pid` to measure it).
struct Target {
    var host: String
    var port: Int
    var path: String
    /// The server the bench started, if it did.
    var process: ServerProcess?
    /// Whose CPU and memory to read from `/proc`.
    var pid: ProcessID?
    /// How the server was found, for the report.
    var description: String

    /// `--url ws://HOST:PORT/PATH` [`--server-pid`], else starts `--server` (default: the
    /// `scroll-playground` next to this executable) with room for `sessions` connections.
    static func resolve(_ arguments: Arguments, sessions: Int) throws -> Target {
        if let url = arguments.url {
            guard url.hasPrefix("ws://") else { throw UsageError("--url must look like ws://127.0.0.1:8080/ws") }
            let rest = url.dropFirst(5)
            let authority = rest.prefix { $0 != "/" }
            let path = rest.dropFirst(authority.count)
            guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
                (1...65535).contains(port)
            else { throw UsageError("--url needs a port: ws://HOST:PORT/PATH") }
            let pid = arguments.serverPID ?? 0
            return Target(
                host: String(authority[..<colon]), port: port, path: path.isEmpty ? "/ws" : String(path), process: nil,
                pid: pid > 0 ? ProcessID(pid) : nil,
                description: "server: \(url)"
                    + (pid > 0 ? " (pid \(pid))" : " (no --server-pid: its CPU and memory are not measured)"))
        }
        let executable = arguments.server ?? ServerProcess.defaultExecutable
        var extra = ["--max-sessions", String(max(1024, sessions + 64))]
        // The bench opens up to `handshakesInFlight` sessions at once, each a connection that has not said
        // hello yet; the server caps those (`--max-connecting`, 64), builds before that cap know no such flag.
        if ServerProcess.knows("--max-connecting", executable: executable) {
            extra += ["--max-connecting", String(min(sessions, SessionPool.handshakesInFlight) + 64)]
        }
        extra += arguments.serverArguments
        let process = try ServerProcess(executable: executable, arguments: extra)
        return Target(
            host: "127.0.0.1", port: process.port, path: "/ws", process: process, pid: process.pid,
            description: "server: \(executable) --port 0 --log-format json \(extra.joined(separator: " ")) "
                + "(pid \(process.pid); its event lines are read from a pipe and discarded)")
    }
}

/// Many WebSocket sessions on one `WebSocketClientContext` (one lws context, one service thread).
final class SessionPool {
    let client: WebSocketClientContext
    let board: SessionBoard
    let receiver: Receiver
    private(set) var connections: [ClientConnectionID] = []

    init(count: Int, preset: String?, expectedSamples: Int) throws {
        client = try WebSocketClientContext()
        board = SessionBoard(count: count)
        receiver = Receiver(board: board, preset: preset, expectedSamples: expectedSamples)
    }

    /// Handshakes the bench keeps in flight at most while it connects its sessions.
    static let handshakesInFlight = 256

    /// The playground protocol's WebSocket subprotocol (docs/protocol.md), offered like the page does.
    static let subprotocol = "scroll-playground.v1"

    /// Opens every session (each says hello when its socket opens), at most `maxPending` handshakes
    /// at a time, and waits until each is ready (welcomed) or has failed. Returns the seconds it took.
    @discardableResult
    func connectAll(to target: Target, maxPending: Int = handshakesInFlight, timeoutSeconds: Double) -> Double {
        let started = Monotonic.now()
        let deadline = started + UInt64(timeoutSeconds * 1e9)
        let receiver = self.receiver
        let client = self.client
        for index in 0..<board.count {
            while index - (receiver.ready.load(ordering: .relaxed) + receiver.ended.load(ordering: .relaxed))
                >= maxPending
            {
                if Monotonic.now() > deadline { break }
                Monotonic.sleep(seconds: 0.0005)
            }
            connections.append(
                client.connect(
                    host: target.host, port: target.port, path: target.path, subprotocol: Self.subprotocol
                ) { id, event in
                    receiver.handle(index, id, event, client: client)
                })
        }
        while receiver.ready.load(ordering: .relaxed) + receiver.ended.load(ordering: .relaxed) < board.count,
            Monotonic.now() < deadline
        {
            Monotonic.sleep(seconds: 0.001)
        }
        return Double(Monotonic.now() - started) / 1e9
    }

    /// Why no session became ready within the connect timeout: the sockets failed, or they opened and the
    /// server never welcomed them (it does not speak the playground protocol, or answers in a way the bench
    /// cannot read).
    func noSessionReady(at target: Target, timeoutSeconds: Double) -> BenchError {
        let place = "\(target.host):\(target.port)\(target.path)"
        let opened = receiver.opened.load(ordering: .relaxed)
        guard opened == 0 else {
            let kinds = receiver.receivedKinds.sorted().joined(separator: ", ")
            return BenchError(
                "\(opened) WebSocket(s) opened at \(place) but no welcome arrived within \(Int(timeoutSeconds)) s "
                    + "(messages seen: \(kinds.isEmpty ? "none" : kinds)): does it speak the playground protocol?")
        }
        let failures = receiver.connectFailures.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        return BenchError(
            "no session could connect to \(place): \(failures) " + (target.process?.standardErrorTail ?? ""))
    }

    /// Closes every session with 1000 (waiting up to `waitSeconds` for the closing handshakes),
    /// then ends the client context and its thread.
    func closeAll(waitSeconds: Double = 5) {
        receiver.ending.store(true, ordering: .relaxed)
        for id in connections { client.close(id) }
        let deadline = Monotonic.now() + UInt64(waitSeconds * 1e9)
        while receiver.ended.load(ordering: .relaxed) < connections.count, Monotonic.now() < deadline {
            Monotonic.sleep(seconds: 0.005)
        }
        client.shutdown()
    }
}

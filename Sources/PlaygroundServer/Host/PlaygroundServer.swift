import Dispatch
import LWSTransport
import ScrollCore
import SystemCalls

/// The playground server: the page's files, the WebSocket protocol and the event log on one port.
public final class PlaygroundServer: @unchecked Sendable {
    // @unchecked: everything but `stop()` runs on the thread that calls `run()`; the server it wraps
    // documents the same rule.

    /// The version written into traces and shown by `--version`.
    public static let version = "0.1.0"

    /// The WebSocket subprotocol of the playground protocol (docs/protocol.md); the page names it too.
    public static let subprotocol = "scroll-playground.v1"

    private let server: WebServer
    private let host: SessionHost

    /// Binds the port and prepares the logs; serving starts with `run()`.
    public init(options: PlaygroundOptions) throws {
        var options = options
        let descriptors = Self.fitToDescriptorLimit(&options)
        // Measured before the event log opens its file, which it may rotate to fit.
        let budget = options.logDirectory.flatMap { directory in
            options.maxLogBytes > 0 ? LogBudget(directory: directory, maxBytes: options.maxLogBytes) : nil
        }
        let log = try EventLog(
            terminal: options.terminalFormat, ringCapacity: options.eventRingCapacity,
            ringByteCapacity: options.eventRingBytes, logDirectory: options.logDirectory,
            maxFileBytes: budget?.eventsFileBytes ?? 0)
        host = SessionHost(options: options, log: log, logBudget: budget)
        var configuration = WebServerConfiguration(
            publicDirectory: options.publicDirectory, subprotocol: Self.subprotocol)
        configuration.apiMounts = APIRoutes.mounts
        // The recorder is a public, credential-free script that apps on other origins import as a module.
        configuration.crossOriginFiles = ["/recorder.js"]
        configuration.host = options.host
        configuration.port = options.port
        configuration.allowedOrigins = options.allowedOrigins
        // Sessions and connections still to say hello each have their own cap (SessionHost.admitsConnection).
        configuration.maxConnections = options.maxSessions + options.maxConnecting
        configuration.reservedFileDescriptors = descriptors.reserved
        configuration.maxMessageBytes = options.maxMessageBytes
        configuration.maxOutboundBytes = options.maxOutboundBytes
        server = try WebServer(configuration: configuration, delegate: host)
        // A fork's rebuild (up to --max-fork-lines of replay) runs on its own thread, one at a time; its
        // result goes back to the service thread, where the session opens.
        let forks = DispatchQueue(label: "scroll-playground.fork-rebuild", qos: .utility)
        host.rebuildOffLoop = { [weak self] connection, work in
            guard let playground = self else { return }
            forks.async {
                let result = work()
                playground.server.execute { loop in playground.host.forkRebuilt(result, on: connection, loop: loop) }
            }
        }
        // A `tryHand` (the page's "Try this hand under…") runs on a thread of its own, one at a time, so a fork
        // never waits behind a trial (nor a trial behind a fork).
        let trials = DispatchQueue(label: "scroll-playground.hand-trial", qos: .utility)
        host.tryHandOffLoop = { [weak self] connection, work in
            guard let playground = self else { return }
            trials.async {
                let result = work()
                playground.server.execute { loop in playground.host.handTried(result, on: connection, loop: loop) }
            }
        }
    }

    /// Raises the open-file limit as far as the process may, and lowers `--max-sessions` and
    /// `--max-connecting` (with one warning) until every session, connection and trace file fits under
    /// it with a reserve left for HTTP, the logs and the libraries: past the limit a server cannot even
    /// refuse a connection properly. Returns the descriptors the transport must leave free.
    static func fitToDescriptorLimit(_ options: inout PlaygroundOptions) -> (limit: Int, reserved: Int) {
        let limit = FileDescriptorLimit.raiseSoftLimitToHard()
        let reserve = min(64, limit / 4)
        let available = limit - reserve
        // A connected session holds its socket and, when recording, its trace file.
        let perSession = options.logDirectory == nil ? 1 : 2
        if options.maxSessions * perSession + options.maxConnecting > available {
            let requested = (options.maxSessions, options.maxConnecting)
            options.maxConnecting = max(1, min(options.maxConnecting, available / 8))
            options.maxSessions = max(1, min(options.maxSessions, (available - options.maxConnecting) / perSession))
            StandardError.writeLine(
                "scroll-playground: the open-file limit (\(limit)) holds \(options.maxSessions) sessions and "
                    + "\(options.maxConnecting) connecting WebSockets, not \(requested.0) and \(requested.1): "
                    + "raise it with ulimit -n for more")
        }
        // Trace files are opened beside the transport's sockets: keep their descriptors free too.
        let traceFiles = options.logDirectory == nil ? 0 : options.maxSessions
        return (limit, reserve + traceFiles)
    }

    /// The port actually bound.
    public var port: Int { server.port }

    /// The page's address.
    public var url: String {
        let shownHost = host.options.host.contains(":") ? "[\(host.options.host)]" : host.options.host
        return "http://\(shownHost):\(port)"
    }

    /// Serves until `stop()`; then closes every session with 1001 and flushes the logs.
    public func run() {
        server.run()
        host.flushTraces()
        host.log.flush()
        host.log.drainTerminal(timeout: 0.5)
    }

    /// Asks `run()` to finish. Safe from any thread (e.g. a signal handler's queue).
    public func stop() {
        host.isShuttingDown.store(true, ordering: .relaxed)
        server.stop()
    }
}

extension SessionHost {
    /// Sessions with a connected page.
    var activeSessionCount: Int {
        sessions.values.count { $0.connection != nil }
    }
}

import LWSTransport
import ScrollCore

/// The playground server: the page's files, the WebSocket protocol and the event log on one port.
public final class PlaygroundServer: @unchecked Sendable {
    // @unchecked: everything but `stop()` runs on the thread that calls `run()`; the server it wraps
    // documents the same rule.

    /// The version written into traces and shown by `--version`.
    public static let version = "0.1.0"

    private let server: WebServer
    private let host: SessionHost

    /// Binds the port and prepares the logs; serving starts with `run()`.
    public init(options: PlaygroundOptions) throws {
        let log = try EventLog(
            terminal: options.terminalFormat, ringCapacity: options.eventRingCapacity, logDirectory: options.logDirectory)
        host = SessionHost(options: options, log: log)
        var configuration = WebServerConfiguration(publicDirectory: options.publicDirectory)
        configuration.host = options.host
        configuration.port = options.port
        configuration.allowedOrigins = options.allowedOrigins
        configuration.maxConnections = options.maxSessions
        configuration.maxMessageBytes = options.maxMessageBytes
        configuration.maxOutboundBytes = options.maxOutboundBytes
        server = try WebServer(configuration: configuration, delegate: host)
        host.server = server
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
        host.flushTracesEverySecond()
        server.run()
        host.flushTraces()
        host.log.flush()
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

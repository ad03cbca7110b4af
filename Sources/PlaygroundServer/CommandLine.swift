import Foundation
import ScrollCore

/// What the command line asks for (SPEC §8).
public enum PlaygroundCommand: Sendable {
    /// Serve the playground.
    case serve(PlaygroundOptions)
    /// Print this text and exit 0.
    case help(String)
    /// Replay recorded sessions and print the report.
    case replay(ReplayCommand)
}

/// A command line that cannot be followed; shown as one line, exit code 2.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension PlaygroundCommand {
    /// Parses the arguments after the program name. `locatePublic` finds the page's folder when
    /// `--public` is not given.
    public static func parse(_ arguments: [String], locatePublic: () -> String?) throws(UsageError) -> PlaygroundCommand {
        var arguments = arguments[...]
        if arguments.first == "serve" { arguments.removeFirst() }
        if arguments.first == "replay" {
            return try parseReplay(arguments.dropFirst())
        }
        var options = PlaygroundOptions(publicDirectory: "")
        var publicDirectory: String?
        var itemsFile: String?
        while let argument = arguments.popFirst() {
            guard argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)' (see --help)") }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "help" { return .help(usage) }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = arguments.popFirst() else { throw UsageError("--\(name) needs a value") }
                return next
            }
            func integer(_ range: ClosedRange<Int>) throws(UsageError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw UsageError("--\(name) must be an integer in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
                }
                return number
            }
            switch name {
            case "host": options.host = try value()
            case "port": options.port = try integer(0...65535)
            case "public": publicDirectory = try value()
            case "items": itemsFile = try value()
            case "log-dir": options.logDirectory = try value()
            case "log-format":
                let text = try value()
                guard let format = LogFormat(rawValue: text) else {
                    throw UsageError("--log-format must be text or json, not '\(text)'")
                }
                options.terminalFormat = format
            case "max-sessions": options.maxSessions = try integer(1...1_000_000)
            case "max-connecting": options.maxConnecting = try integer(1...100_000)
            case "max-session-items": options.maxSessionItems = try integer(1...10_000_000)
            case "hello-timeout":
                let text = try value()
                guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
                    throw UsageError("--hello-timeout must be seconds in 0.1…3600, not '\(text)'")
                }
                options.helloTimeoutMilliseconds = Int((seconds * 1000).rounded())
            case "max-message": options.maxMessageBytes = try integer(1024...16 * 1024 * 1024)
            case "max-outbound": options.maxOutboundBytes = try integer(64 * 1024...1024 * 1024 * 1024)
            case "max-geometry-rate": options.maxGeometryPerSecond = try integer(1...100_000)
            case "allow-origin": options.allowedOrigins.append(try value())
            case "resume-grace":
                let text = try value()
                guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
                    throw UsageError("--resume-grace must be seconds in 0…86400, not '\(text)'")
                }
                options.resumeGraceMilliseconds = Int((seconds * 1000).rounded())
            default:
                guard let setting = ScrollConfig.commandLineSettings.first(where: { $0.flag == name }) else {
                    throw UsageError("unknown option --\(name) (see --help)")
                }
                let text = try value()
                do {
                    try options.defaults.apply(name: setting.name, text: text)
                } catch {
                    throw UsageError("--\(name): \(error), not '\(text)'")
                }
            }
        }
        guard let directory = publicDirectory ?? locatePublic() else {
            throw UsageError("cannot find the page's Public folder; pass --public DIR")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--public: no such directory: \(directory)")
        }
        options.publicDirectory = directory
        if let itemsFile {
            guard let data = FileManager.default.contents(atPath: itemsFile) else {
                throw UsageError("--items: cannot read \(itemsFile)")
            }
            do {
                options.source = try FeedSource.parseList(Array(data))
            } catch {
                throw UsageError("--items: \(itemsFile): \(error.description)")
            }
        }
        return .serve(options)
    }

    private static func parseReplay(_ arguments: ArraySlice<String>) throws(UsageError) -> PlaygroundCommand {
        var arguments = arguments
        var command = ReplayCommand(traces: [])
        var modes: [ReplayCommand.Mode] = []
        while let argument = arguments.popFirst() {
            func value() throws(UsageError) -> String {
                guard let next = arguments.popFirst() else { throw UsageError("replay: \(argument) needs a value") }
                return next
            }
            switch argument {
            case "--help": return .help(replayUsage)
            case "--preset": command.overrides["preset"] = .string(try value())
            case "--set":
                let assignment = try value()
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                    throw UsageError("replay: --set takes key=value, not '\(assignment)'")
                }
                let key = String(assignment[..<equals])
                let text = String(assignment[assignment.index(after: equals)...])
                guard ScrollConfig.settings.contains(where: { $0.name == key }) else {
                    throw UsageError("replay: --set: unknown setting '\(key)' (one of \(ScrollConfig.settings.map(\.name).joined(separator: ", ")))")
                }
                var probe = ScrollConfig()
                do {
                    try probe.apply(name: key, text: text)
                } catch {
                    throw UsageError("replay: --set \(key): \(error), not '\(text)'")
                }
                command.overrides[key] = probe.json[key]
            case "--compare": modes.append(.compare)
            case "--diff": modes.append(.diff)
            case "--summary": modes.append(.summary)
            case "--format":
                let text = try value()
                guard let format = LogFormat(rawValue: text) else {
                    throw UsageError("replay: --format must be text or json, not '\(text)'")
                }
                command.format = format
            default:
                guard !argument.hasPrefix("--") else { throw UsageError("replay: unknown option \(argument) (see replay --help)") }
                command.traces.append(argument)
            }
        }
        guard modes.count <= 1 else { throw UsageError("replay: choose one of --compare, --diff and --summary") }
        command.mode = modes.first ?? .decisions
        guard !command.traces.isEmpty else { throw UsageError("replay: name a TRACE.jsonl file (see replay --help)") }
        guard command.traces.count == 1 || command.mode == .summary else {
            throw UsageError("replay: one trace at a time (several only with --summary)")
        }
        return .replay(command)
    }

    /// The `replay --help` text.
    public static var replayUsage: String {
        """
        Usage: scroll-playground replay TRACE.jsonl [options]

        Runs a recorded session (a --log-dir trace) through the scroll logic on a virtual clock that
        follows the recorded times, and prints the decisions.

          --preset NAME        what if the session had used this preset
          --set KEY=VALUE      what if it had used this setting (camelCase, repeatable), e.g. --set pullThreshold=40
          --diff               print only the decisions that differ from the recorded ones
          --compare            run every preset side by side and show where they disagree
          --summary            a markdown table of what each preset does (several traces allowed)
          --format text|json   text lines (default) or JSON lines
        """
    }

    /// The `--help` text.
    public static var usage: String {
        var lines = [
            "Scroll Playground \(PlaygroundServer.version): a server-authoritative scroll logic playground.",
            "",
            "Usage: scroll-playground [serve] [options]",
            "       scroll-playground replay TRACE.jsonl [--preset NAME] [--set key=value] [--compare | --diff] [--format text|json]",
            "",
            "Server options:",
            "  --host ADDRESS          address to listen on (default 127.0.0.1)",
            "  --port N                port, 0 = any free one (default 8080)",
            "  --public DIR            the page's files (default: the Public folder next to the package)",
            "  --items FILE.json       page through a JSON array of {id, title, ...} instead of synthetic items",
            "  --log-dir DIR           write DIR/events.jsonl and DIR/traces/SESSION.jsonl",
            "  --log-format text|json  terminal event lines (default text)",
            "  --max-sessions N        sessions held, connected or awaiting resume (default 1024); more",
            "                          WebSockets get HTTP 503, and a new session evicts the longest-waiting held one",
            "  --max-connecting N      WebSockets that have not said hello yet (default 64), besides the sessions",
            "  --hello-timeout S       seconds a WebSocket may take to say hello (default 10); then close 1008",
            "  --max-session-items N   items one session holds (default 10000; lowered to fit --max-outbound);",
            "                          at the cap hasMore is false",
            "  --max-message BYTES     largest message a page may send (default 65536); larger closes with 1009",
            "  --max-outbound BYTES    bytes queued for a page that is not reading (default 4194304); past it",
            "                          the connection closes with 1008 and the session waits to be resumed",
            "  --max-geometry-rate N   geometry messages a session applies per second (default 240); the",
            "                          excess is coalesced, the newest winning, with one rate_limited error a second",
            "  --allow-origin ORIGIN   accept WebSockets from this browser origin too (repeatable)",
            "  --resume-grace S        seconds a dropped session waits to be resumed (default 60)",
            "  --help                  this text",
            "",
            "Session defaults (a page's hello.config or config message overrides them):",
        ]
        let defaults = ScrollConfig()
        for setting in ScrollConfig.commandLineSettings {
            let current = defaults.json[setting.name].map { $0.string ?? $0.jsonString } ?? ""
            let flag = "--\(setting.flag) \(current)"
            lines.append("  \(flag.padding(toLength: max(24, flag.count + 1), withPad: " ", startingAt: 0))\(setting.help)")
        }
        return lines.joined(separator: "\n")
    }
}

extension ScrollConfig {
    /// The settings that are also command-line flags (compare mode is per page only).
    static var commandLineSettings: [Setting] {
        settings.filter { $0.name != "compare" && $0.name != "preset" } + settings.filter { $0.name == "preset" }
    }
}

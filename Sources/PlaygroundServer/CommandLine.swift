import Foundation
import ScrollCore

/// What the command line asks for (SPEC §8).
public enum PlaygroundCommand: Sendable {
    /// Serve the playground.
    case serve(PlaygroundOptions)
    /// Print this text and exit 0.
    case help(String)
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
            throw UsageError("replay is not available in this version")
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

    /// The `--help` text.
    public static var usage: String {
        var lines = [
            "Scroll Playground \(PlaygroundServer.version): a server-authoritative scroll logic playground.",
            "",
            "Usage: scroll-playground [serve] [options]",
            "",
            "Server options:",
            "  --host ADDRESS          address to listen on (default 127.0.0.1)",
            "  --port N                port, 0 = any free one (default 8080)",
            "  --public DIR            the page's files (default: the Public folder next to the package)",
            "  --items FILE.json       page through a JSON array of {id, title, ...} instead of synthetic items",
            "  --log-dir DIR           write DIR/events.jsonl and DIR/traces/SESSION.jsonl",
            "  --log-format text|json  terminal event lines (default text)",
            "  --max-sessions N        simultaneous sessions (default 1024)",
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

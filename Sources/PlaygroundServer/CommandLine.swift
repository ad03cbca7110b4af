import CommandLineOptions
import Foundation
import ScrollCore

/// What the command line asks for (README "Command line").
public enum PlaygroundCommand: Sendable {
    /// Serve the playground.
    case serve(PlaygroundOptions)
    /// Print this text and exit 0.
    case help(String)
    /// Replay recorded sessions and print the report.
    case replay(ReplayCommand)
}

extension PlaygroundCommand {
    /// Parses the arguments after the program name. `locatePublic` finds the page's folder when
    /// `--public` is not given.
    public static func parse(_ arguments: [String], locatePublic: () -> String?) throws(UsageError) -> PlaygroundCommand
    {
        var arguments = arguments[...]
        if arguments.first == "serve" { arguments.removeFirst() }
        if arguments.first == "replay" {
            return try parseReplay(arguments.dropFirst())
        }
        let parsed: ServeArguments
        do {
            guard case .parsed(let values) = try ServeArguments.parser.parse(arguments) else { return .help(usage) }
            parsed = values
        } catch {
            throw UsageError(error, seeAlso: "--help")
        }
        var options = parsed.options
        guard let directory = parsed.publicDirectory ?? locatePublic() else {
            throw UsageError("cannot find the page's Public folder; pass --public DIR")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--public: no such directory: \(directory)")
        }
        options.publicDirectory = directory
        if let itemsFile = parsed.itemsFile {
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
        let parsed: ReplayArguments
        do {
            guard case .parsed(let values) = try ReplayArguments.parser.parse(arguments) else {
                return .help(replayUsage)
            }
            parsed = values
        } catch {
            throw UsageError(error, prefix: "replay: ", seeAlso: "replay --help")
        }
        var command = parsed.command
        guard parsed.modes.count <= 1 else { throw UsageError("replay: choose one of --compare, --diff and --summary") }
        command.mode = parsed.modes.first ?? .decisions
        guard !command.traces.isEmpty else { throw UsageError("replay: name a TRACE.jsonl file (see replay --help)") }
        guard command.traces.count == 1 || command.mode == .summary else {
            throw UsageError("replay: one trace at a time (several only with --summary)")
        }
        return .replay(command)
    }

    /// The `replay --help` text.
    public static var replayUsage: String {
        ([
            "Usage: scroll-playground replay TRACE.jsonl [options]",
            "",
            "Runs a recorded session (a --log-dir trace) through the scroll logic on a virtual clock that",
            "follows the recorded times, and prints the decisions. Choose at most one of --diff, --compare",
            "and --summary.",
            "",
        ] + ReplayArguments.parser.helpLines()).joined(separator: "\n")
    }

    /// The `--help` text.
    public static var usage: String {
        let replayLine = "       scroll-playground replay TRACE.jsonl "
        let replaySynopsis = HelpFormatter.wrap(
            ReplayArguments.parser.synopsis, width: HelpFormatter.width - replayLine.count)
        var lines = [
            "Scroll Playground \(PlaygroundServer.version): a server-authoritative scroll logic playground.",
            "",
            "Usage: scroll-playground [serve] [options]",
            replayLine + replaySynopsis[0],
        ]
        lines += replaySynopsis.dropFirst().map { String(repeating: " ", count: replayLine.count) + $0 }
        let column = HelpFormatter.column(for: ServeArguments.parser.options)
        for section in ServeArguments.sections {
            lines += ["", section.heading]
            lines += HelpFormatter.lines(for: section.options, defaults: ServeArguments.parser.defaults, column: column)
        }
        return lines.joined(separator: "\n")
    }

    /// Every option `serve` and `replay` take, for checking that each is documented.
    public static var optionNames: (serve: [String], replay: [String]) {
        (ServeArguments.parser.options.map(\.name), ReplayArguments.parser.options.map(\.name))
    }
}

import CommandLineOptions
import Foundation
import ScrollCore
import ScrollLab

/// What the command line asks for (docs/command-line.md).
public enum PlaygroundCommand: Sendable {
    /// Serve the playground.
    case serve(PlaygroundOptions)
    /// Print this text and exit 0.
    case help(String)
    /// Replay recorded sessions and print the report.
    case replay(ReplayCommand)
    /// Simulate a user on a page, once or over a sweep of settings.
    case simulate(SimulateCommand)
    /// Check every preset's properties with generated gestures.
    case check(CheckCommand)
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
        if arguments.first == "simulate" {
            return try parseSimulate(arguments.dropFirst())
        }
        if arguments.first == "check" {
            return try parseCheck(arguments.dropFirst())
        }
        if arguments.first == "export" { return try parseExport(arguments.dropFirst()) }
        let parsed: ServeArguments
        do {
            guard case .parsed(let values) = try ServeArguments.parser.parse(arguments) else { return .help(usage) }
            parsed = values
        } catch {
            throw UsageError(error, seeAlso: "--help")
        }
        var options = parsed.options
        do {
            // Two flags together: the window must hold two pages whatever order they came in.
            try options.defaults.checkWindow()
        } catch {
            throw UsageError("--window-size: \(error), not '\(options.defaults.windowSize)' (see --help)")
        }
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

    private static func parseSimulate(_ arguments: ArraySlice<String>) throws(UsageError) -> PlaygroundCommand {
        let parsed: SimulateArguments
        do {
            guard case .parsed(let values) = try SimulateArguments.parser.parse(arguments) else {
                return .help(simulateUsage)
            }
            parsed = values
        } catch {
            throw UsageError(error, prefix: "simulate: ", seeAlso: "simulate --help")
        }
        var command = parsed.command
        if let word = parsed.words.first {
            guard word == "merge", parsed.words.count > 1 else {
                throw UsageError(
                    word == "merge"
                        ? "simulate merge: name the shard files" : "simulate: unexpected argument '\(word)'")
            }
            guard parsed.sweeps.isEmpty, command.shard == nil else {
                throw UsageError(
                    "simulate merge: takes shard files, --format, --plot and --metric, not --sweep or --shard")
            }
            command.mergeFiles = Array(parsed.words.dropFirst())
            return .simulate(command)
        }
        if let file = parsed.handFile {
            command.simulation = try SimulateCommand.simulation(handOf: file, maxTraceBytes: parsed.maxTraceBytes)
            for (key, text) in parsed.assignments {
                do {
                    try command.simulation.apply(key: key, text: text)
                } catch {
                    throw UsageError("simulate: \(error)")
                }
            }
        }
        if command.shard != nil, parsed.sweeps.isEmpty { throw UsageError("simulate: --shard needs --sweep") }
        if command.shard != nil, command.plot != nil || command.format != .text {
            throw UsageError("simulate: --shard prints its slice as JSON; --format and --plot belong to merge")
        }
        do {
            command.axes = try parsed.sweeps.map { (text) throws(LabError) in try SweepAxis(parsing: text) }
            _ = try Sweep(base: command.simulation, axes: command.axes, runs: command.runs)
            if command.plot != nil, !command.axes.isEmpty {
                _ = try SweepPlot(result: SweepResult(keys: command.axes.map(\.key), rows: []), metric: command.metric)
            }
        } catch {
            throw UsageError("simulate: \(error)")
        }
        return .simulate(command)
    }

    private static func parseCheck(_ arguments: ArraySlice<String>) throws(UsageError) -> PlaygroundCommand {
        do {
            guard case .parsed(let values) = try CheckArguments.parser.parse(arguments) else {
                return .help(checkUsage)
            }
            return .check(values.command)
        } catch {
            throw UsageError(error, prefix: "check: ", seeAlso: "check --help")
        }
    }

    /// The `simulate --help` text.
    public static var simulateUsage: String {
        ([
            "Usage: scroll-playground simulate [options]",
            "       scroll-playground simulate merge SHARD.json… [--format F] [--plot FILE.svg] [--metric NAME]",
            "",
            "Runs a simulated user on a simulated page through the scroll logic on a virtual clock (no sockets,",
            "no sleeping) and reports what the user felt: stall at the end, requests, pages never seen, refreshes",
            "per pull, items in the DOM. With --sweep it runs every combination and prints a table; with",
            "--shard K/N one slice of it, which `simulate merge` joins into the table of the whole grid.",
            "",
        ] + SimulateArguments.parser.helpLines()).joined(separator: "\n")
    }

    /// The `check --help` text.
    public static var checkUsage: String {
        ([
            "Usage: scroll-playground check [options]",
            "",
            "Property-based checking of every preset: seeded random gestures, latency, jitter, failures, resizes",
            "and preset switches, run through the scroll logic. A failure is shrunk to a minimal gesture and",
            "written as a trace that replay reproduces. Prints a table of preset × property.",
            "",
        ] + CheckArguments.parser.helpLines()).joined(separator: "\n")
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
        lines += [
            "       scroll-playground simulate [options]   (see simulate --help)",
            "       scroll-playground check [options]      (see check --help)",
            "       scroll-playground export [options]     (see export --help)",
        ]
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

    /// Every option `simulate` and `check` take, for checking that each is documented.
    public static var labOptionNames: (simulate: [String], check: [String]) {
        (SimulateArguments.parser.options.map(\.name), CheckArguments.parser.options.map(\.name))
    }
}

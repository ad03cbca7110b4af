import CommandLineOptions

/// One mode of `scroll-bench`: its name, what it measures, its options (its own and the shared ones it
/// takes), and how it runs once they are read.
struct BenchMode: Sendable {
    /// A command line read for this mode, ready to run.
    struct Job {
        /// Runs the mode; a `UsageError` means the options do not fit together.
        let run: () throws -> [RunReport]
        /// `--json` was given.
        let json: Bool
    }

    /// The word after `scroll-bench`.
    let name: String
    /// What the mode measures, for `--help`.
    let summary: String
    /// Every option name the mode takes, `help` included.
    let optionNames: [String]
    /// The `--help` lines of the mode's own options.
    let helpLines: [String]
    /// The shared options it takes, by name.
    let sharedNames: [String]
    private let read: @Sendable (ArraySlice<String>) throws(OptionError) -> Job?

    /// A mode whose values are a `Settings`: `own` options are listed under the mode, `shared` ones once
    /// for all modes.
    init<Settings: BenchSettings>(
        _ name: String, summary: String, defaults: Settings, own: [Option<Settings>], shared: [Option<Arguments>],
        run: @escaping @Sendable (Settings) throws -> [RunReport]
    ) {
        let parser = OptionParser(
            defaults: defaults, options: own + shared.map { $0.within(\Settings.common) } + [.help()]
        ).passingThrough(to: \.common.serverArguments)
        self.name = name
        self.summary = summary
        optionNames = parser.options.map(\.name)
        helpLines = HelpFormatter.lines(for: own, defaults: defaults, indent: 14)
        sharedNames = shared.map(\.name)
        read = { (arguments) throws(OptionError) in
            guard case .parsed(let settings) = try parser.parse(arguments) else { return nil }
            return Job(run: { try run(settings) }, json: settings.common.json)
        }
    }

    /// Reads the arguments after the mode's name; nil when they ask for `--help`.
    func job(_ arguments: ArraySlice<String>) throws(OptionError) -> Job? {
        try read(arguments)
    }

    /// Every mode, in the order `--help` lists them.
    static let all = [
        LoadBench.mode, FloorBench.mode, CompareBench.mode, IdleBench.mode, StartupBench.mode, CodecBench.mode,
    ]

    /// The `--help` text, generated from the modes' and the shared declarations.
    static var usage: String {
        var lines = ["Usage: scroll-bench MODE [options] [-- server options]", "", "Modes:"]
        for mode in all {
            let summary = HelpFormatter.wrap(mode.summary, width: HelpFormatter.width - 12)
            lines.append("  " + mode.name.padding(toLength: 10, withPad: " ", startingAt: 0) + summary[0])
            lines += summary.dropFirst().map { String(repeating: " ", count: 12) + $0 }
            lines += mode.helpLines
            if !mode.sharedNames.isEmpty {
                lines.append(
                    String(repeating: " ", count: 14) + "and "
                        + mode.sharedNames.map { "--\($0)" }.joined(separator: ", "))
            }
        }
        lines += [
            "",
            "The server: by default the bench starts the scroll-playground next to it (.build/<config>/)",
            "with --port 0 --log-format json (plus --max-sessions to fit, plus anything after --), reads",
            "its CPU and memory from /proc and stops it afterwards. Or:",
        ]
        lines += HelpFormatter.lines(for: Arguments.remote + Arguments.spawn, defaults: Arguments())
        lines += [
            "Output: a table; with --runs K > 1 the table shows the median and the min – max of the K runs."
        ]
        lines += HelpFormatter.lines(for: Arguments.output + [.help()], defaults: Arguments())
        return lines.joined(separator: "\n")
    }
}

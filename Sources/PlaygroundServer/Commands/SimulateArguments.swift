import CommandLineOptions
import ScrollCore
import ScrollLab

/// How `simulate` and `check` print their results.
public enum LabOutputFormat: String, CaseIterable, Sendable {
    /// An aligned table.
    case text
    /// One JSON object.
    case json
    /// Comma-separated values with a header line.
    case csv
}

/// What `scroll-playground simulate` reads from its command line.
struct SimulateArguments: Sendable {
    var command = SimulateCommand()
    /// `--sweep` as given, read once every option is in.
    var sweeps: [String] = []
    /// Words that are not options: `merge FILES…`.
    var words: [String] = []
    /// `--gesture trace:FILE`: the recording whose hand runs (read once every option is in).
    var handFile: String?
    /// `--max-trace-bytes`, for ``handFile``.
    var maxTraceBytes = TraceInput.defaultMaxBytes
    /// Every key set, in order: replayed over a recording's settings once its hand is read.
    var assignments: [(key: String, text: String)] = []

    /// Every option of `simulate`, in the order `--help` lists them.
    static let parser = OptionParser(
        defaults: SimulateArguments(),
        options: [
            key("preset", "NAME", help: "preset (design) whose rules decide"),
            key(
                "gesture", "NAME|trace:FILE",
                help: "the simulated user: read, skim, toEnd or pullRefresh, or the hand of a recorded trace"),
            key("seconds", "S", help: "simulated seconds"),
            key("seed", "N", help: "seeds the user, the feed and the latency / failure draws"),
            .repeatable(
                "set", "KEY=VALUE",
                help: "any setting (camelCase, e.g. loadLatencyMs=300) or page key (containerHeight, insetTop, "
                    + "insetBottom, itemHeight, endShortfall, hz)",
                apply: { (arguments, text) throws(OptionError) in
                    let (key, value) = try split(text, option: "set")
                    try apply(&arguments, key: key, text: value, option: "set")
                }),
            .repeatable(
                "sweep", "KEY=a,b,c|KEY=from:to:step",
                help: "run every value (several --sweep: every combination) and print a table", \.sweeps),
            .integer(
                "runs", help: "runs per point, seeds seed, seed+1, …; the metrics are their mean", \.command.runs,
                in: 1...1000),
            .choice("format", help: "table, JSON or CSV", \.command.format),
            .text(
                "plot", "FILE.svg", help: "draw a metric over the sweep: a heat map for two keys, a line for one",
                \.command.plot),
            .text("metric", "NAME", help: "the metric --plot draws", \.command.metric),
            .integer("threads", help: "threads a sweep runs on (default: the cores)", \.command.threads, in: 1...256),
            Option(
                "shard", "K/N",
                help: "run slice K of N of the sweep's grid and print it as JSON for `simulate merge FILES…`",
                default: { _ in nil },
                apply: { (arguments, text) throws(OptionError) in
                    guard let slice = SweepShard.parseSlice(text) else {
                        throw .invalidValue(option: "shard", expected: "K/N with 1 ≤ K ≤ N ≤ 10000", text: text)
                    }
                    arguments.command.shard = slice
                }),
            .switch("timing", help: "print the wall-clock time taken to standard error", \.command.timing),
            .integer("max-trace-bytes", help: TraceInput.help, \.maxTraceBytes, in: TraceInput.maxBytesRange),
            .help(),
        ]
    ).keepingWords(in: \.words)

    /// An option that sets one simulation key.
    private static func key(_ name: String, _ valueName: String, help: String) -> Option<SimulateArguments> {
        Option(
            name, valueName, help: help, default: { $0.command.value(of: name) },
            apply: { (arguments, text) throws(OptionError) in try apply(&arguments, key: name, text: text, option: name)
            })
    }

    private static func split(_ text: String, option: String) throws(OptionError) -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .invalidValue(option: option, expected: "KEY=VALUE", text: text)
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    private static func apply(_ arguments: inout SimulateArguments, key: String, text: String, option: String)
        throws(OptionError)
    {
        if key == "gesture", text.hasPrefix("trace:") {
            guard text.count > 6 else { throw .invalidValue(option: option, expected: "trace:FILE", text: text) }
            arguments.handFile = String(text.dropFirst(6))
            return
        }
        arguments.assignments.append((key, text))
        do {
            try arguments.command.simulation.apply(key: key, text: text)
        } catch {
            // `--gesture fly`: the option names the key already, and the value is named once, at the end.
            var reason = error.description
            if case .badValue(let named, let why) = error, named == option { reason = why }
            reason = reason.replacing(", not '\(text)'", with: "")
                .replacing(" '\(text)'", with: "")
            throw .rejected(option: option, reason: reason, text: text)
        }
    }
}

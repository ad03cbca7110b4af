import CommandLineOptions
import ScrollCore
import ScrollLab

/// What `scroll-playground check` reads from its command line.
struct CheckArguments: Sendable {
    var command = CheckCommand()

    /// Every option of `check`, in the order `--help` lists them.
    static let parser = OptionParser(
        defaults: CheckArguments(),
        options: [
            .number(
                "seconds", "S", help: "wall-clock bound of the run", \.command.seconds, in: 0.1...86_400,
                unit: "seconds"),
            .integer(
                "seed", help: "seeds every generated scenario: the same seed finds the same failures", \.command.seed,
                in: 0...Int(Int32.max)),
            .integer("scenarios", help: "scenarios per preset, at most", \.command.scenarios, in: 1...1_000_000),
            .choice("preset", help: "check only this preset", \.command.preset),
            .text(
                "out", "DIR",
                help: "where the minimal traces go (logs/check-traces under the current folder by default)",
                \.command.outDirectory),
            Option(
                "gestures", "DIR",
                help: "the hands of the traces in DIR join the random scenarios (and are shrunk like them)",
                default: { _ in nil },
                apply: { (arguments, text) throws(OptionError) in arguments.command.gestureDirectory = text }),
            .choice("format", help: "table or JSON", \.command.format),
            .integer(
                "max-trace-bytes", help: TraceInput.help, \.command.maxTraceBytes, in: TraceInput.maxBytesRange),
            .integer("threads", help: "threads (default: the cores)", \.command.threads, in: 1...256),
            .repeatable(
                "set", "KEY=VALUE",
                help: "the simulated page: physics=ios|browser (default ios), contentSize=exact|lazyEstimate",
                apply: { (arguments, text) throws(OptionError) in try set(&arguments, text) }),
            .help(),
        ])

    private static func set(_ arguments: inout CheckArguments, _ text: String) throws(OptionError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .invalidValue(option: "set", expected: "KEY=VALUE", text: text)
        }
        do {
            try arguments.command.set(key: String(text[..<equals]), text: String(text[text.index(after: equals)...]))
        } catch {
            throw .rejected(option: "set", reason: error.description, text: text)
        }
    }
}

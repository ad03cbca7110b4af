import CommandLineOptions
import ScrollCore

/// What `scroll-playground replay` reads from its command line, before the choice of mode is checked.
struct ReplayArguments: Sendable {
    /// The command as the options build it; its mode is set from `modes`.
    var command = ReplayCommand(traces: [])
    /// `--diff`, `--compare` and `--summary`, as given (at most one may be).
    var modes: [ReplayCommand.Mode] = []

    /// Every option of `replay`, in the order `--help` lists them.
    static let parser = OptionParser(
        defaults: ReplayArguments(),
        options: [
            Option("preset", "NAME", help: "what if the session had used this preset") { arguments, name in
                arguments.command.overrides["preset"] = .string(name)
            },
            .repeatable(
                "set", "KEY=VALUE", help: "what if it had used this setting (camelCase), e.g. --set pullThreshold=40",
                apply: applySetting),
            .switch("diff", help: "print only the decisions that differ from the recorded ones") {
                $0.modes.append(.diff)
            },
            .switch("compare", help: "run every preset side by side and show where they disagree") {
                $0.modes.append(.compare)
            },
            .switch("summary", help: "a markdown table of what each preset does (several traces allowed)") {
                $0.modes.append(.summary)
            },
            .choice("format", help: "text lines or JSON lines", \.command.format),
            .integer(
                "max-trace-bytes", help: TraceInput.help, \.command.maxTraceBytes, in: TraceInput.maxBytesRange),
            .help(),
        ]
    ).keepingWords(in: \.command.traces)

    /// `--set key=value`: the key must name a setting and the value must suit it.
    @Sendable private static func applySetting(_ arguments: inout ReplayArguments, _ assignment: String)
        throws(OptionError)
    {
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
            throw .invalidValue(option: "set", expected: "key=value", text: assignment)
        }
        let key = String(assignment[..<equals])
        let text = String(assignment[assignment.index(after: equals)...])
        guard ScrollConfig.settings.contains(where: { $0.name == key }) else {
            throw .rejected(
                option: "set",
                reason:
                    "unknown setting '\(key)' (one of \(ScrollConfig.settings.map(\.name).joined(separator: ", ")))",
                text: assignment)
        }
        var probe = ScrollConfig()
        do {
            try probe.apply(name: key, text: text)
        } catch {
            throw .rejected(option: "set", reason: "\(error)", text: assignment)
        }
        arguments.command.overrides[key] = probe.json[key]
    }
}

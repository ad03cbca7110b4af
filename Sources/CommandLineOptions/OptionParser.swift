/// Reads a command line into a `Root`, starting from `defaults`, by the declared options: `--name value`
/// and `--name=value`, switches, words that are not options (when `positionals` keeps them) and, when
/// `passthrough` is set, everything after `--` untouched.
public struct OptionParser<Root: Sendable>: Sendable {
    /// What the parser found.
    public enum Outcome: Sendable {
        /// `--help` was given: print the help and exit 0.
        case help
        /// The values, with every given option applied.
        case parsed(Root)
    }

    /// The values before any option is applied; `--help` shows its defaults from them.
    public let defaults: Root
    /// Every option, in the order `--help` lists them.
    public let options: [Option<Root>]
    /// Where words that are not options go; nil refuses them.
    public private(set) var positionals: (WritableKeyPath<Root, [String]> & Sendable)?
    /// Where the words after `--` go; nil treats `--` as an unknown option.
    public private(set) var passthrough: (WritableKeyPath<Root, [String]> & Sendable)?

    public init(defaults: Root, options: [Option<Root>]) {
        precondition(Set(options.map(\.name)).count == options.count, "an option is declared twice")
        self.defaults = defaults
        self.options = options
    }

    /// The same parser, keeping words that are not options (file names, say) in `path`, in order.
    public func keepingWords(in path: WritableKeyPath<Root, [String]> & Sendable) -> Self {
        var parser = self
        parser.positionals = path
        return parser
    }

    /// The same parser, handing everything after `--` to `path` untouched.
    public func passingThrough(to path: WritableKeyPath<Root, [String]> & Sendable) -> Self {
        var parser = self
        parser.passthrough = path
        return parser
    }

    /// Applies `arguments` (after the program and subcommand names) in order; the first problem is thrown.
    /// An option given twice keeps its last value, unless it is repeatable.
    public func parse(_ arguments: some Sequence<String>) throws(OptionError) -> Outcome {
        var root = defaults
        var rest = Array(arguments)[...]
        while let argument = rest.popFirst() {
            if argument == "--", let passthrough {
                root[keyPath: passthrough] = Array(rest)
                break
            }
            guard argument.hasPrefix("--") else {
                guard let positionals else { throw .unexpectedArgument(argument) }
                root[keyPath: positionals].append(argument)
                continue
            }
            var name = argument.dropFirst(2)
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            guard let option = options.first(where: { $0.name == name }) else { throw .unknownOption(String(name)) }
            if option.kind == .help { return .help }
            guard option.takesValue else {
                if let inlineValue { throw .unexpectedValue(option: option.name, text: inlineValue) }
                try option.apply(&root, nil)
                continue
            }
            // The next word is the value even if it starts with dashes (a negative number, say).
            guard let value = inlineValue ?? rest.popFirst() else { throw .missingValue(option: option.name) }
            try option.apply(&root, value)
        }
        return .parsed(root)
    }

    /// The `--help` lines for the options, their defaults read from `defaults`.
    public func helpLines(indent: Int = 2, width: Int = HelpFormatter.width) -> [String] {
        HelpFormatter.lines(for: options, defaults: defaults, indent: indent, width: width)
    }

    /// `[--name VALUE] [--flag] [--many VALUE]...`, every option but `--help`.
    public var synopsis: String {
        options.filter { $0.kind != .help }.map { option in
            "[\(HelpFormatter.label(option))]" + (option.kind == .repeatable ? "..." : "")
        }.joined(separator: " ")
    }
}

extension OptionParser.Outcome: Equatable where Root: Equatable {}

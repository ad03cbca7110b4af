/// One command-line option of a program whose parsed values are a `Root`: its name, what it takes, its
/// help, how its default reads from a `Root` and how a value is written into one.
///
/// Declared once; the parser (`OptionParser`) and the help (`HelpFormatter`) both read the declaration, so
/// the default shown in `--help` is the value the parser starts from.
public struct Option<Root>: Sendable {
    /// The name without the leading dashes (`max-sessions`).
    public let name: String
    /// What the value is called in `--help` (`N`, `DIR`); empty for a switch.
    public let valueName: String
    /// What the option does, one sentence without its default or range (those are added from the declaration).
    public let help: String
    /// What it takes.
    public let kind: OptionKind
    /// The default as `--help` shows it, read from the parser's starting value; nil shows none.
    public let defaultText: @Sendable (Root) -> String?
    /// Writes one value (nil for a switch) into `root`.
    let apply: @Sendable (inout Root, String?) throws(OptionError) -> Void

    /// An option with its own reading rule (e.g. one that another module validates); `apply` receives the
    /// text after the name and throws `OptionError.rejected` when it cannot use it.
    public init(
        _ name: String, _ valueName: String, help: String, kind: OptionKind = .text,
        default defaultText: @escaping @Sendable (Root) -> String? = { _ in nil },
        apply: @escaping @Sendable (inout Root, String) throws(OptionError) -> Void
    ) {
        self.init(
            name: name, valueName: valueName, help: help, kind: kind, defaultText: defaultText,
            apply: { (root, text) throws(OptionError) in try apply(&root, text ?? "") })
    }

    init(
        name: String, valueName: String, help: String, kind: OptionKind,
        defaultText: @escaping @Sendable (Root) -> String?,
        apply: @escaping @Sendable (inout Root, String?) throws(OptionError) -> Void
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.kind = kind
        self.defaultText = defaultText
        self.apply = apply
    }

    /// Whether the option reads a value after its name.
    public var takesValue: Bool {
        kind != .switch && kind != .help
    }

    /// The same option for a program whose values hold a `Root` at `path`, so that options shared by
    /// several programs (or modes) are declared once.
    public func within<Outer>(_ path: WritableKeyPath<Outer, Root> & Sendable) -> Option<Outer> {
        let inner = self
        return Option<Outer>(
            name: name, valueName: valueName, help: help, kind: kind,
            defaultText: { inner.defaultText($0[keyPath: path]) },
            apply: { (outer, text) throws(OptionError) in try inner.apply(&outer[keyPath: path], text) })
    }
}

/// What an option takes, for the parser and for `--help`.
public enum OptionKind: Equatable, Sendable {
    /// Takes no value: present or not (`--json`).
    case `switch`
    /// Any text (`--host ADDRESS`).
    case text
    /// An integer in the range; `10_000` reads as 10000.
    case integer(ClosedRange<Int>)
    /// A number in the range, `unit` naming it in errors ("seconds"); `0_5` underscores are ignored too.
    case number(ClosedRange<Double>, unit: String?)
    /// One of these names.
    case choice([String])
    /// Text, given any number of times; every value is kept.
    case repeatable
    /// `--help`: the parser stops and asks for the help text.
    case help
}

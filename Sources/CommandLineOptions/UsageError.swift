/// A command line that cannot be followed: each executable prints it as one line on standard error and
/// exits with status 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line, without the program's name.
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// A parser's finding, after `prefix` (a subcommand, "replay: ") and with where to read more
    /// (`seeAlso`: "--help").
    public init(_ error: OptionError, prefix: String = "", seeAlso: String) {
        self.description = "\(prefix)\(error.description) (see \(seeAlso))"
    }
}

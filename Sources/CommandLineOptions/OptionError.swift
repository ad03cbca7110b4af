/// What the parser found wrong with a command line; `description` is one line without the program's name.
public enum OptionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--name` is not declared.
    case unknownOption(String)
    /// A word that is not an option where the program takes none.
    case unexpectedArgument(String)
    /// The option was last and takes a value.
    case missingValue(option: String)
    /// A switch was given `--name=value`.
    case unexpectedValue(option: String, text: String)
    /// The value is not what the option's kind accepts: `expected` says what does ("an integer in 1…100").
    case invalidValue(option: String, expected: String, text: String)
    /// The option's own rule refused the value, saying why.
    case rejected(option: String, reason: String, text: String)

    public var description: String {
        switch self {
        case .unknownOption(let name): "unknown option --\(name)"
        case .unexpectedArgument(let text): "unexpected argument '\(text)'"
        case .missingValue(let name): "--\(name) needs a value"
        case .unexpectedValue(let name, let text): "--\(name) takes no value, not '\(text)'"
        case .invalidValue(let name, let expected, let text): "--\(name) must be \(expected), not '\(text)'"
        case .rejected(let name, let reason, let text): "--\(name): \(reason), not '\(text)'"
        }
    }
}

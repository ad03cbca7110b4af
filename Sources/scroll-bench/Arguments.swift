#if canImport(Glibc)
    import Glibc
#endif

/// The command line of one mode: `--name value` flags, `--json`, and anything after `--` (handed to
/// the server the bench spawns).
struct Arguments {
    /// Flags that take no value.
    static let switches: Set<String> = ["json"]

    private var values: [String: String] = [:]
    private var present: Set<String> = []
    /// Arguments after `--`, passed to `scroll-playground` when the bench starts it.
    private(set) var serverArguments: [String] = []

    /// Parses `arguments` (after the mode), accepting only the flags in `allowed` (names without `--`).
    init(_ arguments: ArraySlice<String>, allowed: Set<String>) throws(UsageError) {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "--" {
                serverArguments = Array(rest)
                break
            }
            guard argument.hasPrefix("--") else { throw UsageError("unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard allowed.contains(name) else {
                throw UsageError("unknown option --\(name) for this mode")
            }
            present.insert(name)
            if Self.switches.contains(name) { continue }
            guard let value = inline ?? rest.popFirst() else { throw UsageError("--\(name) needs a value") }
            values[name] = value
        }
    }

    /// Whether a switch such as `--json` was given.
    func flag(_ name: String) -> Bool { present.contains(name) }

    /// A string value, or nil when absent.
    func string(_ name: String) -> String? { values[name] }

    /// An integer value in `range`, or `fallback` when absent.
    func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let number = Int(text.replacingUnderscores), range.contains(number) else {
            throw UsageError("--\(name) must be an integer in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// A number value in `range`, or `fallback` when absent.
    func number(_ name: String, default fallback: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = values[name] else { return fallback }
        guard let number = Double(text.replacingUnderscores), range.contains(number) else {
            throw UsageError("--\(name) must be a number in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
        }
        return number
    }
}

extension String {
    /// `10_000` reads as `10000`.
    fileprivate var replacingUnderscores: String { String(filter { $0 != "_" }) }
}

/// A command line that cannot be followed: one line on standard error, exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Fails the run with one line on standard error and exit code 1 (usage errors use 2).
func fail(_ message: String, code: Int32 = 1) -> Never {
    StandardError.write("scroll-bench: \(message)\n")
    exit(code)
}

/// Unbuffered standard error.
enum StandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in _ = Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count) }
    }
}

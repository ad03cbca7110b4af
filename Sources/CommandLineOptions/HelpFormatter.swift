/// Renders declared options as `--help` lines: `--name VALUE` in a column, then the help with the range,
/// default and repeatability the declaration gives, wrapped to `width`.
public enum HelpFormatter {
    /// The widest line `--help` writes.
    public static let width = 100
    /// The widest option column; a longer `--name VALUE` puts its help on the next line.
    static let maximumLabelWidth = 26

    /// One or more lines per option, the help starting at `column` (by default just past the widest label).
    public static func lines<Root>(
        for options: [Option<Root>], defaults: Root, indent: Int = 2, column: Int? = nil, width: Int = width
    ) -> [String] {
        let labels = options.map(label)
        let column = column ?? self.column(for: options)
        var lines: [String] = []
        for (option, label) in zip(options, labels) {
            let margin = String(repeating: " ", count: indent)
            let text = explanation(option, defaults: defaults)
            var wrapped = wrap(text, width: max(20, width - indent - column))
            if label.count + 2 > column {
                lines.append(margin + label)
            } else {
                lines.append(
                    margin + label + String(repeating: " ", count: column - label.count) + wrapped.removeFirst())
            }
            lines += wrapped.map { margin + String(repeating: " ", count: column) + $0 }
        }
        return lines
    }

    /// Where the help starts after the labels of `options`, so that several lists can share it.
    public static func column<Root>(for options: [Option<Root>]) -> Int {
        min(options.map { label($0).count }.max() ?? 0, maximumLabelWidth) + 2
    }

    /// `--name VALUE`, or `--name` for a switch.
    public static func label<Root>(_ option: Option<Root>) -> String {
        option.takesValue ? "--\(option.name) \(option.valueName)" : "--\(option.name)"
    }

    /// The help followed by what the declaration adds: `(1…100, default 5)`, `(repeatable)`.
    static func explanation<Root>(_ option: Option<Root>, defaults: Root) -> String {
        var notes: [String] = []
        switch option.kind {
        case .integer(let range): notes.append("\(range.lowerBound)…\(range.upperBound)")
        case .number(let range, _): notes.append(Self.range(range))
        case .repeatable: notes.append("repeatable")
        case .switch, .text, .choice, .help: break
        }
        if let value = option.defaultText(defaults) { notes.append("default \(value)") }
        guard !notes.isEmpty else { return option.help }
        // "latency (ms)" becomes "latency (ms, default 600)" rather than "latency (ms) (default 600)".
        if option.help.hasSuffix(")") {
            return "\(option.help.dropLast()), \(notes.joined(separator: ", ")))"
        }
        return "\(option.help) (\(notes.joined(separator: ", ")))"
    }

    /// `0.1…3600`.
    public static func range(_ range: ClosedRange<Double>) -> String {
        "\(number(range.lowerBound))…\(number(range.upperBound))"
    }

    /// A number as a person writes it: `10`, not `10.0`.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }

    /// `text or json`; `one of a, b or c`.
    public static func alternatives(_ names: [String]) -> String {
        guard names.count > 2 else { return names.joined(separator: " or ") }
        return "one of \(names.dropLast().joined(separator: ", ")) or \(names.last!)"
    }

    /// Splits `text` at spaces into lines of at most `width` characters (a longer word gets its own line).
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}

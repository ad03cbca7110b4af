// The declarations a program writes: one factory per kind, each writing through a key path into the
// program's values, so the default `--help` shows is read back through the same key path.

extension Option {
    /// `--help`: prints the generated help.
    public static func help(_ help: String = "this text") -> Option {
        Option(name: "help", valueName: "", help: help, kind: .help, defaultText: { _ in nil }, apply: { _, _ in })
    }

    /// A switch: present sets `path` to true.
    public static func `switch`(
        _ name: String, help: String, _ path: WritableKeyPath<Root, Bool> & Sendable
    ) -> Option {
        Option(
            name: name, valueName: "", help: help, kind: .switch, defaultText: { _ in nil },
            apply: { root, _ in
                root[keyPath: path] = true
            })
    }

    /// A switch with its own effect (e.g. choosing a mode).
    public static func `switch`(
        _ name: String, help: String, apply: @escaping @Sendable (inout Root) -> Void
    ) -> Option {
        Option(
            name: name, valueName: "", help: help, kind: .switch, defaultText: { _ in nil },
            apply: { root, _ in
                apply(&root)
            })
    }

    /// Text; `--help` shows the current value as the default unless it is empty.
    public static func text(
        _ name: String, _ valueName: String, help: String, _ path: WritableKeyPath<Root, String> & Sendable
    ) -> Option {
        Option(
            name: name, valueName: valueName, help: help, kind: .text, defaultText: { $0[keyPath: path].nonEmpty },
            apply: {
                root, text in root[keyPath: path] = text ?? ""
            })
    }

    /// Optional text; `--help` shows a default only when the starting value has one.
    public static func text(
        _ name: String, _ valueName: String, help: String, _ path: WritableKeyPath<Root, String?> & Sendable
    ) -> Option {
        Option(
            name: name, valueName: valueName, help: help, kind: .text, defaultText: { $0[keyPath: path] },
            apply: {
                root, text in root[keyPath: path] = text
            })
    }

    /// Text given any number of times, each value appended.
    public static func repeatable(
        _ name: String, _ valueName: String, help: String, _ path: WritableKeyPath<Root, [String]> & Sendable
    ) -> Option {
        repeatable(name, valueName, help: help, apply: { root, text in root[keyPath: path].append(text) })
    }

    /// Text given any number of times, each value read by `apply`.
    public static func repeatable(
        _ name: String, _ valueName: String, help: String,
        apply: @escaping @Sendable (inout Root, String) throws(OptionError) -> Void
    ) -> Option {
        Option(name, valueName, help: help, kind: .repeatable, apply: apply)
    }

    /// An integer in `range`.
    public static func integer(
        _ name: String, _ valueName: String = "N", help: String, _ path: WritableKeyPath<Root, Int> & Sendable,
        in range: ClosedRange<Int>
    ) -> Option {
        Option(
            name: name, valueName: valueName, help: help, kind: .integer(range),
            defaultText: { "\($0[keyPath: path])" },
            apply: {
                root, text throws(OptionError) in root[keyPath: path] = try readInteger(name, text, range)
            })
    }

    /// An optional integer in `range`; `--help` shows a default only when the starting value has one.
    public static func integer(
        _ name: String, _ valueName: String = "N", help: String, _ path: WritableKeyPath<Root, Int?> & Sendable,
        in range: ClosedRange<Int>
    ) -> Option {
        Option(
            name: name, valueName: valueName, help: help, kind: .integer(range),
            defaultText: { $0[keyPath: path].map { "\($0)" } },
            apply: { root, text throws(OptionError) in root[keyPath: path] = try readInteger(name, text, range) })
    }

    /// A number in `range`; `unit` names it in errors ("seconds in 0.1…3600").
    public static func number(
        _ name: String, _ valueName: String = "X", help: String, _ path: WritableKeyPath<Root, Double> & Sendable,
        in range: ClosedRange<Double>, unit: String? = nil
    ) -> Option {
        Option(
            name: name, valueName: valueName, help: help, kind: .number(range, unit: unit),
            defaultText: { HelpFormatter.number($0[keyPath: path]) },
            apply: { root, text throws(OptionError) in
                let text = text ?? ""
                guard let number = Double(text.withoutUnderscores), range.contains(number) else {
                    throw .invalidValue(
                        option: name, expected: "\(unit ?? "a number") in \(HelpFormatter.range(range))", text: text)
                }
                root[keyPath: path] = number
            })
    }

    /// One of the cases of `Choice`, by raw value.
    public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, help: String, _ path: WritableKeyPath<Root, Choice> & Sendable
    ) -> Option where Choice.RawValue == String {
        choice(name, help: help, path, read: { $0 }, show: { $0.rawValue })
    }

    /// One of the cases of `Choice`, by raw value, into an optional; `--help` shows the starting value if any.
    public static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, help: String, _ path: WritableKeyPath<Root, Choice?> & Sendable
    ) -> Option where Choice.RawValue == String {
        choice(name, help: help, path, read: { $0 }, show: { $0?.rawValue })
    }

    private static func choice<Choice: RawRepresentable & CaseIterable & Sendable, Value>(
        _ name: String, help: String, _ path: WritableKeyPath<Root, Value> & Sendable,
        read: @escaping @Sendable (Choice) -> Value, show: @escaping @Sendable (Value) -> String?
    ) -> Option where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return Option(
            name: name, valueName: names.joined(separator: "|"), help: help, kind: .choice(names),
            defaultText: { show($0[keyPath: path]) },
            apply: { root, text throws(OptionError) in
                let text = text ?? ""
                guard let choice = Choice(rawValue: text) else {
                    throw .invalidValue(option: name, expected: HelpFormatter.alternatives(names), text: text)
                }
                root[keyPath: path] = read(choice)
            })
    }
}

private func readInteger(_ name: String, _ text: String?, _ range: ClosedRange<Int>) throws(OptionError) -> Int {
    let text = text ?? ""
    guard let number = Int(text.withoutUnderscores), range.contains(number) else {
        throw .invalidValue(option: name, expected: "an integer in \(range.lowerBound)…\(range.upperBound)", text: text)
    }
    return number
}

extension String {
    /// `10_000` reads as `10000`.
    fileprivate var withoutUnderscores: String { String(filter { $0 != "_" }) }

    /// Nil when empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// One setting, described once: its name, what it accepts, its default, its unit and what it means. The
/// playground's config, `--help`, `export`, trace headers, docs/protocol.md's settings table and the page's
/// settings form (through `welcome.settings`) are all derived from these descriptions.
public struct SettingDescription: Equatable, Sendable {
    /// The camelCase name: a `FeedSettings` member, the JSON and link key, `export --set NAME=VALUE`.
    public let name: String
    /// What it accepts.
    public let kind: Kind
    /// Its default; nil when the preset gives it (`PresetBehavior`).
    public let defaultValue: SettingValue?
    /// The unit of a number (`px`, `ms`), or "" when it has none.
    public let unit: String
    /// One line: what the setting means.
    public let meaning: String

    /// What a setting accepts.
    public enum Kind: Equatable, Sendable {
        /// Any number in the range.
        case number(ClosedRange<Double>)
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// One of the names.
        case choice([String])
        /// `true` or `false`.
        case toggle
    }

    /// A setting named `name`; a nil `defaultValue` says the preset gives it.
    public init(name: String, kind: Kind, defaultValue: SettingValue?, unit: String = "", meaning: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.unit = unit
        self.meaning = meaning
    }

    /// The command-line flag, without dashes: the name in kebab-case (`bottomThreshold` → `bottom-threshold`).
    public var flag: String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "-" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A setting's value, as its description's kind reads it.
public enum SettingValue: Equatable, Hashable, Sendable {
    /// A `number` setting's value.
    case number(Double)
    /// An `integer` setting's value.
    case integer(Int)
    /// A `choice` setting's value: one of its names.
    case choice(String)
    /// A `toggle` setting's value.
    case toggle(Bool)
}

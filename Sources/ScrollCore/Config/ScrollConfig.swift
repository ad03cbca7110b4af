/// Every tunable setting of a session, with its default: the rules' (`FeedSettings`, described in
/// `ScrollRules`) and the playground's own (the synthetic feed and the page), described in
/// `ScrollConfig+Descriptions.swift`.
public struct ScrollConfig: Equatable, Hashable, Sendable {
    /// The settings the rules read, the preset among them.
    public var rules = FeedSettings()
    /// Items in the first page.
    public var initialCount: Int = 30
    /// Items per page load.
    public var pageSize: Int = 20
    /// Items a refresh prepends.
    public var refreshCount: Int = 5
    /// Feed length after which `hasMore` is false; 0 = endless.
    public var maxItems: Int = 200
    /// How long a page load takes.
    public var loadLatencyMs: Int = 600
    /// How long a refresh takes.
    public var refreshLatencyMs: Int = 1200
    /// Latencies vary uniformly by up to this much either way.
    public var jitterMs: Int = 0
    /// Probability (0…1) that a load or refresh fails.
    public var failureRate: Double = 0
    /// Seeds the synthetic feed and the latency / failure generator.
    public var seed: UInt64 = 1
    /// Whether every geometry is also run through the other presets' rules.
    public var compare: Bool = false
    /// The item (1-based) a feed opens at, first in view, with the items before it loadable from the top;
    /// 0 = the preset's place (the first item; `chat`: the newest, at the bottom).
    public var startAt: Int = 0
    /// How often a new message arrives at the bottom (ms), when set explicitly; otherwise the preset's.
    public var explicitNewMessageEveryMs: Int? = nil
    /// The most items the page holds (0 = unbounded): past it the server trims items far from the viewport
    /// at the other end and loads them back when the user scrolls toward them.
    public var windowSize: Int = 0
    /// How the page moves: an iPhone's scroll view (the default) or the browser's. A trace without it was
    /// recorded under `browser`.
    public var physics: ScrollPhysics = .ios
    /// How the list reports its content size: every row exact, or a lazy stack's estimate.
    public var contentSize: ContentSizeModel = .exact

    public init() {}

    /// The largest `windowSize`.
    public static let maxWindowSize = 100_000

    /// The smallest bounded window for a page size: two pages, so that a page landing at one end never
    /// trims what is in view (Android Paging asks `maxSize ≥ pageSize + 2 × prefetchDistance` for the same
    /// reason); smaller windows would load and trim in turns.
    public static func minWindowSize(pageSize: Int) -> Int { 2 * pageSize }

    /// The new-message interval in force (0 = none): the explicit one, else the preset's default.
    public var newMessageEveryMs: Int {
        explicitNewMessageEveryMs ?? rules.behavior.defaultNewMessageEveryMs
    }

    /// Whether the feed has a top edge that loads previous pages: it opens in the middle (`startAt`) or at
    /// the bottom (`chat`). A feed that opens at its first item has nothing above it.
    public var twoWay: Bool {
        startAt != 0 || rules.behavior.opensAtBottom
    }
}

/// A setting that cannot be applied, naming the field and what it accepts.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value has the wrong JSON type.
    case wrongType(field: String, expected: String)
    /// The number is outside the accepted range.
    case outOfRange(field: String, range: String)
    /// The name is not one of the accepted names.
    case unknownName(field: String, accepted: [String])
    /// There is no setting of this name (a typo never passes for a setting); `suggestion` is the setting
    /// it most likely meant.
    case unknownSetting(field: String, suggestion: String?)

    /// The offending field.
    public var field: String {
        switch self {
        case .wrongType(let field, _), .outOfRange(let field, _), .unknownName(let field, _),
            .unknownSetting(let field, _):
            field
        }
    }

    public var description: String {
        switch self {
        case .wrongType(let field, let expected): "\(field) must be \(expected)"
        case .outOfRange(let field, let range): "\(field) must be in \(range)"
        case .unknownName(let field, let accepted): "\(field) must be one of \(accepted.joined(separator: ", "))"
        case .unknownSetting(let field, let suggestion?):
            "unknown setting \"\(ClientText.excerpt(field))\": did you mean \"\(suggestion)\"?"
        case .unknownSetting(let field, nil): "unknown setting \"\(ClientText.excerpt(field))\""
        }
    }
}

extension ScrollConfig {
    /// What a setting is outside the playground: what `export` does with it.
    public enum SettingRole: String, Sendable {
        /// A rule's setting, a `FeedSettings` member: the Swift for your app sets it.
        case rule
        /// The synthetic feed's (page sizes, latency, failures): your data source decides it.
        case feed
        /// How the playground's page scrolls or shows the session: in your app SwiftUI does.
        case page
    }

    /// One setting: its description, its role, and how to read and write it in a config.
    public struct Setting: Sendable {
        /// Its name, range, default, unit and meaning.
        public let description: SettingDescription
        /// What it is outside the playground.
        public let role: SettingRole
        /// Why it is not a command-line flag of `serve`; nil when it is one.
        public let notAFlag: String?
        let read: @Sendable (ScrollConfig) -> SettingValue
        let write: @Sendable (inout ScrollConfig, SettingValue) -> Void

        /// The camelCase name used in JSON.
        public var name: String { description.name }
        /// The kebab-case command-line flag, without dashes.
        public var flag: String { description.flag }
        /// What the setting does, for `--help`: its meaning, unit, names, and whether the preset gives it.
        public var help: String {
            var text = description.meaning
            if !description.unit.isEmpty { text += " (\(description.unit))" }
            if case .choice(let names) = description.kind { text += ": \(names.joined(separator: ", "))" }
            if description.defaultValue == nil { text += "; by default the preset's" }
            return text
        }

        /// Checks `value` against the description and writes it.
        func apply(_ config: inout ScrollConfig, _ value: JSONValue) throws(ConfigError) {
            write(&config, try description.read(value))
        }

        /// A rule's setting, read and written in the config's `rules`.
        init(rule: FeedSettings.Setting) {
            description = rule.description
            role = .rule
            notAFlag = nil
            read = { rule.read($0.rules) }
            write = { rule.write(&$0.rules, $1) }
        }

        init(
            _ description: SettingDescription, _ role: SettingRole, notAFlag: String? = nil,
            read: @escaping @Sendable (ScrollConfig) -> SettingValue,
            write: @escaping @Sendable (inout ScrollConfig, SettingValue) -> Void
        ) {
            self.description = description
            self.role = role
            self.notAFlag = notAFlag
            self.read = read
            self.write = write
        }
    }

    /// Every setting, in the order `--help` lists them: the preset, the rules' (`FeedSettings.settings`),
    /// then the playground's own (`ScrollConfig+Descriptions.swift`).
    public static let settings: [Setting] =
        [Setting(rule: FeedSettings.presetSetting)] + FeedSettings.settings.map(Setting.init(rule:))
        + playgroundSettings

    /// The names of every setting.
    public static let settingNames = Set(settings.map(\.name))

    /// Applies the settings present in `fields`, all or nothing. A name that is not a setting is refused,
    /// so a typo (`bottomTreshold`) never passes for one.
    public mutating func apply(_ fields: [String: JSONValue]) throws(ConfigError) {
        if let unknown = fields.keys.sorted().first(where: { !Self.settingNames.contains($0) }) {
            throw .unknownSetting(field: unknown, suggestion: Self.closestSetting(to: unknown))
        }
        var updated = self
        for setting in Self.settings {
            guard let value = fields[setting.name] else { continue }
            try setting.apply(&updated, value)
        }
        if fields["windowSize"] != nil || fields["pageSize"] != nil {
            try updated.checkWindow()
        }
        self = updated
    }

    /// A bounded window must hold two pages (see ``minWindowSize(pageSize:)``).
    public func checkWindow() throws(ConfigError) {
        let least = Self.minWindowSize(pageSize: pageSize)
        guard windowSize == 0 || windowSize >= least else {
            throw .outOfRange(
                field: "windowSize", range: "0 or \(least)…\(Self.maxWindowSize) (at least 2 × pageSize \(pageSize))")
        }
    }

    /// The setting a mistyped name most likely meant: the nearest by edit distance, ignoring case, when at
    /// most a third of its letters differ.
    static func closestSetting(to name: String) -> String? {
        let typed = Array(name.lowercased().utf8.prefix(64))
        let best = settings.map { setting in
            (setting.name, editDistance(typed, Array(setting.name.lowercased().utf8)))
        }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(1, best.0.count / 3) else { return nil }
        return best.0
    }

    /// Applies one setting given as text (a command-line value).
    public mutating func apply(name: String, text: String) throws(ConfigError) {
        guard let setting = Self.settings.first(where: { $0.name == name }) else {
            throw .unknownName(field: "setting", accepted: Self.settings.map(\.name))
        }
        try setting.apply(&self, Self.value(ofText: text))
    }

    /// A setting's value given as text (`--set`, a page's `KEY=VALUE`): a number when it reads as one, a
    /// boolean for `true` and `false`, else the text. The setting's own check then holds it to its range,
    /// exactly as a `config` message's JSON value.
    public static func value(ofText text: String) -> JSONValue {
        if let number = Double(text) { return .number(number) }
        if text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }

    /// All settings as JSON (camelCase), as `welcome.config` shows them.
    public var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: Self.settings.map { ($0.name, JSONValue($0.read(self))) }))
    }
}

func readNumber(_ value: JSONValue, _ field: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Double {
    guard let number = value.number else { throw .wrongType(field: field, expected: "a number") }
    guard range.contains(number) else { throw .outOfRange(field: field, range: describe(range)) }
    return number
}

func readInteger(_ value: JSONValue, _ field: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int {
    guard let number = value.number, number == number.rounded() else {
        throw .wrongType(field: field, expected: "an integer")
    }
    // Compared as doubles, so a huge integer (1e20) is out of range rather than "not an integer".
    guard Double(range.lowerBound) <= number, number <= Double(range.upperBound) else {
        throw .outOfRange(field: field, range: "\(range.lowerBound)…\(range.upperBound)")
    }
    return Int(number)
}

/// Levenshtein distance between two byte strings.
private func editDistance(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    var previous = Array(0...rhs.count)
    for (i, a) in lhs.enumerated() {
        var current = [i + 1] + Array(repeating: 0, count: rhs.count)
        for (j, b) in rhs.enumerated() {
            current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1))
        }
        previous = current
    }
    return previous[rhs.count]
}

private func describe(_ range: ClosedRange<Double>) -> String {
    var writer = JSONWriter()
    writer.number(range.lowerBound)
    let lower = String(decoding: writer.bytes, as: UTF8.self)
    writer = JSONWriter()
    writer.number(range.upperBound)
    return "\(lower)…\(String(decoding: writer.bytes, as: UTF8.self))"
}

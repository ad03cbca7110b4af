/// Every tunable setting of a session, with its default.
public struct ScrollConfig: Equatable, Hashable, Sendable {
    /// Which design's rules decide.
    public var preset: Preset = .playground
    /// How close to the end counts as the bottom, in px.
    public var bottomThreshold: Double = 50
    /// The pull distance that arms a refresh, when set explicitly; otherwise the preset's default.
    public var explicitPullThreshold: Double? = nil
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
    /// How long `refreshOffsetObservable` keeps `refreshing` on, whatever the refresh does.
    public var refreshHoldMs: Int = 2000
    /// The observed axis.
    public var axis: ScrollAxis = .vertical
    /// Seeds the synthetic feed and the latency / failure generator.
    public var seed: UInt64 = 1
    /// Whether every geometry is also run through the other presets' rules.
    public var compare: Bool = false
    /// What happens after a page load fails, when set explicitly; otherwise the preset's default.
    public var explicitRetryPolicy: RetryPolicy? = nil
    /// `backoff`: the first retry's delay; each further retry doubles it.
    public var retryBaseMs: Int = 1000
    /// `backoff`: the longest delay between retries.
    public var retryMaxMs: Int = 30_000
    /// `backoff`: automatic retries of one page before giving up.
    public var retryMax: Int = 5
    /// How close to the start counts as the top, in px: a two-way feed loads the previous page there.
    public var topThreshold: Double = 50
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
        explicitNewMessageEveryMs ?? preset.behavior.defaultNewMessageEveryMs
    }

    /// Whether the feed has a top edge that loads previous pages: it opens in the middle (`startAt`) or at
    /// the bottom (`chat`). A feed that opens at its first item has nothing above it.
    public var twoWay: Bool {
        startAt != 0 || preset.behavior.opensAtBottom
    }

    /// The pull threshold in force: the explicit one, else the preset's default.
    public var pullThreshold: Double {
        explicitPullThreshold ?? preset.defaultPullThreshold
    }

    /// The retry policy in force: the explicit one, else the preset's default.
    public var retryPolicy: RetryPolicy {
        explicitRetryPolicy ?? preset.behavior.defaultRetryPolicy
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
    /// One setting: its JSON (camelCase) name, its command-line flag, and how to read it.
    public struct Setting: Sendable {
        /// The camelCase name used in JSON.
        public let name: String
        /// The kebab-case command-line flag, without dashes.
        public let flag: String
        /// What the setting does, for `--help`.
        public let help: String
        let apply: @Sendable (inout ScrollConfig, JSONValue) throws(ConfigError) -> Void
        let read: @Sendable (ScrollConfig) -> JSONValue
    }

    /// Every setting, in the order `--help` lists them.
    public static let settings: [Setting] = [
        .choice("preset", "preset", "preset (design) whose rules decide", \.preset),
        .number(
            "bottomThreshold", "bottom-threshold", "px from the end that count as the bottom", \.bottomThreshold,
            0...100_000),
        Setting(
            name: "pullThreshold", flag: "pull-threshold",
            help: "pull distance (px) that arms a refresh, by default the preset's",
            apply: { (config, value) throws(ConfigError) in
                config.explicitPullThreshold = try readNumber(value, "pullThreshold", 0...100_000)
            },
            read: { .number($0.pullThreshold) }),
        .integer("initialCount", "initial-count", "items in the first page", \.initialCount, 0...1000),
        .integer("pageSize", "page-size", "items per page load", \.pageSize, 1...500),
        .integer("refreshCount", "refresh-count", "items a refresh prepends", \.refreshCount, 0...500),
        .integer(
            "maxItems", "max-items", "feed length, then hasMore is false (0 = endless)", \.maxItems, 0...1_000_000),
        .integer("loadLatencyMs", "load-latency-ms", "page load latency (ms)", \.loadLatencyMs, 0...600_000),
        .integer("refreshLatencyMs", "refresh-latency-ms", "refresh latency (ms)", \.refreshLatencyMs, 0...600_000),
        .integer("jitterMs", "jitter-ms", "latency varies by up to this much either way (ms)", \.jitterMs, 0...600_000),
        .number("failureRate", "failure-rate", "probability 0…1 that a load or refresh fails", \.failureRate, 0...1),
        .integer(
            "refreshHoldMs", "refresh-hold-ms", "how long refreshOffsetObservable shows refreshing (ms)",
            \.refreshHoldMs, 0...600_000),
        .choice("axis", "axis", "scroll axis", \.axis),
        Setting(
            name: "seed", flag: "seed", help: "seed of the synthetic feed and of latency / failure draws",
            apply: { (config, value) throws(ConfigError) in
                config.seed = UInt64(try readInteger(value, "seed", 0...9_007_199_254_740_991))
            },
            read: { .number(Double($0.seed)) }),
        Setting(
            name: "compare", flag: "compare", help: "run every geometry through every preset and log disagreements",
            apply: { (config, value) throws(ConfigError) in
                guard let flag = value.bool else { throw .wrongType(field: "compare", expected: "true or false") }
                config.compare = flag
            },
            read: { .bool($0.compare) }),
        Setting(
            name: "retryPolicy", flag: "retry-policy",
            help: "after a failed page load: manual, backoff or none; by default the preset's",
            apply: { (config, value) throws(ConfigError) in
                let accepted = RetryPolicy.allCases.map(\.rawValue)
                guard let text = value.string else { throw .wrongType(field: "retryPolicy", expected: "a string") }
                guard let policy = RetryPolicy(rawValue: text) else {
                    throw .unknownName(field: "retryPolicy", accepted: accepted)
                }
                config.explicitRetryPolicy = policy
            },
            read: { .string($0.retryPolicy.rawValue) }),
        .integer(
            "retryBaseMs", "retry-base-ms", "backoff: the first retry's delay, doubled per retry (ms)", \.retryBaseMs,
            0...600_000),
        .integer(
            "retryMaxMs", "retry-max-ms", "backoff: the longest delay between retries (ms)", \.retryMaxMs, 0...600_000),
        .integer("retryMax", "retry-max", "backoff: automatic retries of a page before giving up", \.retryMax, 0...100),
        .number(
            "topThreshold", "top-threshold", "px from the start that count as the top (load previous)", \.topThreshold,
            0...100_000),
        .integer(
            "startAt", "start-at", "the item (1-based) the feed opens at, older ones above (0 = the preset's place)",
            \.startAt, 0...1_000_000),
        Setting(
            name: "newMessageEveryMs", flag: "new-message-every-ms",
            help: "a new message arrives at the bottom every this many ms (0 = none), by default the preset's",
            apply: { (config, value) throws(ConfigError) in
                config.explicitNewMessageEveryMs = try readInteger(value, "newMessageEveryMs", 0...600_000)
            },
            read: { .int($0.newMessageEveryMs) }),
        .integer(
            "windowSize", "window-size",
            "the most items the page holds, trimmed far from the viewport and loaded back (0 = unbounded)",
            \.windowSize, 0...maxWindowSize),
        .choice("physics", "physics", "how the page scrolls: an iPhone's scroll view or the browser's", \.physics),
        .choice(
            "contentSize", "content-size", "how the list reports its content size: exact rows or a lazy estimate",
            \.contentSize),
    ]

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
        let value: JSONValue
        if let number = Double(text) {
            value = .number(number)
        } else if text == "true" || text == "false" {
            value = .bool(text == "true")
        } else {
            value = .string(text)
        }
        try setting.apply(&self, value)
    }

    /// All settings as JSON (camelCase), as `welcome.config` shows them.
    public var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: Self.settings.map { ($0.name, $0.read(self)) }))
    }
}

extension ScrollConfig.Setting {
    static func number(
        _ name: String, _ flag: String, _ help: String, _ path: WritableKeyPath<ScrollConfig, Double> & Sendable,
        _ range: ClosedRange<Double>
    ) -> Self {
        Self(
            name: name, flag: flag, help: help,
            apply: { (config, value) throws(ConfigError) in config[keyPath: path] = try readNumber(value, name, range)
            },
            read: { .number($0[keyPath: path]) })
    }

    static func integer(
        _ name: String, _ flag: String, _ help: String, _ path: WritableKeyPath<ScrollConfig, Int> & Sendable,
        _ range: ClosedRange<Int>
    ) -> Self {
        Self(
            name: name, flag: flag, help: help,
            apply: { (config, value) throws(ConfigError) in config[keyPath: path] = try readInteger(value, name, range)
            },
            read: { .int($0[keyPath: path]) })
    }

    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ flag: String, _ help: String, _ path: WritableKeyPath<ScrollConfig, Choice> & Sendable
    ) -> Self where Choice.RawValue == String {
        let accepted = Choice.allCases.map(\.rawValue)
        return Self(
            name: name, flag: flag, help: "\(help): \(accepted.joined(separator: ", "))",
            apply: { (config, value) throws(ConfigError) in
                guard let text = value.string else { throw .wrongType(field: name, expected: "a string") }
                guard let choice = Choice(rawValue: text) else { throw .unknownName(field: name, accepted: accepted) }
                config[keyPath: path] = choice
            },
            read: { .string($0[keyPath: path].rawValue) })
    }
}

private func readNumber(_ value: JSONValue, _ field: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Double
{
    guard let number = value.number else { throw .wrongType(field: field, expected: "a number") }
    guard range.contains(number) else { throw .outOfRange(field: field, range: describe(range)) }
    return number
}

private func readInteger(_ value: JSONValue, _ field: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int {
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

extension ScrollConfig {
    /// The playground's own settings (the rules' are `FeedSettings.settings`), each described once.
    static let playgroundSettings: [Setting] = [
        .integer("initialCount", \.initialCount, 0...1000, .feed, meaning: "items in the first page"),
        .integer("pageSize", \.pageSize, 1...500, .feed, meaning: "items per page load"),
        .integer("refreshCount", \.refreshCount, 0...500, .feed, meaning: "items a refresh prepends"),
        .integer(
            "maxItems", \.maxItems, 0...1_000_000, .feed, meaning: "feed length, then hasMore is false (0 = endless)"),
        .integer("loadLatencyMs", \.loadLatencyMs, 0...600_000, .feed, unit: "ms", meaning: "page load latency"),
        .integer("refreshLatencyMs", \.refreshLatencyMs, 0...600_000, .feed, unit: "ms", meaning: "refresh latency"),
        .integer(
            "jitterMs", \.jitterMs, 0...600_000, .feed, unit: "ms",
            meaning: "latency varies by up to this much either way"),
        .number("failureRate", \.failureRate, 0...1, .feed, meaning: "probability 0…1 that a load or refresh fails"),
        Setting(
            SettingDescription(
                name: "seed", kind: .integer(0...9_007_199_254_740_991), defaultValue: .integer(1),
                meaning: "seed of the synthetic feed and of latency / failure draws"),
            .feed, read: { .integer(Int($0.seed)) },
            write: { config, value in
                if case .integer(let seed) = value, let seed = UInt64(exactly: seed) { config.seed = seed }
            }),
        .integer(
            "startAt", \.startAt, 0...1_000_000, .feed,
            meaning: "the item (1-based) the feed opens at, older ones above (0 = the preset's place)"),
        Setting(
            SettingDescription(
                name: "newMessageEveryMs", kind: .integer(0...600_000), defaultValue: nil, unit: "ms",
                meaning: "a new message arrives at the bottom this often (0 = none)"),
            .feed, read: { .integer($0.newMessageEveryMs) },
            write: { config, value in
                if case .integer(let every) = value { config.explicitNewMessageEveryMs = every }
            }),
        .integer(
            "windowSize", \.windowSize, 0...maxWindowSize, .feed,
            meaning:
                "the most items the page holds, trimmed far from the viewport and loaded back (0 = unbounded, else at least 2 × pageSize)"
        ),
        .choice("physics", \.physics, meaning: "how the page scrolls: an iPhone's scroll view or the browser's"),
        .choice(
            "contentSize", \.contentSize,
            meaning: "how the list reports its content size: exact rows or a lazy estimate"),
        Setting(
            SettingDescription(
                name: "compare", kind: .toggle, defaultValue: .toggle(false),
                meaning: "run every geometry through every preset and log disagreements"),
            .page,
            notAFlag: "compare mode is a view of one page, not a server default or a tuning: no export writes it",
            read: { .toggle($0.compare) },
            write: { config, value in
                if case .toggle(let on) = value { config.compare = on }
            }),
    ]
}

extension ScrollConfig.Setting {
    static func integer(
        _ name: String, _ path: WritableKeyPath<ScrollConfig, Int> & Sendable, _ range: ClosedRange<Int>,
        _ role: ScrollConfig.SettingRole, unit: String = "", meaning: String
    ) -> Self {
        Self(
            SettingDescription(
                name: name, kind: .integer(range), defaultValue: .integer(ScrollConfig()[keyPath: path]), unit: unit,
                meaning: meaning),
            role, read: { .integer($0[keyPath: path]) },
            write: { config, value in
                if case .integer(let number) = value { config[keyPath: path] = number }
            })
    }

    static func number(
        _ name: String, _ path: WritableKeyPath<ScrollConfig, Double> & Sendable, _ range: ClosedRange<Double>,
        _ role: ScrollConfig.SettingRole, unit: String = "", meaning: String
    ) -> Self {
        Self(
            SettingDescription(
                name: name, kind: .number(range), defaultValue: .number(ScrollConfig()[keyPath: path]), unit: unit,
                meaning: meaning),
            role, read: { .number($0[keyPath: path]) },
            write: { config, value in
                if case .number(let number) = value { config[keyPath: path] = number }
            })
    }

    /// How the playground's page behaves (its physics, its list): one of an enum's names.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<ScrollConfig, Choice> & Sendable, meaning: String
    ) -> Self where Choice.RawValue == String {
        Self(
            SettingDescription(
                name: name, kind: .choice(Choice.allCases.map(\.rawValue)),
                defaultValue: .choice(ScrollConfig()[keyPath: path].rawValue), meaning: meaning),
            .page, read: { .choice($0[keyPath: path].rawValue) },
            write: { config, value in
                if case .choice(let text) = value, let choice = Choice(rawValue: text) {
                    config[keyPath: path] = choice
                }
            })
    }
}

extension SettingDescription {
    /// The setting's value in `json`, checked against what it accepts.
    func read(_ json: JSONValue) throws(ConfigError) -> SettingValue {
        switch kind {
        case .number(let range): return .number(try readNumber(json, name, range))
        case .integer(let range): return .integer(try readInteger(json, name, range))
        case .choice(let names):
            guard let text = json.string else { throw .wrongType(field: name, expected: "a string") }
            guard names.contains(text) else { throw .unknownName(field: name, accepted: names) }
            return .choice(text)
        case .toggle:
            guard let on = json.bool else { throw .wrongType(field: name, expected: "true or false") }
            return .toggle(on)
        }
    }
}

extension JSONValue {
    /// A setting's value as JSON: numbers, names as strings, toggles as booleans.
    public init(_ value: SettingValue) {
        switch value {
        case .number(let number): self = .number(number)
        case .integer(let number): self = .int(number)
        case .choice(let name): self = .string(name)
        case .toggle(let on): self = .bool(on)
        }
    }
}

extension FeedSettings {
    /// One rule setting: its description and how it reads and writes a `FeedSettings`. A new rule setting is
    /// its member in `FeedSettings.swift`, its entry in ``settings`` and the rule that reads it; the
    /// playground's config, `--help`, `export`, trace headers, the docs' table and the page follow.
    public struct Setting: Sendable {
        /// What it is, its range, default, unit and meaning.
        public let description: SettingDescription
        /// Its value in force (for a preset-given one: the preset's unless set).
        public let read: @Sendable (FeedSettings) -> SettingValue
        /// Whether it is set away from what `FeedSettings(preset:)` gives.
        public let isTuned: @Sendable (FeedSettings) -> Bool
        /// Writes a value its description accepts (the caller checks the range and names).
        public let write: @Sendable (inout FeedSettings, SettingValue) -> Void
    }

    /// Every rule setting but the preset, in the order a trace header writes the tuned ones.
    public static let settings: [Setting] = [
        .choice(
            "axis", \.axis, meaning: "the scroll axis the rules observe"),
        .number(
            "bottomThreshold", \.bottomThreshold, 0...100_000, unit: "px",
            meaning: "how close to the end counts as the bottom"),
        .number(
            "topThreshold", \.topThreshold, 0...100_000, unit: "px",
            meaning: "how close to the start counts as the top (a two-way feed loads the previous page there)"),
        .integer(
            "retryBaseMs", \.retryBaseMs, 0...600_000, unit: "ms",
            meaning: "backoff: the first retry's delay, doubled per retry; each waits half to all of it (jittered)"),
        .integer(
            "retryMaxMs", \.retryMaxMs, 0...600_000, unit: "ms", meaning: "backoff: the longest delay between retries"),
        .integer(
            "retryMax", \.retryMax, 0...100, meaning: "backoff: automatic retries of a page before giving up"),
        .integer(
            "refreshHoldMs", \.refreshHoldMs, 0...600_000, unit: "ms",
            meaning: "how long refreshOffsetObservable shows refreshing, whatever the refresh does"),
        Setting(
            description: SettingDescription(
                name: "pullThreshold", kind: .number(0...100_000), defaultValue: nil, unit: "px",
                meaning: "the pull distance that arms a refresh"),
            read: { .number($0.pullThreshold) },
            isTuned: { $0.explicitPullThreshold != nil },
            write: { settings, value in
                if case .number(let number) = value { settings.explicitPullThreshold = number }
            }),
        Setting(
            description: SettingDescription(
                name: "retryPolicy", kind: .choice(RetryPolicy.allCases.map(\.rawValue)), defaultValue: nil,
                meaning: "what follows a failed page load: a Retry button, retries with backoff, or nothing"),
            read: { .choice($0.retryPolicy.rawValue) },
            isTuned: { $0.explicitRetryPolicy != nil },
            write: { settings, value in
                if case .choice(let name) = value, let policy = RetryPolicy(rawValue: name) {
                    settings.explicitRetryPolicy = policy
                }
            }),
    ]

    /// The preset: which design's rules decide.
    public static let presetSetting = Setting(
        description: SettingDescription(
            name: "preset", kind: .choice(Preset.allCases.map(\.rawValue)),
            defaultValue: .choice(FeedSettings().preset.rawValue), meaning: "the preset (design) whose rules decide"),
        read: { .choice($0.preset.rawValue) },
        isTuned: { _ in false },
        write: { settings, value in
            if case .choice(let name) = value, let preset = Preset(rawValue: name) { settings.preset = preset }
        })
}

extension FeedSettings.Setting {
    /// A number member; its default is the one `FeedSettings` declares.
    static func number(
        _ name: String, _ path: WritableKeyPath<FeedSettings, Double> & Sendable, _ range: ClosedRange<Double>,
        unit: String = "", meaning: String
    ) -> Self {
        Self(
            description: SettingDescription(
                name: name, kind: .number(range), defaultValue: .number(FeedSettings()[keyPath: path]), unit: unit,
                meaning: meaning),
            read: { .number($0[keyPath: path]) },
            isTuned: { $0[keyPath: path] != FeedSettings(preset: $0.preset)[keyPath: path] },
            write: { settings, value in
                if case .number(let number) = value { settings[keyPath: path] = number }
            })
    }

    /// A whole-number member; its default is the one `FeedSettings` declares.
    static func integer(
        _ name: String, _ path: WritableKeyPath<FeedSettings, Int> & Sendable, _ range: ClosedRange<Int>,
        unit: String = "", meaning: String
    ) -> Self {
        Self(
            description: SettingDescription(
                name: name, kind: .integer(range), defaultValue: .integer(FeedSettings()[keyPath: path]), unit: unit,
                meaning: meaning),
            read: { .integer($0[keyPath: path]) },
            isTuned: { $0[keyPath: path] != FeedSettings(preset: $0.preset)[keyPath: path] },
            write: { settings, value in
                if case .integer(let number) = value { settings[keyPath: path] = number }
            })
    }

    /// A member that is one of an enum's names; its default is the one `FeedSettings` declares.
    static func choice<Choice: RawRepresentable & CaseIterable & Equatable & Sendable>(
        _ name: String, _ path: WritableKeyPath<FeedSettings, Choice> & Sendable, meaning: String
    ) -> Self where Choice.RawValue == String {
        Self(
            description: SettingDescription(
                name: name, kind: .choice(Choice.allCases.map(\.rawValue)),
                defaultValue: .choice(FeedSettings()[keyPath: path].rawValue), meaning: meaning),
            read: { .choice($0[keyPath: path].rawValue) },
            isTuned: { $0[keyPath: path] != FeedSettings(preset: $0.preset)[keyPath: path] },
            write: { settings, value in
                if case .choice(let text) = value, let choice = Choice(rawValue: text) {
                    settings[keyPath: path] = choice
                }
            })
    }
}

import Testing

@testable import ScrollCore

/// The session settings: defaults, validation, and the two spellings (JSON camelCase, command-line text).
struct ScrollConfigTests {
    func applying(_ fields: [String: JSONValue]) -> Result<ScrollConfig, ConfigError> {
        var config = ScrollConfig()
        do {
            try config.apply(fields)
            return .success(config)
        } catch {
            return .failure(error)
        }
    }

    func error(_ fields: [String: JSONValue]) -> ConfigError? {
        if case .failure(let error) = applying(fields) { return error }
        return nil
    }

    @Test func defaultsAreTheSpecs() {
        #expect(
            ScrollConfig().json == [
                "preset": "playground", "bottomThreshold": 50, "pullThreshold": 68, "initialCount": 30, "pageSize": 20,
                "refreshCount": 5, "maxItems": 200, "loadLatencyMs": 600, "refreshLatencyMs": 1200, "jitterMs": 0,
                "failureRate": 0, "refreshHoldMs": 2000, "axis": "vertical", "seed": 1, "compare": false,
                "retryPolicy": "backoff", "retryBaseMs": 1000, "retryMaxMs": 30000, "retryMax": 5,
                "topThreshold": 50, "startAt": 0, "newMessageEveryMs": 0, "windowSize": 0,
                "physics": "ios", "contentSize": "exact",
            ])
    }

    @Test func pullThresholdDefaultsTo100UnderRefreshOffsetObservableUnlessSetExplicitly() throws {
        var config = ScrollConfig()
        #expect(config.rules.pullThreshold == 68)
        try config.apply(["preset": "refreshOffsetObservable"])
        #expect(config.rules.pullThreshold == 100)
        try config.apply(["preset": "refreshable"])
        #expect(config.rules.pullThreshold == 68)
        try config.apply(["pullThreshold": 90])
        try config.apply(["preset": "refreshOffsetObservable"])
        #expect(config.rules.pullThreshold == 90)
        #expect(config.json["pullThreshold"] == 90)
    }

    @Test func appliesEverySetting() throws {
        var config = ScrollConfig()
        try config.apply([
            "preset": "customScrollView", "bottomThreshold": 12.5, "pullThreshold": 40, "initialCount": 0,
            "pageSize": 500,
            "refreshCount": 0, "maxItems": 0, "loadLatencyMs": 0, "refreshLatencyMs": 600_000, "jitterMs": 5,
            "failureRate": 1, "refreshHoldMs": 0, "axis": "horizontal", "seed": 9_007_199_254_740_991, "compare": true,
        ])
        var expected = ScrollConfig()
        expected.rules.preset = .customScrollView
        expected.rules.bottomThreshold = 12.5
        expected.rules.explicitPullThreshold = 40
        expected.initialCount = 0
        expected.pageSize = 500
        expected.refreshCount = 0
        expected.maxItems = 0
        expected.loadLatencyMs = 0
        expected.refreshLatencyMs = 600_000
        expected.jitterMs = 5
        expected.failureRate = 1
        expected.rules.refreshHoldMs = 0
        expected.rules.axis = .horizontal
        expected.seed = 9_007_199_254_740_991
        expected.compare = true
        #expect(config == expected)
    }

    /// A value outside its range is refused with an error that names the field and the range.
    @Test(
        arguments: [
            ("bottomThreshold", -1, "0…100000"),
            ("bottomThreshold", 100_001, "0…100000"),
            ("pullThreshold", -0.5, "0…100000"),
            ("initialCount", 1001, "0…1000"),
            ("initialCount", -1, "0…1000"),
            ("pageSize", 0, "1…500"),
            ("pageSize", 501, "1…500"),
            ("refreshCount", 501, "0…500"),
            ("maxItems", -1, "0…1000000"),
            ("maxItems", 1_000_001, "0…1000000"),
            ("maxItems", 1e20, "0…1000000"),
            ("initialCount", -1e300, "0…1000"),
            ("loadLatencyMs", -1, "0…600000"),
            ("refreshLatencyMs", 600_001, "0…600000"),
            ("jitterMs", -5, "0…600000"),
            ("failureRate", 1.01, "0…1"),
            ("failureRate", -0.1, "0…1"),
            ("refreshHoldMs", 600_001, "0…600000"),
            ("seed", -1, "0…9007199254740991"),
            ("seed", 9_007_199_254_740_992, "0…9007199254740991"),
        ] as [(String, Double, String)])
    func rangeErrorNamesTheField(field: String, value: Double, range: String) {
        let error = error([field: .number(value)])
        #expect(error == .outOfRange(field: field, range: range))
        #expect(error?.field == field)
        #expect(error?.description == "\(field) must be in \(range)")
    }

    @Test(
        arguments: [
            ("pageSize", 2.5, "an integer"),
            ("maxItems", "ten", "an integer"),
            ("seed", true, "an integer"),
            ("bottomThreshold", "50", "a number"),
            ("failureRate", nil, "a number"),
            ("preset", 3, "a string"),
            ("axis", false, "a string"),
            ("compare", "yes", "true or false"),
        ] as [(String, JSONValue, String)])
    func wrongTypeNamesTheField(field: String, value: JSONValue, expected: String) {
        let error = error([field: value])
        #expect(error == .wrongType(field: field, expected: expected))
        #expect(error?.description == "\(field) must be \(expected)")
    }

    @Test func unknownChoiceListsTheAcceptedNames() {
        let error = error(["preset": "fancy"])
        #expect(error == .unknownName(field: "preset", accepted: Preset.allCases.map(\.rawValue)))
        #expect(
            error?.description
                == "preset must be one of customScrollView, offsetObserving, refreshableLegacy, refreshable, refreshOffsetObservable, playground, chat"
        )
        #expect(self.error(["axis": "diagonal"]) == .unknownName(field: "axis", accepted: ["vertical", "horizontal"]))
    }

    @Test func applyIsAllOrNothing() throws {
        var config = ScrollConfig()
        #expect(throws: ConfigError.outOfRange(field: "failureRate", range: "0…1")) {
            try config.apply(["pageSize": 10, "failureRate": 2])
        }
        #expect(config == ScrollConfig())
        try config.apply(["pageSize": 10])
        #expect(config.pageSize == 10)
    }

    /// A name that is not a setting is refused, naming it (and what it likely meant), and nothing changes:
    /// a typo never passes for a setting.
    @Test func unknownNamesAreRefusedAndNothingChanges() {
        var config = ScrollConfig()
        #expect(throws: ConfigError.unknownSetting(field: "bottomTreshold", suggestion: "bottomThreshold")) {
            try config.apply(["pageSize": 10, "bottomTreshold": 10])
        }
        #expect(config == ScrollConfig())
        #expect(
            ConfigError.unknownSetting(field: "bottomTreshold", suggestion: "bottomThreshold").description
                == #"unknown setting "bottomTreshold": did you mean "bottomThreshold"?"#)
        #expect(error(["maxSize": 100]) == .unknownSetting(field: "maxSize", suggestion: nil))
        #expect(error(["maxSize": 100])?.description == #"unknown setting "maxSize""#)
        #expect(error(["windowSise": 100]) == .unknownSetting(field: "windowSise", suggestion: "windowSize"))
        #expect(error(["colour": "blue", "type": "config"]) == .unknownSetting(field: "colour", suggestion: nil))
        #expect(error(["retrymax": 3]) == .unknownSetting(field: "retrymax", suggestion: "retryMax"))
    }

    /// The retry settings: a policy name, and numbers in range; `retryMax` of 1e9 names the field and range.
    @Test(
        arguments: [
            ("retryMax", 1e9, "0…100"),
            ("retryMax", -1, "0…100"),
            ("retryBaseMs", -1, "0…600000"),
            ("retryBaseMs", 600_001, "0…600000"),
            ("retryMaxMs", 1e12, "0…600000"),
        ] as [(String, Double, String)])
    func retrySettingsOutOfRangeAreRefused(field: String, value: Double, range: String) {
        var config = ScrollConfig()
        #expect(throws: ConfigError.outOfRange(field: field, range: range)) {
            try config.apply([field: .number(value)])
        }
        #expect(config == ScrollConfig())
    }

    @Test func retryPolicyIsTheDesignsUnlessSetExplicitly() throws {
        var config = ScrollConfig()
        #expect(config.rules.retryPolicy == .backoff)
        for preset in Preset.allCases where preset != .playground && preset != .chat {
            try config.apply(["preset": .string(preset.rawValue)])
            #expect(config.rules.retryPolicy == .manual)
        }
        try config.apply(["retryPolicy": "none"])
        #expect(config.rules.retryPolicy == .noRetry)
        try config.apply(["preset": "playground"])
        #expect(config.rules.retryPolicy == .noRetry)
        #expect(config.json["retryPolicy"] == "none")
        #expect(
            error(["retryPolicy": "sometimes"])
                == .unknownName(field: "retryPolicy", accepted: ["manual", "backoff", "none"]))
        #expect(error(["retryPolicy": 1]) == .wrongType(field: "retryPolicy", expected: "a string"))
        // A trace records the policy only when it was set, so a replay under another preset gets its default.
        #expect(ScrollConfig().recordedJSON["retryPolicy"] == nil)
        #expect(config.recordedJSON["retryPolicy"] == "none")
    }

    @Test func commandLineTextIsReadByTheSettingsType() throws {
        var config = ScrollConfig()
        try config.apply(name: "bottomThreshold", text: "75.5")
        try config.apply(name: "pageSize", text: "12")
        try config.apply(name: "axis", text: "horizontal")
        try config.apply(name: "compare", text: "true")
        try config.apply(name: "preset", text: "refreshable")
        #expect(config.rules.bottomThreshold == 75.5)
        #expect(config.pageSize == 12)
        #expect(config.rules.axis == .horizontal)
        #expect(config.compare)
        #expect(config.rules.preset == .refreshable)
        #expect(throws: ConfigError.wrongType(field: "pageSize", expected: "an integer")) {
            try config.apply(name: "pageSize", text: "many")
        }
        #expect(throws: ConfigError.outOfRange(field: "failureRate", range: "0…1")) {
            try config.apply(name: "failureRate", text: "nan")
        }
        #expect(throws: ConfigError.unknownName(field: "setting", accepted: ScrollConfig.settings.map(\.name))) {
            try config.apply(name: "speed", text: "1")
        }
    }

    /// Every setting is a kebab-case flag; JSON uses camelCase. The preset comes first, then the rules'
    /// settings as `FeedSettings` describes them, then the playground's own.
    @Test func everySettingHasItsFlagAndHelp() {
        #expect(ScrollConfig.settings.map(\.flag).contains("bottom-threshold"))
        #expect(ScrollConfig.settings.map(\.flag).contains("new-message-every-ms"))
        #expect(ScrollConfig.settings.allSatisfy { $0.flag.lowercased() == $0.flag && !$0.flag.contains("_") })
        #expect(Set(ScrollConfig.settings.map(\.flag)).count == ScrollConfig.settings.count)
        #expect(
            ScrollConfig.settings.map(\.name)
                == ["preset"] + FeedSettings.settings.map(\.description.name)
                + ScrollConfig.settings.filter { $0.role != .rule }.map(\.name))
        #expect(Set(ScrollConfig.settings.map(\.name)) == Set(ScrollConfig().json.object!.keys))
        #expect(ScrollConfig.settings.allSatisfy { !$0.help.isEmpty })
        #expect(ScrollConfig.settings[0].help.hasSuffix(Preset.allCases.map(\.rawValue).joined(separator: ", ")))
    }
}

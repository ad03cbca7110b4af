extension ScrollConfig {
    /// The settings the rules read, out of the session's settings (the rest are the synthetic feed's).
    public var feedSettings: FeedSettings {
        var settings = rules
        // A bounded window's trimmed items load back at the top in every preset, by the top rule.
        settings.explicitLoadsPrevious = windowSize > 0 ? true : nil
        return settings
    }
}

extension Preset {
    /// Runs this preset's detection rules on one geometry, with a session's settings.
    package func evaluate(
        _ geometry: FeedGeometry, phase: FeedScrollPhase, config: ScrollConfig, refreshing: Bool,
        memory: inout RuleMemory
    ) -> RuleVerdict {
        evaluate(geometry, phase: phase, settings: config.feedSettings, refreshing: refreshing, memory: &memory)
    }
}

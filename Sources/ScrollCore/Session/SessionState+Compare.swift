extension SessionState {
    // MARK: Compare mode

    /// Every compared preset's rules on this geometry, without side effects: a disagreement is logged.
    mutating func compare(_ report: GeometryReport, into effects: inout [SessionEffect]) {
        var bottoms: [Preset: Bool] = [:]
        var fired: [Preset: Bool] = [:]
        var loads: [Preset] = []
        for preset in Preset.allCases where preset.isCompared && (preset.detectsBottom || preset.detectsPull) {
            var shadow = shadows[preset] ?? ShadowRules()
            // Each preset with its own defaults: `refreshOffsetObservable` pulls to 100 unless the session set a threshold.
            var settings = config
            settings.rules.preset = preset
            let verdict = preset.evaluate(
                report.geometry, phase: report.phase, config: settings, refreshing: false, memory: &shadow.memory)
            if preset.detectsBottom {
                bottoms[preset] = verdict.reachedBottom
                if verdict.loadFires { loads.append(preset) }
            }
            if preset.detectsPull {
                fired[preset] = verdict.refreshFires && !shadow.firing
                shadow.firing = verdict.refreshFires
                // A shadow never refreshes, so its gesture ends here.
                if verdict.refreshFires { shadow.memory.pull = PullState() }
            }
            shadows[preset] = shadow
        }
        let atBottom = bottoms.filter(\.value).keys.sorted(by: Self.presetOrder)
        let split = atBottom.isEmpty || atBottom.count == bottoms.count ? nil : atBottom
        if split != bottomDisagreement {
            bottomDisagreement = split
            if split != nil {
                effects.append(.log(disagreement("reachedBottom", bottoms, geometrySeq: report.seq)))
            }
        }
        if fired.values.contains(true), fired.values.contains(false) {
            effects.append(.log(disagreement("refresh", fired, geometrySeq: report.seq)))
        }
        // Every firing, agreed or not, so the page's lanes draw each preset's loads and refreshes.
        let refreshes = fired.filter(\.value).keys.sorted(by: Self.presetOrder)
        if !loads.isEmpty || !refreshes.isEmpty {
            effects.append(
                .log(
                    LogEntry(
                        .presetsFired, geometrySeq: report.seq,
                        [
                            "load": .array(loads.sorted(by: Self.presetOrder).map { .string($0.rawValue) }),
                            "refresh": .array(refreshes.map { .string($0.rawValue) }),
                        ])))
        }
    }

    private func disagreement(_ subject: String, _ verdicts: [Preset: Bool], geometrySeq: Int) -> LogEntry {
        let yes = verdicts.filter(\.value).keys.sorted(by: Self.presetOrder)
        let no = verdicts.filter { !$0.value }.keys.sorted(by: Self.presetOrder)
        return LogEntry(
            .presetDisagreement, geometrySeq: geometrySeq,
            [
                "about": .string(subject),
                "yes": .array(yes.map { .string($0.rawValue) }),
                "no": .array(no.map { .string($0.rawValue) }),
            ])
    }

    private static func presetOrder(_ lhs: Preset, _ rhs: Preset) -> Bool {
        Preset.allCases.firstIndex(of: lhs)! < Preset.allCases.firstIndex(of: rhs)!
    }
}

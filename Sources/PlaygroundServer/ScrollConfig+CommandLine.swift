import ScrollCore

extension ScrollConfig {
    /// The settings that are also command-line flags (compare mode is per page only).
    static var commandLineSettings: [Setting] {
        settings.filter { $0.name != "compare" && $0.name != "preset" } + settings.filter { $0.name == "preset" }
    }

    /// A setting's value as it is typed on the command line.
    func commandLineText(_ name: String) -> String? {
        json[name].map { $0.string ?? $0.jsonString }
    }

    /// A setting's value as `--help` shows it: with the presets that would change it (the pull
    /// threshold's), e.g. `68, 100 for refreshOffsetObservable`.
    func commandLineDefault(_ name: String) -> String? {
        guard let value = commandLineText(name), name != "preset" else { return commandLineText(name) }
        let others = Preset.allCases.compactMap { preset -> String? in
            var variant = self
            variant.preset = preset
            guard let text = variant.commandLineText(name), text != value else { return nil }
            return "\(text) for \(preset.rawValue)"
        }
        return ([value] + others).joined(separator: ", ")
    }
}

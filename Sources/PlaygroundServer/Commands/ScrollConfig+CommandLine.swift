import ScrollCore

extension ScrollConfig {
    /// The settings that are also command-line flags (not those with a reason in `notAFlag`), the preset last.
    static var commandLineSettings: [Setting] {
        settings.filter { $0.notAFlag == nil && $0.name != "preset" } + settings.filter { $0.name == "preset" }
    }

    /// A setting's value as it is typed on the command line.
    func commandLineText(_ name: String) -> String? {
        json[name].map { $0.string ?? $0.jsonString }
    }

    /// A setting's value as `--help` shows it: with the presets that would change it (the pull
    /// threshold's, the retry policy's), e.g. `68; 100 for refreshOffsetObservable`.
    func commandLineDefault(_ name: String) -> String? {
        guard let value = commandLineText(name), name != "preset" else { return commandLineText(name) }
        var others: [(text: String, presets: [String])] = []
        for preset in Preset.allCases {
            var variant = self
            variant.rules.preset = preset
            guard let text = variant.commandLineText(name), text != value else { continue }
            if let index = others.firstIndex(where: { $0.text == text }) {
                others[index].presets.append(preset.rawValue)
            } else {
                others.append((text, [preset.rawValue]))
            }
        }
        let alternatives = others.map { "\($0.text) for \($0.presets.joined(separator: ", "))" }
        return ([value] + alternatives).joined(separator: "; ")
    }
}

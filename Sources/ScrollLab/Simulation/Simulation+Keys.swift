import ScrollCore

extension Simulation {
    /// The lab's own keys, beside every session setting (`ScrollConfig.settings`).
    public static let labKeys: [(name: String, help: String)] = [
        ("gesture", "the simulated user: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", "))"),
        ("seconds", "simulated seconds (0.1…3600)"),
        ("hz", "frames per second (1…1000)"),
        ("containerHeight", "viewport height, px"),
        ("containerWidth", "viewport width, px"),
        ("insetTop", "contentInsets.top, px"),
        ("insetBottom", "contentInsets.bottom, px"),
        ("itemHeight", "height of an item the feed gives none, px"),
        ("endShortfall", "px short of the exact end where the browser stops (zoom: 0.4)"),
    ]

    /// Every key `simulate` and `--sweep` accept.
    public static var keys: [String] { labKeys.map(\.name) + ScrollConfig.settings.map(\.name) }

    /// Sets one key from its text.
    public mutating func apply(key: String, text: String) throws(LabError) {
        func number(_ range: ClosedRange<Double>) throws(LabError) -> Double {
            guard let value = Double(text), range.contains(value) else {
                throw .badValue(key: key, reason: "must be a number in \(Self.describe(range)), not '\(text)'")
            }
            return value
        }
        switch key {
        case "gesture":
            guard let kind = GestureKind(rawValue: text) else {
                throw .badValue(
                    key: key,
                    reason:
                        "unknown gesture '\(text)' (one of \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            gesture = kind
            hand = nil
        case "seconds": seconds = try number(0.1...3600)
        case "hz": hz = try number(1...1000)
        case "containerHeight": layout.containerHeight = try number(1...100_000)
        case "containerWidth": layout.containerWidth = try number(1...100_000)
        case "insetTop": layout.insetTop = try number(0...100_000)
        case "insetBottom": layout.insetBottom = try number(0...100_000)
        case "itemHeight": layout.itemHeight = try number(1...100_000)
        case "endShortfall": layout.endShortfall = try number(0...100)
        default:
            guard ScrollConfig.settings.contains(where: { $0.name == key }) else {
                throw .unknownKey(key, accepted: Self.keys)
            }
            do {
                try config.apply(name: key, text: text)
            } catch {
                throw .badValue(key: key, reason: error.description)
            }
        }
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        "\(LabFormat.number(range.lowerBound))…\(LabFormat.number(range.upperBound))"
    }
}

/// How the lab writes numbers.
public enum LabFormat {
    /// `10`, `0.5`, `12.3` (at most three decimals).
    public static func number(_ value: Double) -> String {
        // Past 1e15 (or not finite) no integer conversion is safe: Swift's own spelling (`1e+308`, `inf`).
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        if value == value.rounded() { return String(Int(value)) }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

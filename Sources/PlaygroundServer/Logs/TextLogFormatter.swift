import ScrollCore

/// Formats an event record as one readable terminal line, e.g.
/// `04:12:09.331 s3 loadMoreStarted page=2 distanceToBottom=41`.
enum TextLogFormatter {
    /// Data keys shown first, in this order, when present; the rest follow alphabetically.
    private static let leadingKeys = ["page", "trigger", "distanceToBottom", "distance", "added", "total", "about"]

    static func line(for record: EventRecord) -> String {
        // The ISO time is "YYYY-MM-DDTHH:MM:SS.mmmZ"; the terminal shows the time of day.
        line(time: String(record.time.dropFirst(11).prefix(12)), session: record.session, entry: record.entry)
    }

    static func line(time: String, session: String, entry: LogEntry) -> String {
        var line = "\(time) \(session) \(entry.name.rawValue)"
        let data = entry.data
        let keys = leadingKeys.filter { data[$0] != nil } + data.keys.filter { !leadingKeys.contains($0) }.sorted()
        for key in keys {
            line += " \(key)=\(format(data[key]!))"
        }
        return line
    }

    private static func roundedForReading(_ number: Double) -> String {
        let rounded = (number * 10).rounded() / 10
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }

    private static func format(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number):
            // One decimal is enough to read a pixel position; whole numbers print without one.
            roundedForReading(number)
        case .array(let elements): elements.map(format).joined(separator: ",")
        default: value.jsonString
        }
    }
}

/// How the terminal shows events (`--log-format`).
public enum LogFormat: String, CaseIterable, Sendable {
    /// One readable line per event.
    case text
    /// One JSON record per line.
    case json
}

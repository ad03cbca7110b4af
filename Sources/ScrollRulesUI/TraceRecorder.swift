import ScrollRules

/// Records a real scroll view for the playground, in pure Swift: the messages of a `record` session
/// (`hello` with `record`, then one `geometry` per changed frame) and the same inputs as a format-1 trace
/// (docs/traces.md) that `scroll-playground replay` reads. Sending the messages needs a WebSocket
/// (`PlaygroundStream`); this type only makes the text.
public struct TraceRecorder: Sendable {
    /// The app, as the trace's header and the session's `record.page` name it (e.g. its bundle id).
    public let app: String
    /// The kind of device, e.g. "iPhone 15 Pro, iOS 18.1".
    public let device: String
    /// The rules the app runs: the session opens with them.
    public let settings: FeedSettings
    /// The trace's lines so far: the header, the `hello`, the geometry.
    public private(set) var lines: [String]
    private var seq = 0
    private var last: (geometry: FeedGeometry, phase: FeedScrollPhase)?
    /// The last line's `t`: no line's is below it, or below 0 (a trace's `t` never goes back, docs/traces.md),
    /// whatever clock readings the app passes.
    private var lastT: Int64 = 0

    /// A recorder whose trace starts at `t` (milliseconds on the app's monotonic clock).
    public init(app: String, device: String, settings: FeedSettings, at t: Int64 = 0) {
        self.app = app
        self.device = device
        self.settings = settings
        lines = []
        lines.append(
            Self.object([
                ("kind", Self.string("header")), ("format", "1"), ("server", Self.string("ScrollRulesUI")),
                ("session", Self.string(app)), ("preset", Self.string(settings.preset.rawValue)),
                ("config", configJSON), ("recorder", recorderJSON),
            ]))
        lastT = max(t, 0)
        lines.append(Self.input(hello, at: lastT))
    }

    /// The `hello` that opens a `record` session with the app's rules.
    public var hello: String {
        Self.object([
            ("type", Self.string("hello")), ("version", "1"), ("preset", Self.string(settings.preset.rawValue)),
            ("config", configJSON), ("record", recorderJSON),
        ])
    }

    /// One frame: the `geometry` message to send, or nil when neither the geometry nor the phase changed
    /// (or a number is not finite). The trace gets it as an `input` at `t`.
    public mutating func frame(_ geometry: FeedGeometry, phase: FeedScrollPhase, at t: Int64) -> String? {
        if let last, last.geometry == geometry, last.phase == phase { return nil }
        let numbers = [
            geometry.contentOffset.x, geometry.contentOffset.y, geometry.contentSize.width,
            geometry.contentSize.height, geometry.containerSize.width, geometry.containerSize.height,
            geometry.contentInsets.top, geometry.contentInsets.leading, geometry.contentInsets.bottom,
            geometry.contentInsets.trailing,
        ]
        guard numbers.allSatisfy(\.isFinite) else { return nil }
        last = (geometry, phase)
        seq += 1
        lastT = max(t, lastT)
        let message = Self.object([
            ("type", Self.string("geometry")), ("seq", "\(seq)"), ("t", "\(t)"),
            (
                "contentOffset",
                Self.object([
                    ("x", Self.number(geometry.contentOffset.x)), ("y", Self.number(geometry.contentOffset.y)),
                ])
            ),
            ("contentSize", Self.size(geometry.contentSize)), ("containerSize", Self.size(geometry.containerSize)),
            (
                "contentInsets",
                Self.object([
                    ("top", Self.number(geometry.contentInsets.top)),
                    ("leading", Self.number(geometry.contentInsets.leading)),
                    ("bottom", Self.number(geometry.contentInsets.bottom)),
                    ("trailing", Self.number(geometry.contentInsets.trailing)),
                ])
            ),
            ("phase", Self.string(phase.rawValue)),
        ])
        lines.append(Self.input(message, at: lastT))
        return message
    }

    /// The trace as a file's text: every line so far, and a `closed` line at `t` when the recording ends.
    public func trace(closedAt t: Int64? = nil) -> String {
        var all = lines
        if let t {
            all.append(
                Self.object([
                    ("kind", Self.string("closed")), ("t", "\(max(t, lastT))"), ("code", "1000"),
                    ("resumable", "false"),
                ]))
        }
        return all.map { $0 + "\n" }.joined()
    }

    // MARK: JSON, written by hand (no Foundation)

    /// The rules' settings as the playground names them: only those that are not the defaults.
    private var configJSON: String {
        let tuned = FeedSettings.settings.filter { $0.isTuned(settings) }.map { setting in
            switch setting.read(settings) {
            case .number(let value): (setting.description.name, Self.number(value))
            case .integer(let value): (setting.description.name, "\(value)")
            case .choice(let name): (setting.description.name, Self.string(name))
            case .toggle(let on): (setting.description.name, on ? "true" : "false")
            }
        }
        return Self.object([("preset", Self.string(settings.preset.rawValue))] + tuned)
    }

    private var recorderJSON: String {
        Self.object([("page", Self.string("app:\(app)")), ("name", Self.string("\(app) on \(device)"))])
    }

    private static func input(_ message: String, at t: Int64) -> String {
        object([("kind", string("input")), ("t", "\(t)"), ("message", message)])
    }

    private static func size(_ size: ScrollSize) -> String {
        object([("width", number(size.width)), ("height", number(size.height))])
    }

    private static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A finite number; whole ones without a fraction (`2156`, not `2156.0`).
    private static func number(_ value: Double) -> String {
        // Int64 conversion instead of rounding: `rounded` would call libm's trunc, which an app may not link.
        if abs(value) < 1e15, Double(Int64(value)) == value { return "\(Int64(value))" }
        return "\(value)"
    }

    private static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = Array("0123456789abcdef")
                result += "\\u00\(hex[Int(scalar.value >> 4)])\(hex[Int(scalar.value & 15)])"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

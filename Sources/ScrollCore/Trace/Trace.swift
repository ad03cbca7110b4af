/// A recorded session (`traces/SESSION.jsonl`, format 1): what the server started from, every input it
/// received with its time, every timer that fired, and every decision it made. See docs/traces.md.
public struct Trace: Equatable, Sendable {
    /// The format this code reads and writes.
    public static let formatVersion = 1

    /// The first line: what the session started from.
    public struct Header: Equatable, Sendable {
        public var format: Int
        /// The server version that recorded it.
        public var server: String
        public var session: String
        /// The server's defaults, before the page's `hello.config`.
        public var config: ScrollConfig
        public var source: FeedSource
        /// The server's message size limit (it appears in `too_large` errors).
        public var maxMessageBytes: Int
        /// The most items the session could hold (nil in traces recorded before the cap existed).
        public var itemCap: Int?
        /// The page a recorder captured, for a `record` session or a trace the recorder wrote itself.
        public var recorder: RecordingSource?
        /// For a fork: the parent trace and moment it continues from.
        public var fork: Fork?

        public init(
            session: String, server: String, config: ScrollConfig, source: FeedSource, maxMessageBytes: Int,
            itemCap: Int? = nil
        ) {
            self.format = Trace.formatVersion
            self.server = server
            self.session = session
            self.config = config
            self.source = source
            self.maxMessageBytes = maxMessageBytes
            self.itemCap = itemCap
        }
    }

    /// A fork's origin (header `fork`): its first lines replay the parent's up to `at`, then it went live.
    public struct Fork: Equatable, Sendable {
        /// The parent trace's name, as the page that forked it gave it.
        public var parent: String
        /// The parent's session id (its header's `session`).
        public var parentSession: String
        /// The moment, in milliseconds on the parent's clock; the fork's own lines continue that clock.
        public var at: Int64

        public init(parent: String, parentSession: String, at: Int64) {
            self.parent = parent
            self.parentSession = parentSession
            self.at = at
        }

        var json: JSONValue {
            ["parent": .string(parent), "parentSession": .string(parentSession), "at": .int(Int(at))]
        }
    }

    /// One line after the header. `t` is milliseconds on the server's monotonic clock.
    public enum Line: Equatable, Sendable {
        /// A text message as received: its bytes, compact JSON (or the raw text when it was not JSON).
        case input(t: Int64, text: [UInt8])
        /// A timer the core had scheduled fired.
        case timer(t: Int64, TimerID)
        /// The transport refused a frame.
        case violation(t: Int64, InboundViolationKind)
        /// The page's connection ended.
        case closed(t: Int64, code: Int?, resumable: Bool)
        /// A decision the server logged.
        case decision(t: Int64, LogEntry)

        /// When the line happened (milliseconds, the trace's clock).
        public var t: Int64 {
            switch self {
            case .input(let t, _), .timer(let t, _), .violation(let t, _), .closed(let t, _, _), .decision(let t, _): t
            }
        }
    }

    public var header: Header
    public var lines: [Line]
    /// The number of a last line that was cut off mid-write (the server was killed) and left out; nil when
    /// the trace ends cleanly.
    public var tornFinalLine: Int?

    public init(header: Header, lines: [Line], tornFinalLine: Int? = nil) {
        self.header = header
        self.lines = lines
        self.tornFinalLine = tornFinalLine
    }

    /// The decisions as recorded.
    public var recordedDecisions: [TimedDecision] {
        lines.compactMap { line in
            if case .decision(let t, let entry) = line { return TimedDecision(t: t, entry: entry) }
            return nil
        }
    }
}

/// A decision and when it was made.
public struct TimedDecision: Equatable, Sendable {
    public var t: Int64
    public var entry: LogEntry

    public init(t: Int64, entry: LogEntry) {
        self.t = t
        self.entry = entry
    }
}

/// Why a trace cannot be read: the 1-based line and what is wrong there.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

extension Trace.Header {
    /// Holds the header to a server's limits: a trace (a fork's parent) may lower them, never raise them. A
    /// header without `itemCap` gets the server's.
    public mutating func hold(toItemCap cap: Int, maxMessageBytes bytes: Int) {
        itemCap = min(itemCap ?? .max, cap)
        maxMessageBytes = min(maxMessageBytes, bytes)
    }
}

// MARK: Writing

extension Trace.Header {
    /// The header line.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "kind": "header", "format": .int(format), "server": .string(server), "session": .string(session),
            "preset": .string(config.rules.preset.rawValue), "config": config.recordedJSON,
            "seed": .number(Double(config.seed)),
            "maxMessageBytes": .int(maxMessageBytes),
        ]
        if let itemCap { members["itemCap"] = .int(itemCap) }
        if let recorder { members["recorder"] = recorder.json }
        if let fork { members["fork"] = fork.json }
        members["source"] = sourceJSON
        return .object(members)
    }

    /// The header line, with `extra` members the reader does not read back (``writtenOnly``: the server's
    /// `time`, `check`'s finding), ending in a newline.
    public func jsonLine(adding extra: [String: JSONValue] = [:]) -> [UInt8] {
        guard !extra.isEmpty, case .object(var members) = json else { return json.jsonBytes + [0x0A] }
        members.merge(extra) { own, _ in own }
        return JSONValue.object(members).jsonBytes + [0x0A]
    }
}

extension Trace {
    /// The trace as its file holds it: the header line (with `extra`, as ``Header/jsonLine(adding:)``), then
    /// one line per entry, each ending in a newline. Every writer of a whole trace writes it here.
    public func fileBytes(headerAdding extra: [String: JSONValue] = [:]) -> [UInt8] {
        var bytes = header.jsonLine(adding: extra)
        for line in lines { bytes += line.jsonLine }
        return bytes
    }

    /// ``fileBytes(headerAdding:)`` as text.
    public var jsonLines: String { String(decoding: fileBytes(), as: UTF8.self) }
}

extension Trace.Line {
    /// The line as JSON. The server writes inputs and decisions itself, around the bytes it received and
    /// logged (`TraceFile`); this form serves the other lines, forks, tests and tools.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue), "t": .int(Int(t))]
        switch self {
        case .input(_, let text):
            if let message = try? JSONParser.parse(text) {
                members["message"] = message
            } else {
                members["text"] = .string(String(decoding: text, as: UTF8.self))
            }
        case .timer(_, let timer):
            members["timer"] = .string(timer.description)
        case .violation(_, let kind):
            members["violation"] = .string(kind.rawValue)
        case .closed(_, let code, let resumable):
            members["code"] = code.map { .int($0) } ?? .null
            members["resumable"] = .bool(resumable)
        case .decision(_, let entry):
            var event: [String: JSONValue] = ["name": .string(entry.name.rawValue), "data": .object(entry.data)]
            if let geometrySeq = entry.geometrySeq { event["geometrySeq"] = .int(geometrySeq) }
            members["event"] = .object(event)
        }
        return .object(members)
    }

    /// ``json`` as a line of a trace file, ending in a newline.
    public var jsonLine: [UInt8] { json.jsonBytes + [0x0A] }
}

extension ScrollConfig {
    /// The settings as a trace records them: like ``json``, but `pullThreshold` only when it was set
    /// explicitly, so a replay under another preset still gets that preset's default.
    /// The retry policy likewise appears only when it was set explicitly.
    public var recordedJSON: JSONValue {
        guard case .object(var members) = json else { return json }
        if rules.explicitPullThreshold == nil { members["pullThreshold"] = nil }
        if rules.explicitRetryPolicy == nil { members["retryPolicy"] = nil }
        if explicitNewMessageEveryMs == nil { members["newMessageEveryMs"] = nil }
        return .object(members)
    }
}

// MARK: Reading

extension Trace {
    /// Reads a trace from its text, naming the line of the first problem.
    ///
    /// A last line without its newline that does not parse was cut off by a crash: it is left out and
    /// named in ``tornFinalLine``. Anywhere else, a bad line is an error.
    public static func parse(_ text: String) throws(TraceError) -> Trace {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let endsWithNewline = lines.last == ""
        if endsWithNewline { lines.removeLast() }
        guard !lines.isEmpty else { throw TraceError(line: 1, "empty file: expected a header line") }
        let header = try parseHeader(lines[0])
        var parsed: [Line] = []
        parsed.reserveCapacity(lines.count - 1)
        var previous: (t: Int64, number: Int)?
        for (offset, text) in lines.enumerated().dropFirst() {
            let line: Line
            do {
                line = try parseLine(text, number: offset + 1)
            } catch {
                let isTorn = !endsWithNewline && offset == lines.count - 1 && (try? JSONParser.parse(text)) == nil
                guard isTorn else { throw error }
                return Trace(header: header, lines: parsed, tornFinalLine: offset + 1)
            }
            // Every time a command prints is counted from an earlier line's, so a clock that goes back is refused
            // here, once, rather than printed as a negative span.
            if let previous, line.t < previous.t {
                throw TraceError(
                    line: offset + 1,
                    "\"t\" \(line.t) goes back (line \(previous.number) has \(previous.t)): t never goes back")
            }
            previous = (line.t, offset + 1)
            parsed.append(line)
        }
        return Trace(header: header, lines: parsed)
    }

    /// Reads a trace from its bytes: as ``parse(_:)``, once every line is known to be UTF-8. A byte that is
    /// not is refused with its line, never replaced; only a last line cut off mid-write (no newline after
    /// it) may end inside a character, and is then left out as ``parse(_:)`` leaves out a torn line.
    public static func parse(bytes: some Collection<UInt8>) throws(TraceError) -> Trace {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() where String(validating: line, as: UTF8.self) == nil {
            let isTorn = offset == lines.count - 1
            guard isTorn else { throw TraceError(line: offset + 1, "not UTF-8: a trace is UTF-8 text") }
        }
        return try parse(String(decoding: bytes, as: UTF8.self))
    }

    private static func object(_ text: String, number: Int) throws(TraceError) -> [String: JSONValue] {
        guard !text.isEmpty else { throw TraceError(line: number, "empty line") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw TraceError(line: number, "not JSON (truncated?): \(error)")
        }
        guard let members = value.object else { throw TraceError(line: number, "expected a JSON object") }
        return members
    }

    private static func parseHeader(_ text: String) throws(TraceError) -> Header {
        let members = try object(text, number: 1)
        guard members["kind"] == "header" else {
            throw TraceError(line: 1, "expected the header (\"kind\":\"header\")")
        }
        guard let format = members["format"]?.number else { throw TraceError(line: 1, "\"format\" must be a number") }
        if format > Double(formatVersion), format == format.rounded() {
            throw TraceError(
                line: 1,
                "made by a newer version: trace format \(format.formatted), and this version of scroll-playground "
                    + "reads format \(formatVersion); update scroll-playground to replay it")
        }
        guard format == Double(formatVersion) else {
            throw TraceError(
                line: 1, "unsupported trace format \(format.formatted) (this version reads \(formatVersion))")
        }
        guard let session = members["session"]?.string else {
            throw TraceError(line: 1, "\"session\" must be a string")
        }
        guard let server = members["server"]?.string else { throw TraceError(line: 1, "\"server\" must be a string") }
        guard let fields = members["config"]?.object else { throw TraceError(line: 1, "\"config\" must be an object") }
        var config = ScrollConfig()
        // Traces from before the `physics` setting were recorded on the browser's scrolling.
        config.physics = .browser
        do {
            // Readers ignore what they do not know, settings of a newer server included.
            try config.apply(fields.filter { ScrollConfig.settingNames.contains($0.key) })
        } catch {
            throw TraceError(line: 1, "config: \(error)")
        }
        let source: FeedSource
        switch members["source"] {
        case "synthetic"?, nil:
            source = .synthetic
        case .object(let sourceFields)?:
            guard let items = sourceFields["items"] else {
                throw TraceError(line: 1, "\"source\" must be \"synthetic\" or {\"items\":[…]}")
            }
            do {
                source = try FeedSource.parseList(items.jsonBytes)
            } catch {
                throw TraceError(line: 1, "source: \(error)")
            }
        default:
            throw TraceError(line: 1, "\"source\" must be \"synthetic\" or {\"items\":[…]}")
        }
        var maxMessageBytes = 64 * 1024
        if let value = members["maxMessageBytes"] {
            maxMessageBytes = try integer(value, "maxMessageBytes", line: 1, in: 1...Double.largestExactInteger)
        }
        var itemCap: Int?
        if let value = members["itemCap"] {
            itemCap = try integer(value, "itemCap", line: 1, in: 0...Double.largestExactInteger)
        }
        var header = Header(
            session: session, server: server, config: config, source: source, maxMessageBytes: maxMessageBytes,
            itemCap: itemCap)
        header.format = formatVersion
        if let value = members["recorder"] {
            guard let fields = value.object, let page = fields["page"]?.string else {
                throw TraceError(line: 1, "\"recorder\" must be an object with a \"page\" string")
            }
            var recorder = RecordingSource(page: page)
            if let name = fields["name"], name != .null {
                guard let text = name.string else { throw TraceError(line: 1, "\"recorder.name\" must be a string") }
                recorder.name = text
            }
            header.recorder = recorder
        }
        if let value = members["fork"] {
            guard let fields = value.object, let parent = fields["parent"]?.string,
                let parentSession = fields["parentSession"]?.string, let at = fields["at"]
            else {
                throw TraceError(
                    line: 1, "\"fork\" must be {\"parent\": string, \"parentSession\": string, \"at\": integer ≥ 0}")
            }
            let moment = try integer(at, "fork.at", line: 1, in: 0...Double.largestExactInteger)
            header.fork = Fork(parent: parent, parentSession: parentSession, at: Int64(moment))
        }
        return header
    }

    /// A field that must be an integer within `range`; anything else (a fraction, `1e300`, a string) is an
    /// error naming the line and the field.
    private static func integer(
        _ value: JSONValue?, _ field: String, line: Int, in range: ClosedRange<Int>, unit: String? = nil,
        orNull: Bool = false
    ) throws(TraceError) -> Int {
        guard let integer = value?.number?.exactInteger, range.contains(integer) else {
            let bounds =
                range.upperBound == Double.largestExactInteger
                ? "≥ \(range.lowerBound)" : "in \(range.lowerBound)…\(range.upperBound)"
            throw TraceError(
                line: line,
                "\"\(field)\" must be an integer \(bounds)\(unit.map { " (\($0))" } ?? "")\(orNull ? " or null" : "")")
        }
        return integer
    }

    private static func parseLine(_ text: String, number: Int) throws(TraceError) -> Line {
        let members = try object(text, number: number)
        guard let kindName = members["kind"]?.string else {
            throw TraceError(line: number, "\"kind\" must be a string")
        }
        let t = Int64(
            try integer(members["t"], "t", line: number, in: 0...Double.largestExactInteger, unit: "milliseconds"))
        guard let kind = LineKind(rawValue: kindName) else {
            throw TraceError(line: number, "unknown line kind \"\(kindName)\"")
        }
        switch kind {
        case .input:
            if let message = members["message"] {
                return .input(t: t, text: message.jsonBytes)
            }
            guard let raw = members["text"]?.string else {
                throw TraceError(line: number, "an input needs \"message\" (an object) or \"text\" (a string)")
            }
            return .input(t: t, text: Array(raw.utf8))
        case .timer:
            guard let name = members["timer"]?.string, let timer = TimerID(name) else {
                throw TraceError(line: number, "\"timer\" must name a timer (e.g. \"pageLoad-3\")")
            }
            return .timer(t: t, timer)
        case .violation:
            guard let name = members["violation"]?.string, let kind = InboundViolationKind(rawValue: name) else {
                throw TraceError(
                    line: number,
                    "\"violation\" must be one of \(InboundViolationKind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return .violation(t: t, kind)
        case .closed:
            let code: Int?
            switch members["code"] {
            case nil, .null?: code = nil
            case let value?: code = try integer(value, "code", line: number, in: 0...65_535, orNull: true)
            }
            guard let resumable = (members["resumable"] ?? .bool(true)).bool else {
                throw TraceError(line: number, "\"resumable\" must be true or false")
            }
            return .closed(t: t, code: code, resumable: resumable)
        case .decision:
            guard let event = members["event"]?.object else {
                throw TraceError(line: number, "\"event\" must be an object")
            }
            guard let nameText = event["name"]?.string, let name = EventName(rawValue: nameText) else {
                throw TraceError(line: number, "\"event.name\" must be an event name")
            }
            var geometrySeq: Int?
            if let value = event["geometrySeq"] {
                geometrySeq = try integer(value, "event.geometrySeq", line: number, in: 0...Double.largestExactInteger)
            }
            guard let data = (event["data"] ?? .object([:])).object else {
                throw TraceError(line: number, "\"event.data\" must be an object")
            }
            return .decision(t: t, LogEntry(name, geometrySeq: geometrySeq, data))
        }
    }
}

extension Double {
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

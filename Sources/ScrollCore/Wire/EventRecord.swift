/// An event as the core decides it: the server adds `seq`, `time` and `session`.
public struct LogEntry: Equatable, Sendable {
    public var name: EventName
    /// The geometry that caused it, if one did.
    public var geometrySeq: Int?
    public var data: [String: JSONValue]

    public init(_ name: EventName, geometrySeq: Int? = nil, _ data: [String: JSONValue] = [:]) {
        self.name = name
        self.geometrySeq = geometrySeq
        self.data = data
    }
}

/// A complete event record.
public struct EventRecord: Equatable, Sendable {
    /// Increases across the whole server.
    public var seq: Int
    /// ISO-8601 with milliseconds.
    public var time: String
    public var session: String
    public var entry: LogEntry

    public init(seq: Int, time: String, session: String, entry: LogEntry) {
        self.seq = seq
        self.time = time
        self.session = session
        self.entry = entry
    }
}

/// A message from the page to the server.
public enum ClientMessage: Equatable, Sendable {
    /// The first message: opens or resumes a session.
    case hello(Hello)
    /// The page's scroll geometry for one animation frame.
    case geometry(GeometryReport)
    /// A partial settings update, applied at once (camelCase names; an unknown name refuses the whole message).
    case config([String: JSONValue])
    /// Refresh now, under the same guards as a pull.
    case refresh
    /// Load the next page now, under the same guards as reaching the bottom.
    case loadMore
    /// Load the previous (older) page now, under the same guards as reaching the top.
    case loadPrevious
    /// Back to the initial items.
    case reset
    /// Scroll to an item, loading the window around it first when needed.
    case jump(JumpRequest)
    /// Round-trip probe; answered with `pong` carrying the same id.
    case ping(id: JSONValue)
}

extension ClientMessage {
    /// The `type` of each message a page may send: what the decoder knows (docs/protocol.md lists them all).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case hello, geometry, config, refresh, loadMore, loadPrevious, reset, jump, ping
    }

    /// This message's `type`.
    public var kind: Kind {
        switch self {
        case .hello: .hello
        case .geometry: .geometry
        case .config: .config
        case .refresh: .refresh
        case .loadMore: .loadMore
        case .loadPrevious: .loadPrevious
        case .reset: .reset
        case .jump: .jump
        case .ping: .ping
        }
    }
}

/// The `hello` message.
public struct Hello: Equatable, Sendable {
    /// Protocol version the page speaks.
    public var version: Int
    /// Settings for the new session, `preset` among them (camelCase names).
    public var config: [String: JSONValue]
    /// A resume token from an earlier `welcome`.
    public var resume: String?
    /// The `resume` of the input a fork's trace records where its page takes the rebuilt session over.
    public static let forkTakeover = "fork"
    /// The last items `rev` the page rendered.
    public var lastRev: Int?
    /// A `record` session: geometry from a page the recorder (`/recorder.js`) is attached to.
    public var record: RecordingSource?
    /// A fork: a new session rebuilt from a parent trace (sent before in `forkTrace` messages) up to a moment.
    public var fork: ForkRequest?

    public init(
        version: Int = 1, config: [String: JSONValue] = [:], resume: String? = nil, lastRev: Int? = nil,
        record: RecordingSource? = nil, fork: ForkRequest? = nil
    ) {
        self.version = version
        self.config = config
        self.resume = resume
        self.lastRev = lastRev
        self.record = record
        self.fork = fork
    }
}

/// The `geometry` message: one frame's `FeedGeometry` and phase.
public struct GeometryReport: Equatable, Sendable, Codable {
    /// The page's sequence number, echoed as `state.ack`.
    public var seq: Int
    /// The page's clock in ms (any epoch).
    public var t: Double
    public var geometry: FeedGeometry
    public var phase: FeedScrollPhase
    /// The first visible item and its distance from the viewport's top, when the page can tell.
    public var anchor: ItemAnchor?
    /// The items `rev` the page had rendered when it measured, when it says.
    public var rev: Int?

    public init(
        seq: Int, t: Double = 0, geometry: FeedGeometry, phase: FeedScrollPhase = .idle, anchor: ItemAnchor? = nil,
        rev: Int? = nil
    ) {
        self.seq = seq
        self.t = t
        self.geometry = geometry
        self.phase = phase
        self.anchor = anchor
        self.rev = rev
    }

    private enum CodingKeys: String, CodingKey {
        case type, seq, t, contentOffset, contentSize, containerSize, contentInsets, phase, anchor, rev
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        t = try container.decode(Double.self, forKey: .t)
        geometry = FeedGeometry(
            contentOffset: try container.decode(ScrollPoint.self, forKey: .contentOffset),
            contentSize: try container.decode(ScrollSize.self, forKey: .contentSize),
            containerSize: try container.decode(ScrollSize.self, forKey: .containerSize),
            contentInsets: try container.decodeIfPresent(ScrollInsets.self, forKey: .contentInsets) ?? .zero)
        phase = try container.decode(FeedScrollPhase.self, forKey: .phase)
        anchor = try container.decodeIfPresent(ItemAnchor.self, forKey: .anchor)
        rev = try container.decodeIfPresent(Int.self, forKey: .rev)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("geometry", forKey: .type)
        try container.encode(seq, forKey: .seq)
        try container.encode(t, forKey: .t)
        try container.encode(geometry.contentOffset, forKey: .contentOffset)
        try container.encode(geometry.contentSize, forKey: .contentSize)
        try container.encode(geometry.containerSize, forKey: .containerSize)
        try container.encode(geometry.contentInsets, forKey: .contentInsets)
        try container.encode(phase, forKey: .phase)
        try container.encodeIfPresent(anchor, forKey: .anchor)
        try container.encodeIfPresent(rev, forKey: .rev)
    }
}

/// The item under the top of the viewport (`geometry.anchor`): what the user sees, so a prepend can be
/// checked for moving it.
public struct ItemAnchor: Equatable, Sendable, Codable {
    /// The item's id (at most 100 bytes).
    public var id: String
    /// Its top edge's distance from the viewport's top, px (negative when it starts above).
    public var offset: Double

    public init(id: String, offset: Double) {
        self.id = id
        self.offset = offset
    }

    /// The longest id the server reads.
    public static let maxIDBytes = 100
}

/// The error codes of `error` messages and `protocolError` events.
public enum ErrorCode: String, Equatable, Sendable, CaseIterable {
    /// The text is not JSON.
    case badJSON = "bad_json"
    /// JSON, but a field is missing or has the wrong type or value (the message names it).
    case badMessage = "bad_message"
    /// The `type` is not one the server knows.
    case unknownType = "unknown_type"
    /// The message exceeds the size limit; the connection closes with 1009.
    case tooLarge = "too_large"
    /// Too many messages; some were coalesced.
    case rateLimited = "rate_limited"
    /// A message that needs a session arrived before `hello`, or `hello` did not come in time.
    case notReady = "not_ready"
    /// The connection sent too many messages that were refused; it closes with 1008.
    case tooManyErrors = "too_many_errors"
    /// The server holds as many sessions as it may; the connection closes with 1013.
    case serverFull = "server_full"
    /// A `jump` names an item the feed does not have (or the session cannot reach); nothing changed.
    case unknownItem = "unknown_item"
}

/// A refused message: the `error` reply's code, message, the geometry `seq` it refers to and, for a
/// setting the server cannot apply, the setting's name (so the page can show the error beside its field).
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    public var ref: Int?
    /// The setting (its camelCase name) a refused `config` or `hello.config` failed on.
    public var field: String?

    public init(_ code: ErrorCode, _ message: String, ref: Int? = nil, field: String? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
        self.field = field
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension ClientMessage {
    /// Decodes one text frame from any bytes (copied into an array first).
    @_disfavoredOverload
    public static func decode(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> ClientMessage {
        try decode(Array(bytes))
    }

    /// Decodes one text frame, mapping every failure to its error code.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        // The geometry of every frame: in the page's exact shape, else in any order, else the general way.
        let report = bytes.withUnsafeBufferPointer {
            JSONParser.parseFixedGeometryMessage($0) ?? JSONParser.parseGeometryMessage($0)
        }
        if let report { return .geometry(report) }
        return try decodeGenerally(bytes)
    }

    /// The general decoder: every message, every failure named. The geometry fast paths must agree with it.
    static func decodeGenerally(_ bytes: [UInt8]) throws(ProtocolError) -> ClientMessage {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ProtocolError(.badJSON, "not JSON: \(error)")
        }
        guard let fields = document.object else { throw ProtocolError(.badMessage, "a message must be a JSON object") }
        guard let typeValue = fields["type"] else { throw ProtocolError(.badMessage, "missing field \"type\"") }
        guard let type = typeValue.string else { throw ProtocolError(.badMessage, "field \"type\" must be a string") }
        guard let kind = Kind(rawValue: type) else {
            throw ProtocolError(.unknownType, "unknown message type \"\(ClientText.excerpt(type))\"")
        }
        var reader = FieldReader(fields: fields)
        switch kind {
        case .hello:
            return .hello(try reader.hello())
        case .geometry:
            return .geometry(try reader.geometry())
        case .config:
            var settings = fields
            settings["type"] = nil
            return .config(settings)
        case .refresh: return .refresh
        case .loadMore: return .loadMore
        case .loadPrevious: return .loadPrevious
        case .reset: return .reset
        case .jump:
            return .jump(try reader.jump())
        case .ping:
            return .ping(id: fields["id"] ?? .null)
        }
    }
}

/// Reads typed fields out of a decoded message, naming the field in every failure.
private struct FieldReader {
    let fields: [String: JSONValue]
    var ref: Int? = nil

    func missing(_ path: String) -> ProtocolError {
        ProtocolError(.badMessage, "missing field \"\(path)\"", ref: ref)
    }

    func wrong(_ path: String, _ expected: String) -> ProtocolError {
        ProtocolError(.badMessage, "field \"\(path)\" must be \(expected)", ref: ref)
    }

    func number(_ value: JSONValue?, _ path: String) throws(ProtocolError) -> Double {
        guard let value else { throw missing(path) }
        guard let number = value.number else { throw wrong(path, "a number") }
        return number
    }

    func integer(_ value: JSONValue?, _ path: String) throws(ProtocolError) -> Int {
        let number = try self.number(value, path)
        guard number == number.rounded(), number >= 0, number < 9_007_199_254_740_992 else {
            throw wrong(path, "a non-negative integer")
        }
        return Int(number)
    }

    /// A non-empty string of at most `maxBytes` bytes of UTF-8.
    func text(_ value: JSONValue?, _ path: String, maxBytes: Int) throws(ProtocolError) -> String {
        guard let value else { throw missing(path) }
        guard let string = value.string, !string.isEmpty else { throw wrong(path, "a non-empty string") }
        guard string.utf8.count <= maxBytes else { throw wrong(path, "at most \(maxBytes) bytes") }
        return string
    }

    func object(_ name: String, optional: Bool = false) throws(ProtocolError) -> [String: JSONValue]? {
        guard let value = fields[name] else {
            if optional { return nil }
            throw missing(name)
        }
        guard let object = value.object else { throw wrong(name, "an object") }
        return object
    }

    func point(_ name: String) throws(ProtocolError) -> ScrollPoint {
        let members = try object(name)!
        return ScrollPoint(x: try number(members["x"], "\(name).x"), y: try number(members["y"], "\(name).y"))
    }

    func size(_ name: String) throws(ProtocolError) -> ScrollSize {
        let members = try object(name)!
        let size = ScrollSize(
            width: try number(members["width"], "\(name).width"),
            height: try number(members["height"], "\(name).height"))
        guard size.width >= 0 else { throw wrong("\(name).width", "≥ 0") }
        guard size.height >= 0 else { throw wrong("\(name).height", "≥ 0") }
        return size
    }

    func insets(_ name: String) throws(ProtocolError) -> ScrollInsets {
        guard let members = try object(name, optional: true) else { return .zero }
        func edge(_ key: String) throws(ProtocolError) -> Double {
            guard let value = members[key] else { return 0 }
            return try number(value, "\(name).\(key)")
        }
        return ScrollInsets(
            top: try edge("top"), leading: try edge("leading"), bottom: try edge("bottom"),
            trailing: try edge("trailing"))
    }

    mutating func geometry() throws(ProtocolError) -> GeometryReport {
        let seq = try integer(fields["seq"], "seq")
        ref = seq
        let t = try number(fields["t"], "t")
        let geometry = FeedGeometry(
            contentOffset: try point("contentOffset"), contentSize: try size("contentSize"),
            containerSize: try size("containerSize"), contentInsets: try insets("contentInsets"))
        guard let phaseValue = fields["phase"] else { throw missing("phase") }
        guard let name = phaseValue.string, let phase = FeedScrollPhase(rawValue: name) else {
            throw wrong("phase", "one of \(FeedScrollPhase.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var anchor: ItemAnchor?
        if fields["anchor"] != .null, let members = try object("anchor", optional: true) {
            anchor = ItemAnchor(
                id: try text(members["id"], "anchor.id", maxBytes: ItemAnchor.maxIDBytes),
                offset: try number(members["offset"], "anchor.offset"))
        }
        var rev: Int?
        if let value = fields["rev"], value != .null { rev = try integer(value, "rev") }
        return GeometryReport(seq: seq, t: t, geometry: geometry, phase: phase, anchor: anchor, rev: rev)
    }

    func jump() throws(ProtocolError) -> JumpRequest {
        let id = try text(fields["id"], "id", maxBytes: JumpRequest.maxIDBytes)
        guard let value = fields["anchor"], value != .null else { return JumpRequest(id: id) }
        guard let name = value.string, let anchor = JumpAnchor(rawValue: name) else {
            throw wrong("anchor", "one of \(JumpAnchor.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return JumpRequest(id: id, anchor: anchor)
    }

    func hello() throws(ProtocolError) -> Hello {
        var hello = Hello()
        if let version = fields["version"] {
            hello.version = try integer(version, "version")
            guard hello.version == 1 else { throw wrong("version", "1") }
        }
        hello.config = try object("config", optional: true) ?? [:]
        if let preset = fields["preset"] {
            hello.config["preset"] = preset
        }
        if let resume = fields["resume"], resume != .null {
            guard let token = resume.string else { throw wrong("resume", "a string") }
            hello.resume = token
        }
        if let lastRev = fields["lastRev"], lastRev != .null {
            hello.lastRev = try integer(lastRev, "lastRev")
        }
        if let record = try object("record", optional: true) {
            var source = RecordingSource(
                page: try text(record["page"], "record.page", maxBytes: RecordingSource.maxPageBytes))
            if let name = record["name"], name != .null {
                source.name = try text(name, "record.name", maxBytes: RecordingSource.maxNameBytes)
            }
            hello.record = source
        }
        if let fork = try object("fork", optional: true) {
            hello.fork = ForkRequest(
                parent: try text(fork["parent"], "fork.parent", maxBytes: ForkRequest.maxParentBytes),
                at: Int64(try integer(fork["at"], "fork.at")))
        }
        if hello.fork != nil, hello.resume != nil || hello.record != nil {
            throw ProtocolError(.badMessage, "a fork opens a new session: it cannot also resume or record")
        }
        return hello
    }
}

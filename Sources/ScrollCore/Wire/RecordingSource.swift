/// The page a `record` session's geometry comes from (`hello.record`, and a trace header's `recorder`):
/// the recorder (`/recorder.js`) attached to a scroll container of someone's own app.
public struct RecordingSource: Equatable, Sendable {
    /// The most bytes of `page` a hello may send.
    public static let maxPageBytes = 2048
    /// The most bytes of `name` a hello may send.
    public static let maxNameBytes = 200

    /// The page's URL (`location.href`), informational.
    public var page: String
    /// The name the developer gave the recording (`record(element, {name})`), if any.
    public var name: String?

    public init(page: String, name: String? = nil) {
        self.page = page
        self.name = name
    }

    /// As a trace header's `recorder` field.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["page": .string(page)]
        if let name { members["name"] = .string(name) }
        return .object(members)
    }
}

/// `hello.fork`: continue a parent trace live from one of its moments, as a new session.
public struct ForkRequest: Equatable, Sendable {
    /// The most bytes of `parent` a hello may send.
    public static let maxParentBytes = 200

    /// The parent trace's name (its file name), recorded in the fork's header.
    public var parent: String
    /// The moment, in milliseconds on the parent trace's clock (its lines' `t`): every line at or before it
    /// is replayed.
    public var at: Int64

    public init(parent: String, at: Int64) {
        self.parent = parent
        self.at = at
    }
}

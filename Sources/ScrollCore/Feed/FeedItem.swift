/// One row of the feed, as the server sends it.
public struct FeedItem: Equatable, Hashable, Sendable {
    /// Unique within the session.
    public var id: String
    public var title: String
    public var subtitle: String?
    /// The row's height in px, when the feed prescribes one.
    public var height: Double?
    /// Any other fields of an `--items` file entry, passed through untouched.
    public var extra: [String: JSONValue]

    public init(
        id: String, title: String, subtitle: String? = nil, height: Double? = nil, extra: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.height = height
        self.extra = extra
    }

    /// The item as a JSON object.
    public var json: JSONValue {
        var members = extra
        members["id"] = .string(id)
        members["title"] = .string(title)
        if let subtitle { members["subtitle"] = .string(subtitle) }
        if let height { members["height"] = .number(height) }
        return .object(members)
    }
}

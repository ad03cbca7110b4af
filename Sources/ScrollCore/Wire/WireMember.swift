/// One member of a wire message, declared once: where it sits in the message's JSON object, where it is kept in
/// the Swift value, and how to read and set it. A message's list of members is what its encoders and decoders,
/// general and fast, are checked against (`WireDeclarationTests`): every member, given a value of its own, must
/// come back unchanged through every path, and the list must name everything the value keeps.
struct WireMember<Message>: Sendable {
    /// The member's path in the JSON object, outermost first (`["contentOffset", "x"]`).
    let path: [String]
    /// Where the value keeps it, as its `Mirror` names the stored properties (`geometry.contentOffset.x`).
    let storage: String
    /// A value for the round trip that no other member of the message has.
    let sample: JSONValue
    /// Reads the member from a message; nil when the message leaves it out.
    let read: @Sendable (Message) -> JSONValue?
    /// Sets the member in a message.
    let write: @Sendable (inout Message, JSONValue) -> Void

    init(
        _ path: [String], storage: String, sample: JSONValue, read: @escaping @Sendable (Message) -> JSONValue?,
        write: @escaping @Sendable (inout Message, JSONValue) -> Void
    ) {
        self.path = path
        self.storage = storage
        self.sample = sample
        self.read = read
        self.write = write
    }

    /// A number kept at `key`.
    static func number(
        _ path: [String], _ key: WritableKeyPath<Message, Double> & Sendable, storage: String, sample: Double
    ) -> Self {
        Self(
            path, storage: storage, sample: .number(sample), read: { .number($0[keyPath: key]) },
            write: { $0[keyPath: key] = $1.number ?? 0 })
    }

    /// An integer kept at `key`.
    static func integer(
        _ path: [String], _ key: WritableKeyPath<Message, Int> & Sendable, storage: String, sample: Int
    ) -> Self {
        Self(
            path, storage: storage, sample: .int(sample), read: { .int($0[keyPath: key]) },
            write: { $0[keyPath: key] = $1.number.flatMap { Int(exactly: $0) } ?? 0 })
    }
}

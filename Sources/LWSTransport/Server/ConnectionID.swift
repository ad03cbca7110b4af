/// Identifies one WebSocket connection for the lifetime of a ``WebServer``; never reused.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    /// The number the server assigned, counting up from 1.
    public let rawValue: UInt64

    /// Wraps a raw connection number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "c\(rawValue)" }
}

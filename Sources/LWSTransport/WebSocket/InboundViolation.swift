/// Why the transport refused an inbound WebSocket message before the delegate saw it.
public enum InboundViolation: Sendable, Equatable {
    /// The message grew past ``WebServerConfiguration/maxMessageBytes``; the connection closes with 1009.
    case tooLarge
    /// A binary frame arrived; the protocol is text-only, so the connection closes with 1003.
    case binary

    /// The WebSocket close code the transport sends after the violation.
    public var closeCode: UInt16 {
        switch self {
        case .tooLarge: 1009
        case .binary: 1003
        }
    }

    /// The close reason text sent with ``closeCode``.
    public var closeReason: String {
        switch self {
        case .tooLarge: "message too large"
        case .binary: "binary frames are not supported"
        }
    }
}

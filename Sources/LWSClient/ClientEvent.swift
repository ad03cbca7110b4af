/// Identifies one connection of a ``WebSocketClientContext``.
public struct ClientConnectionID: Hashable, Sendable, CustomStringConvertible {
    /// The number the context assigned, counting up from 1.
    public let rawValue: UInt64

    public var description: String { "client-\(rawValue)" }
}

/// What happened on a client WebSocket.
public enum ClientEvent: Sendable, Equatable {
    /// The handshake completed; `subprotocol` is the one the server selected (nil for none).
    case opened(subprotocol: String?)
    /// A whole text message.
    case text(String)
    /// A whole binary message.
    case binary([UInt8])
    /// The connection ended: the close code received from the server (or the one this side sent
    /// when it closed first), nil when it dropped without a closing handshake.
    case closed(code: UInt16?)
    /// The connection could not be opened.
    case failed(ClientError)
}

/// Why a client connection failed or an operation on it was refused.
public enum ClientError: Error, Sendable, Equatable {
    /// The server answered the upgrade with this HTTP status instead of 101 (0 if unknown).
    case handshakeFailed(status: Int)
    /// The TCP connection or the handshake failed; lws's description.
    case connectionFailed(String)
    /// The operation did not complete before its deadline.
    case timedOut
    /// The connection is closed (or never opened).
    case notOpen
    /// The client context could not be created or has been shut down.
    case contextUnavailable
}

/// A message from the server to the page.
public enum ServerMessage: Equatable, Sendable {
    /// The session is open: its id, resume token, settings, the presets on offer (what each has and does)
    /// and the event catalog (every event kind with its category); `recordingStopped` says why the server does
    /// not record it (its log folder is full), if it does not. (Boxed: once a session, and as large as its
    /// settings; unboxed it would make every message, and every effect, that large.)
    indirect case welcome(session: String, resume: String, config: ScrollConfig, recordingStopped: String? = nil)
    /// Items changed.
    case items(ItemsMessage)
    /// The authoritative scroll state.
    case state(StateMessage)
    /// One event record, live.
    case event(EventRecord)
    /// Something the page must do, e.g. `scrollToTop`.
    case command(name: String)
    /// The command `scrollToItem`: scroll so the item sits at the anchor (a `jump`); the page measures its
    /// rows and places it exactly, once it holds the item (the `items` that follow may bring it).
    case scrollToItem(id: String, anchor: JumpAnchor)
    /// A refused message.
    case error(ProtocolError)
    /// The answer to `ping`.
    case pong(id: JSONValue)

    /// The `type` of each message the server sends: what the encoder knows (docs/protocol.md lists them all).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case welcome, items, state, event, command, error, pong
    }

    /// This message's `type`.
    public var kind: Kind {
        switch self {
        case .welcome: .welcome
        case .items: .items
        case .state: .state
        case .event: .event
        case .command, .scrollToItem: .command
        case .error: .error
        case .pong: .pong
        }
    }

    /// Messages with the same key may replace each other in a backed-up send queue (only the newest
    /// `state` matters); nil means the message must never be dropped.
    public var coalescingKey: String? {
        if case .state = self { return "state" }
        return nil
    }

    /// The same message telling the page that its session is not recorded, or no longer (`welcome` and
    /// `state` carry the reason; other messages are unchanged). Only the server knows this, not the core.
    public func noting(recordingStopped reason: String) -> ServerMessage {
        switch self {
        case .welcome(let session, let resume, let config, _):
            return .welcome(session: session, resume: resume, config: config, recordingStopped: reason)
        case .state(var message):
            message.recordingStopped = reason
            return .state(message)
        case .items, .event, .command, .scrollToItem, .error, .pong:
            return self
        }
    }
}

/// One open WebSocket on the server: where its closing handshake stands, the message being received, and
/// its queued messages (``output``, which only ``LWSWriteGate`` reads or writes).
final class LWSServerConnection {
    /// Where the connection stands, from open to lws closing it (`LWS_CALLBACK_CLOSED`, when it leaves the
    /// server's table).
    enum State: Equatable {
        /// Messages go both ways.
        case open
        /// The server asked to close: what is queued goes out first, then the close frame with `code`.
        /// `reading`: the client's messages are still delivered meanwhile (after the outbound queue overflowed,
        /// so that what they cause is delivered when the client resumes).
        case closing(code: UInt16, reason: String, reading: Bool)
        /// The server's close frame with `code` is handed to lws, which waits for the peer's (or closes now, when
        /// the server failed the connection for a violation). `reading` as in ``closing(code:reason:reading:)``.
        case closeSent(code: UInt16, reading: Bool)
        /// The peer sent a close frame before the server closed; lws echoes it, then closes. `code`: the
        /// peer's, or else the server's own if it had asked to close first.
        case peerClosed(code: UInt16?)
        /// The server dropped the connection after a failed write; lws closes it on its next pass. `code`:
        /// the server's close, if it had asked for one.
        case dropped(code: UInt16?)

        /// The close code the connection reports when it closes: the peer's if it gave one, else the server's.
        var closeCode: UInt16? {
            switch self {
            case .open: nil
            case .closing(let code, _, _), .closeSent(let code, _): code
            case .peerClosed(let code), .dropped(let code): code
            }
        }

        /// Whether the server's close frame is still to go out, after the queue.
        var closeIsPending: Bool {
            if case .closing = self { true } else { false }
        }

        /// Whether a message the client sends now reaches the delegate.
        var deliversMessages: Bool {
            switch self {
            case .open: true
            case .closing(_, _, let reading), .closeSent(_, let reading): reading
            case .peerClosed, .dropped: false
            }
        }

        /// Stops delivering the client's messages (a violation while closing after an overflow).
        mutating func stopDelivering() {
            switch self {
            case .closing(let code, let reason, true): self = .closing(code: code, reason: reason, reading: false)
            case .closeSent(let code, true): self = .closeSent(code: code, reading: false)
            default: break
            }
        }

        /// Whether an answer may be written now: the server has not asked to close (its close frame goes out
        /// after the queue, on WRITEABLE) and no write has failed.
        var takesAnswers: Bool {
            switch self {
            case .open, .peerClosed: true
            case .closing, .closeSent, .dropped: false
            }
        }
    }

    let id: ConnectionID
    // Valid until LWS_CALLBACK_CLOSED, when the connection leaves the table.
    let wsi: OpaquePointer
    var state = State.open
    /// The queued messages and when they are written; only ``LWSWriteGate`` can reach inside.
    var output = LWSWriteGate.Output()
    /// The pieces of the message being received.
    var inbound: [UInt8] = []
    /// Drops the connection if the close frame cannot be written in time.
    var closeTimer: TimerHandle?
    /// When lws last counted the connection as alive (opened, or a pong): its dead-peer hangup comes
    /// `hangupSeconds` after this.
    var lastPong = ContinuousClock.now

    init(id: ConnectionID, wsi: OpaquePointer) {
        self.id = id
        self.wsi = wsi
    }
}

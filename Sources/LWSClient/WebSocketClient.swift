import LWSTransport
import SystemCalls

/// One WebSocket client connection with a blocking API, for tests: every wait is bounded.
public final class WebSocketClient: Sendable {
    private struct Mailbox {
        var events: [ClientEvent] = []
        var head = 0
        var closed: ClientEvent?
    }

    private let context: WebSocketClientContext
    private let id: ClientConnectionID
    private let mailbox: Monitor<Mailbox>

    /// The subprotocol the server selected (nil for none).
    public let subprotocol: String?

    private init(
        context: WebSocketClientContext, id: ClientConnectionID, mailbox: Monitor<Mailbox>, subprotocol: String?
    ) {
        self.context = context
        self.id = id
        self.mailbox = mailbox
        self.subprotocol = subprotocol
    }

    deinit {
        context.shutdown()
    }

    /// Connects and waits for the handshake. `subprotocol` nil sends no `Sec-WebSocket-Protocol`.
    /// - Throws: ``ClientError`` — `.handshakeFailed(status:)` when the server refuses the upgrade
    ///   (e.g. 403), `.connectionFailed`, or `.timedOut`.
    public static func connect(
        host: String = "127.0.0.1",
        port: Int,
        path: String = "/ws",
        subprotocol: String? = nil,
        origin: String? = nil,
        timeout: Duration = .seconds(5)
    ) throws -> WebSocketClient {
        let context = try WebSocketClientContext()
        let mailbox = Monitor(Mailbox())
        let id = context.connect(host: host, port: port, path: path, subprotocol: subprotocol, origin: origin) {
            _, event in
            mailbox.update { mailbox in
                if case .closed = event { mailbox.closed = event }
                mailbox.events.append(event)
            }
        }
        let first = mailbox.wait(timeout: timeout) { mailbox -> ClientEvent? in
            guard mailbox.head < mailbox.events.count else { return nil }
            defer { mailbox.head += 1 }
            return mailbox.events[mailbox.head]
        }
        switch first {
        case .opened(let subprotocol):
            return WebSocketClient(context: context, id: id, mailbox: mailbox, subprotocol: subprotocol)
        case .failed(let error):
            context.shutdown()
            throw error
        case nil:
            context.shutdown()
            throw ClientError.timedOut
        default:
            context.shutdown()
            throw ClientError.notOpen
        }
    }

    /// Sends a text message.
    /// - Throws: ``ClientError/notOpen`` once the connection has closed.
    public func send(_ text: String) throws {
        try send(text: Array(text.utf8))
    }

    /// Sends raw bytes as a text message (they need not be valid UTF-8).
    public func send(text bytes: [UInt8]) throws {
        try ensureOpen()
        context.send(bytes, to: id)
    }

    /// Sends a binary message.
    public func sendBinary(_ bytes: [UInt8]) throws {
        try ensureOpen()
        context.sendBinary(bytes, to: id)
    }

    /// The next `.text`, `.binary` or `.closed` event, or nil if none arrives within `timeout`.
    /// After the close, every call returns the `.closed` event again.
    public func receive(timeout: Duration = .seconds(5)) -> ClientEvent? {
        mailbox.wait(timeout: timeout) { mailbox -> ClientEvent? in
            if mailbox.head < mailbox.events.count {
                defer { mailbox.head += 1 }
                return mailbox.events[mailbox.head]
            }
            return mailbox.closed
        }
    }

    /// Skips messages until the connection closes; its close code, or nil on a drop. Throws
    /// ``ClientError/timedOut`` if it is still open after `timeout`.
    public func waitForClose(timeout: Duration = .seconds(5)) throws -> UInt16? {
        let closed = mailbox.wait(timeout: timeout) { $0.closed }
        guard case .closed(let code) = closed else { throw ClientError.timedOut }
        return code
    }

    /// Starts the closing handshake with `code` (after queued messages); see ``waitForClose(timeout:)``.
    public func close(code: UInt16 = 1000, reason: String = "") {
        context.close(id, code: code, reason: reason)
    }

    /// Closes the TCP connection without a close frame (the server sees an abrupt drop).
    public func drop() {
        context.drop(id)
    }

    private func ensureOpen() throws {
        if mailbox.update({ $0.closed != nil }) { throw ClientError.notOpen }
    }
}

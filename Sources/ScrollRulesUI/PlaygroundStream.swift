import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streams a `ScrollRecording`'s `record` session live to a playground over `URLSessionWebSocketTask`:
/// `ws://HOST:PORT/ws` with the subprotocol `scroll-playground.v1`. It sends `hello` first, then each
/// message you hand `send`, in order. It reads what the playground sends back (and drops it), so the
/// server never takes it for a client that stopped reading, and reports the socket's end once to `onEnd`.
/// (`@unchecked Sendable`: its only state is the task, which URLSession makes thread-safe, and a `let` closure.)
public final class PlaygroundStream: @unchecked Sendable {
    /// The subprotocol the playground's WebSocket speaks (docs/protocol.md).
    public static let subprotocol = "scroll-playground.v1"

    /// How the socket ended.
    public enum End: Sendable {
        /// The socket closed with this WebSocket close code (1000 after `close()`).
        case closed(code: Int)
        /// A send or a receive failed: the server went away, refused the origin, or the network did.
        case failed(String)
    }

    private let task: URLSessionWebSocketTask
    private let onEnd: @Sendable (End) -> Void

    /// Opens the socket to `url` (e.g. `ws://192.168.1.20:8080/ws`), sends `hello` and starts reading.
    public init(
        url: URL, hello: String, session: URLSession = .shared, onEnd: @escaping @Sendable (End) -> Void = { _ in }
    ) {
        task = session.webSocketTask(with: url, protocols: [Self.subprotocol])
        self.onEnd = onEnd
        task.resume()
        send(hello)
        receive()
    }

    /// Sends one message: a `geometry` from `ScrollRecording` (its `send`) or `TraceRecorder.frame`.
    public func send(_ message: String) {
        task.send(.string(message)) { _ in
            // A failed send also ends the receive, which reports the end once.
        }
    }

    /// Closes the socket (1000); the playground keeps the session's trace.
    public func close() {
        task.cancel(with: .normalClosure, reason: nil)
    }

    private func receive() {
        task.receive { [self] result in
            switch result {
            case .success: receive()
            case .failure(let error):
                let code = task.closeCode
                onEnd(code == .invalid ? .failed("\(error)") : .closed(code: code.rawValue))
            }
        }
    }
}

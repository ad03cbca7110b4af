import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streams a `TraceRecorder`'s `record` session live to a playground over `URLSessionWebSocketTask`:
/// `ws://HOST:PORT/ws` with the subprotocol `scroll-playground.v1`. It sends `recorder.hello` first, then
/// each message you hand `send` (the `geometry` a frame makes), in order.
public final class PlaygroundStream {
    /// The subprotocol the playground's WebSocket speaks (docs/protocol.md).
    public static let subprotocol = "scroll-playground.v1"

    private let task: URLSessionWebSocketTask
    private let onError: @Sendable (any Error) -> Void

    /// Opens the socket to `url` (e.g. `ws://192.168.1.20:8080/ws`) and sends `hello`. A send that fails
    /// (the server went away, refused the origin) reaches `onError`; the recorder's trace is unaffected.
    public init(
        url: URL, hello: String, session: URLSession = .shared,
        onError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        task = session.webSocketTask(with: url, protocols: [Self.subprotocol])
        self.onError = onError
        task.resume()
        send(hello)
    }

    /// Sends one message: a `geometry` from `TraceRecorder.frame(_:phase:at:)` (or `recordScroll`'s `send`).
    public func send(_ message: String) {
        let onError = onError
        task.send(.string(message)) { error in
            if let error { onError(error) }
        }
    }

    /// Closes the socket (1000); the playground keeps the session's trace.
    public func close() {
        task.cancel(with: .normalClosure, reason: nil)
    }
}

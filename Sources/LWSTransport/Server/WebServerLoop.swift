import SystemCalls

/// The server's service thread, as a value: the only way to send, close, schedule and cancel.
///
/// The server hands one to every delegate callback, to every timer it fires and to every closure given to
/// ``WebServer/execute(_:)``; nothing else makes one. It is not `Sendable`, so the compiler keeps it (and
/// whatever holds it) off other threads: code elsewhere reaches the loop through ``WebServer/execute(_:)``.
/// (SwiftNIO's `NIOLoopBound` and `ChannelHandlerContext` are the model.)
public struct WebServerLoop {
    let server: LWSServer

    init(_ server: LWSServer) {
        self.server = server
    }

    /// Queues a text message last. An unwritten message with the same `coalescingKey` is dropped, so
    /// only the newest is sent and it never overtakes what was queued before it; messages without a key
    /// are never dropped. Unknown or closing connections are ignored.
    public func send(_ text: [UInt8], to id: ConnectionID, coalescingKey: String? = nil) {
        server.send(text, to: id, coalescingKey: coalescingKey)
    }

    /// Closes a connection with `code` and `reason` once the messages queued before are written.
    public func close(_ id: ConnectionID, code: UInt16, reason: String) {
        server.close(id, code: code, reason: reason)
    }

    /// Runs `work` on the loop after `ms` milliseconds unless cancelled first.
    @discardableResult
    public func schedule(afterMilliseconds ms: Int, _ work: @escaping (WebServerLoop) -> Void) -> TimerHandle {
        server.schedule(afterMilliseconds: ms, work)
    }

    /// Cancels a timer that has not fired; does nothing otherwise.
    public func cancel(_ timer: TimerHandle) {
        server.cancel(timer)
    }

    /// The client's IP address (no port) on connection `id`; nil for an unknown connection.
    public func peerAddress(of id: ConnectionID) -> String? {
        server.peerAddress(of: id)
    }

    /// Gives the heap's free memory back to the system (glibc's `malloc_trim`); it walks every arena, so call it
    /// after work has ended (sessions gone), not per message.
    public func returnFreeMemory() {
        Syscall.returnFreeMemory()
    }

    /// Bytes queued for `id` and not yet handed to the socket (0 for unknown connections).
    public func outboundBytes(of id: ConnectionID) -> Int {
        server.outboundBytes(of: id)
    }
}

// Spelled out so that no later conformance can make it Sendable: sending it to another thread is the
// mistake this type exists to rule out.
@available(*, unavailable)
extension WebServerLoop: Sendable {}

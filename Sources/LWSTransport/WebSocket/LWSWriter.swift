import CLibWebSockets

/// The write path shared by the server and the client: one `lws_write` at a time from a scratch buffer
/// with `LWS_PRE` bytes of headroom (lws puts the frame header, and on a client the mask, there), and the
/// client's WRITEABLE step of a WebSocket: the next fragment of its queue, then its close frame (the
/// server's is ``LWSWriteGate``'s, which also decides when its answers are written).
///
/// Confined to the service thread of the context it writes for.
package final class LWSWriter {
    /// Largest piece handed to one `lws_write`; bigger messages go out as several frames.
    package static let fragmentBytes = 32 * 1024

    // LWS_PRE bytes of headroom lws may use, then the payload.
    private let scratch: UnsafeMutablePointer<UInt8>
    private let capacity = Int(SHIM_LWS_PRE) + fragmentBytes

    package init() {
        scratch = .allocate(capacity: capacity)
    }

    deinit {
        scratch.deallocate()
    }

    /// Where a payload (or an HTTP head being built) starts: after the headroom.
    var payloadStart: UnsafeMutablePointer<UInt8> { scratch + Int(SHIM_LWS_PRE) }

    /// One past the last byte of the scratch buffer.
    var payloadEnd: UnsafeMutablePointer<UInt8> { scratch + capacity }

    /// One WebSocket frame of a queued message; false if lws reports a failed write.
    package func write(_ wsi: OpaquePointer, _ fragment: OutboundQueue.Fragment) -> Bool {
        let flags = lws_write_ws_flags(
            Int32((fragment.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT).rawValue),
            fragment.isFirst ? 1 : 0,
            fragment.isLast ? 1 : 0
        )
        return write(wsi, fragment.bytes, protocol: lws_write_protocol(rawValue: UInt32(flags)))
    }

    /// One `lws_write` of `bytes` (at most ``fragmentBytes``); false if lws reports a failed write.
    package func write(_ wsi: OpaquePointer, _ bytes: ArraySlice<UInt8>, protocol kind: lws_write_protocol) -> Bool {
        precondition(bytes.count <= Self.fragmentBytes)
        let payload = payloadStart
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { payload.update(from: base, count: source.count) }
        }
        // lws may write frame headers into the LWS_PRE bytes before `payload` (and masks it in place).
        let written = lws_write(wsi, payload, bytes.count, kind)
        return written >= bytes.count
    }

    /// A WebSocket's WRITEABLE callback: writes the next fragment of its queue and asks for another
    /// WRITEABLE while anything is left; once the queue is empty, has lws send the pending close frame.
    /// Returns what the callback returns (-1 closes).
    package func writeable(_ wsi: OpaquePointer, _ connection: some LWSWebSocketOutput) -> Int32 {
        if let fragment = connection.outbound.nextFragment(maxBytes: Self.fragmentBytes) {
            guard write(wsi, fragment) else { return -1 }
            if !connection.outbound.isEmpty || connection.pendingClose != nil {
                lws_callback_on_writable(wsi)
            }
            return 0
        }
        if let close = connection.pendingClose, connection.sentCloseCode == nil {
            // lws may still raise WRITEABLE while it awaits the peer's close ack; returning -1
            // again then would kill the connection before the ack (and the peer would see a reset).
            connection.sentCloseCode = close.code
            LWSCloseReason.set(wsi, code: close.code, reason: close.reason)
            return -1
        }
        return 0  // spurious WRITEABLE: nothing queued
    }
}

/// What a client's WebSocket has to write: its queued messages, then its close frame.
package protocol LWSWebSocketOutput: AnyObject {
    /// The messages still to write.
    var outbound: OutboundQueue { get set }
    /// The close asked for, sent once the queue is empty.
    var pendingClose: (code: UInt16, reason: String)? { get set }
    /// The code of the close frame handed to lws; nil until then.
    var sentCloseCode: UInt16? { get set }
}

/// The payload of a close frame from the peer (RFC 6455 §5.5.1): a status code in network order, then a
/// UTF-8 reason; both optional.
package struct PeerCloseFrame {
    /// The status code; nil when the frame has none (or only one byte).
    package let code: UInt16?
    /// Why the frame breaks RFC 6455, as the close to answer it with: 1002 for a 1-byte payload or a code
    /// §7.4 does not allow, 1007 for a reason that is not UTF-8. Nil for a valid frame.
    package let violation: (code: UInt16, reason: String)?

    /// Reads the payload lws hands to `LWS_CALLBACK_WS_PEER_INITIATED_CLOSE`.
    ///
    /// lws 4.1.6 has already replaced codes below 1000, 1004-1006 and 1012-2999 with 1002 there (and
    /// echoes that); it lets 1-byte payloads, codes from 5000 up and any reason through.
    package init(payload: UnsafeRawBufferPointer?) {
        guard let payload, !payload.isEmpty else {  // no status code: allowed
            (code, violation) = (nil, nil)
            return
        }
        guard payload.count >= 2 else {
            (code, violation) = (nil, (1002, "close payload of 1 byte"))
            return
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        self.code = code
        if !((1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code)) {
            violation = (1002, "invalid close code \(code)")
        } else if String(validating: payload[2...], as: UTF8.self) == nil {
            violation = (1007, "close reason is not UTF-8")
        } else {
            violation = nil
        }
    }
}

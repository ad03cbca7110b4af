import CLibWebSockets
import SystemCalls

/// Whether the WebSocket frame lws is delivering arrived masked.
///
/// RFC 6455 §5.1: a server must close the connection on an unmasked client frame. lws 4.1.6 records the
/// mask bit (ops-ws.c, `this_frame_masked`) but neither checks it on a server nor exposes it (lws 4.2
/// added the check: "client unmasked"). The bit lives in lws's private `struct _lws_websocket_related`;
/// its place in Debian's 4.1.6 build was read off the library's own accessors (objdump of
/// libwebsockets.so.17), all relative to the `ws` struct:
///
///     lws_get_close_payload        ws + 0x38             (&ping_payload_buf[LWS_PRE])
///     lws_frame_is_binary          byte ws + 0xb5, bit 1 (final:1 is bit 0)
///     lws_is_first_fragment        byte ws + 0xb6, bit 6
///     lws_remaining_packet_payload size_t at ws + 0xc0
///
/// and the declaration order `final:1, frame_is_binary:1, all_zero_nonce:1, this_frame_masked:1`
/// puts the mask bit at bit 3 of byte ws + 0xb5. Every read is checked against those three public
/// accessors first: with another build or version they disagree, and the answer is nil (the check is
/// off, said once on the log) instead of a guess.
enum LWSFrameMask {
    private static let closePayloadOffset = 0x38
    private static let flagsOffset = 0xb5
    private static let rxPacketLengthOffset = 0xc0

    /// Only the library these offsets were read from.
    private static let knownLibrary: Bool = {
        let version = String(cString: lws_get_library_version())
        let known = version == "4.1.6" || version.hasPrefix("4.1.6-")
        if !known {
            LWSLog.report("unmasked WebSocket frames cannot be refused with libwebsockets \(version) (only 4.1.6)")
        }
        return known
    }()

    private static let mismatchReported = Locked(false)

    /// True if the frame being delivered on `wsi` (a server WebSocket, inside RECEIVE, RECEIVE_PONG or
    /// WS_PEER_INITIATED_CLOSE) was masked; nil if that cannot be known for sure.
    static func isMasked(_ wsi: OpaquePointer) -> Bool? {
        guard knownLibrary, let payload = lws_get_close_payload(wsi) else { return nil }
        // lws owns this memory for the connection's life; it is only read here, on the service thread.
        let ws = UnsafeRawPointer(payload) - closePayloadOffset
        let flags = ws.load(fromByteOffset: flagsOffset, as: UInt8.self)
        let nextFlags = ws.load(fromByteOffset: flagsOffset + 1, as: UInt8.self)
        let rxPacketLength = ws.loadUnaligned(fromByteOffset: rxPacketLengthOffset, as: Int.self)
        guard (flags >> 1) & 1 == UInt8(lws_frame_is_binary(wsi)),
            (nextFlags >> 6) & 1 == UInt8(lws_is_first_fragment(wsi)),
            rxPacketLength == lws_remaining_packet_payload(wsi)
        else {
            let first = mismatchReported.withLock { reported in
                defer { reported = true }
                return !reported
            }
            if first { LWSLog.report("unmasked WebSocket frames cannot be refused: unexpected libwebsockets layout") }
            return nil
        }
        return (flags >> 3) & 1 == 1
    }
}

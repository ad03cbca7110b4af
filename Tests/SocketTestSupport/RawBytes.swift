/// Where an HTTP head ends: the index of its empty line's `\r\n\r\n`, nil until it has arrived.
package func httpHeadEnd<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int? where Bytes.Index == Int {
    var index = bytes.startIndex
    while index + 3 < bytes.endIndex {
        if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index }
        index += 1
    }
    return nil
}

/// A client WebSocket frame (RFC 6455 §5.2) of `opcode` carrying `payload`, of any length; `masked: false`
/// and `fin: false` break the rules on purpose for the hostile clients.
package func webSocketFrame(opcode: UInt8, payload: [UInt8], masked: Bool = true, fin: Bool = true) -> [UInt8] {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    let maskBit: UInt8 = masked ? 0x80 : 0
    switch payload.count {
    case ..<126: frame.append(maskBit | UInt8(payload.count))
    case ..<65_536: frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
        frame.append(maskBit | 127)
        frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
    }
    guard masked else { return frame + payload }
    let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    return frame
}

/// What the floor sends and its server echoes: a geometry message as the bench's pages send it, in a
/// masked WebSocket text frame, so each message is as large on the wire as a real one.
enum FloorFrame {
    static let bytes: [UInt8] = webSocketText(
        ClientFrames.geometry(
            seq: 1_000, milliseconds: 61_234.56, offset: 1_234.5, contentHeight: 4_400, phase: .decelerating))

    /// A client's text frame around `payload`: FIN + text, the masked length (7 bits, or 126 + 16 bits),
    /// and a zero masking key, which leaves the payload as it is.
    static func webSocketText(_ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= 0xFFFF, "a geometry message fits a 16-bit length")
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return frame + [0, 0, 0, 0] + payload
    }
}

/// The bytes of answers each floor connection has read: the server echoes every frame, in order, so the
/// k-th `FloorFrame.bytes.count` bytes back answer the k-th frame sent (seqs count from 1).
struct EchoTally {
    let frameSize: Int
    private var bytes: [Int]

    init(connections: Int, frameSize: Int = FloorFrame.bytes.count) {
        self.frameSize = frameSize
        bytes = [Int](repeating: 0, count: connections)
    }

    /// Frames answered in full on `connection` so far.
    func answered(_ connection: Int) -> Int {
        bytes[connection] / frameSize
    }

    /// Counts `count` bytes read on `connection`; returns the seqs whose answers they completed (often
    /// none, or several when reads and frames do not line up).
    mutating func received(_ count: Int, on connection: Int) -> Range<Int> {
        let before = answered(connection)
        bytes[connection] += count
        return (before + 1)..<(answered(connection) + 1)
    }
}

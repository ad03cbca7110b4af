/// One simulated page's scrolling, a frame at a time: fling down until the bottom is reached, rest
/// there while the next page loads, fling back up, pull past the refresh threshold and release, rest
/// while the refresh runs — then again. Content grows as the server's items arrive.
struct GestureScript {
    /// The viewport of a phone-sized page.
    static let containerWidth = 390.0
    static let containerHeight = 844.0
    /// The synthetic feed's items are 56…120 px tall.
    static let averageItemHeight = 88.0

    private enum Segment {
        /// A finger flick down, then momentum.
        case flingDown
        /// At the bottom, idle, while a page loads.
        case holdBottom
        /// A flick back up.
        case flingUp
        /// Dragging down past the top.
        case pull
        /// Finger lifted: the pull springs back.
        case release
        /// Idle at the top.
        case rest
    }

    /// The scroll position now (negative while pulling).
    private(set) var offset = 0.0
    private var velocity = 0.0
    private var dragFrames = 0
    private var framesLeft: Int
    private var segment = Segment.rest

    /// Starts at rest for `restFrames` frames, which staggers sessions through the loop.
    init(restFrames: Int) {
        framesLeft = max(1, restFrames)
    }

    /// Advances one frame; returns the phase to report with `offset`.
    mutating func advance(contentHeight: Double) -> ScrollPhaseBytes {
        let maxOffset = max(0, contentHeight - Self.containerHeight)
        switch segment {
        case .rest:
            offset = 0
            framesLeft -= 1
            if framesLeft <= 0 { flick(down: true) }
            return .idle
        case .flingDown:
            let phase = move()
            if offset >= maxOffset {
                offset = maxOffset
                segment = .holdBottom
                framesLeft = 60
            } else if velocity < 2 {
                flick(down: true)
            }
            return phase
        case .holdBottom:
            offset = min(offset, maxOffset)
            framesLeft -= 1
            if framesLeft <= 0 { flick(down: false) }
            return .idle
        case .flingUp:
            let phase = move()
            if offset <= 0 {
                offset = 0
                segment = .pull
                framesLeft = 30
            } else if velocity > -2 {
                flick(down: false)
            }
            return phase
        case .pull:
            // 4 px a frame for half a second: a 120 px pull, past the 68 px threshold.
            offset -= 4
            framesLeft -= 1
            if framesLeft <= 0 { segment = .release }
            return .interacting
        case .release:
            offset *= 0.7
            if offset > -0.5 {
                offset = 0
                segment = .rest
                framesLeft = 60
            }
            return .idle
        }
    }

    private mutating func flick(down: Bool) {
        segment = down ? .flingDown : .flingUp
        velocity = down ? 110 : -110
        dragFrames = 5
    }

    /// A few frames under the finger, then momentum that decays like a browser's fling.
    private mutating func move() -> ScrollPhaseBytes {
        if dragFrames > 0 {
            dragFrames -= 1
            offset += velocity
            return .interacting
        }
        velocity *= 0.965
        offset += velocity
        return .decelerating
    }
}

/// A scroll phase as the bytes of its JSON string.
enum ScrollPhaseBytes {
    case idle, interacting, decelerating

    var text: StaticString {
        switch self {
        case .idle: "idle"
        case .interacting: "interacting"
        case .decelerating: "decelerating"
        }
    }
}

/// Builds the bench's client messages straight into bytes (no encoder, no String), so the client
/// spends as little of the shared CPU as it can.
enum ClientFrames {
    /// `{"type":"geometry",…}` as a browser would send it, with fractional pixels.
    static func geometry(seq: Int, milliseconds: Double, offset: Double, contentHeight: Double, phase: ScrollPhaseBytes)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(288)
        append(&bytes, #"{"type":"geometry","seq":"#)
        appendInteger(&bytes, seq)
        append(&bytes, #","t":"#)
        appendFixed(&bytes, milliseconds)
        append(&bytes, #","contentOffset":{"x":0,"y":"#)
        appendFixed(&bytes, offset)
        append(&bytes, #"},"contentSize":{"width":390,"height":"#)
        appendFixed(&bytes, contentHeight)
        append(&bytes, #"},"containerSize":{"width":390,"height":844},"#)
        append(&bytes, #""contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"phase":""#)
        append(&bytes, phase.text)
        append(&bytes, #""}"#)
        return bytes
    }

    /// `{"type":"ping","id":N}`.
    static func ping(id: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(&bytes, #"{"type":"ping","id":"#)
        appendInteger(&bytes, id)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `{"type":"hello","version":1}`, with a preset if one is asked for.
    static func hello(preset: String?) -> [UInt8] {
        guard let preset else { return Array(#"{"type":"hello","version":1}"#.utf8) }
        return Array(#"{"type":"hello","version":1,"preset":"\#(preset)"}"#.utf8)
    }

    private static func append(_ bytes: inout [UInt8], _ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    static func appendInteger(_ bytes: inout [UInt8], _ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for any Int's 19 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// Up to two decimals, trailing zeros dropped (`1234.5`, `-87.25`, `0`).
    static func appendFixed(_ bytes: inout [UInt8], _ value: Double) {
        let hundredths = Int((value * 100).rounded())
        if hundredths < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = hundredths.magnitude
        appendInteger(&bytes, Int(magnitude / 100))
        let fraction = Int(magnitude % 100)
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }
}

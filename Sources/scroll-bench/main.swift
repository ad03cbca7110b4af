import Foundation
import ScrollCore

// scroll-bench codec: what one geometry message costs in ScrollCore (decode + reduce + encode), measured
// side by side with Foundation's JSONDecoder on the same messages. Medians of several runs.

/// A scripted gesture: fling down through a long feed, back up, then a pull past the threshold and release.
func gestureMessages(count: Int) -> [[UInt8]] {
    var messages: [[UInt8]] = []
    messages.reserveCapacity(count)
    for seq in 0..<count {
        let phaseIndex = seq % 240
        let offset: Double
        let phase: String
        switch phaseIndex {
        case 0..<120: offset = Double(phaseIndex) * 19.37; phase = "decelerating"
        case 120..<200: offset = Double(200 - phaseIndex) * 28.11; phase = "interacting"
        case 200..<230: offset = -Double(phaseIndex - 200) * 3.1; phase = "interacting"
        default: offset = 0; phase = "idle"
        }
        let text = """
            {"type":"geometry","seq":\(seq),"t":\(Double(seq) * 16.667),"contentOffset":{"x":0,"y":\(offset)},\
            "contentSize":{"width":390,"height":5321.5},"containerSize":{"width":390,"height":700},\
            "contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"phase":"\(phase)"}
            """
        messages.append(Array(text.utf8))
    }
    return messages
}

func openSession() -> SessionState {
    var config = ScrollConfig()
    config.maxItems = 0
    var state = SessionState(id: "s1", resumeToken: "t", config: config, source: .synthetic)
    _ = state.reduce(.helloReceived(Hello()), now: 0)
    return state
}

/// Nanoseconds per message for `body` over every message, median of `runs`.
func measure(runs: Int, messages: [[UInt8]], _ body: ([UInt8], Int) -> Int) -> (median: Double, min: Double, max: Double) {
    var samples: [Double] = []
    var sink = 0
    for _ in 0..<runs {
        let start = ContinuousClock.now
        for (index, message) in messages.enumerated() { sink &+= body(message, index) }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        samples.append(nanoseconds / Double(messages.count))
    }
    if sink == 42 { print("") }  // keeps the work observable
    samples.sort()
    return (samples[samples.count / 2], samples.first!, samples.last!)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.first == nil || arguments.first == "codec" else {
    FileHandle.standardError.write(Data("usage: scroll-bench [codec] [--messages N] [--runs N]\n".utf8))
    exit(2)
}
func flag(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex,
        let number = Int(arguments[arguments.index(after: index)]), number > 0
    else { return value }
    return number
}
let count = flag("--messages", default: 50_000)
let runs = flag("--runs", default: 7)
let messages = gestureMessages(count: count)

var state = openSession()
let full = measure(runs: runs, messages: messages) { bytes, index in
    guard case .geometry(let report)? = try? ClientMessage.decode(bytes) else { return 0 }
    var written = 0
    for effect in state.reduce(.geometryReceived(report), now: Int64(index * 16)) {
        if case .send(let message) = effect { written += message.encoded().count }
    }
    return written
}
let decodeOnly = measure(runs: runs, messages: messages) { bytes, _ in
    (try? ClientMessage.decode(bytes)) == nil ? 0 : 1
}
let decoder = JSONDecoder()
let foundationDecode = measure(runs: runs, messages: messages) { bytes, _ in
    (try? decoder.decode(GeometryReport.self, from: Data(bytes))) == nil ? 0 : 1
}
let sampleState = openSession().currentState
let encodeOnly = measure(runs: runs, messages: messages) { _, _ in
    ServerMessage.state(sampleState).encoded().count
}

func row(_ name: String, _ result: (median: Double, min: Double, max: Double)) -> String {
    name.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%8.2f µs  (min %.2f, max %.2f)", result.median / 1000, result.min / 1000, result.max / 1000)
}
print("scroll-bench codec: \(count) geometry messages × \(runs) runs, median per message")
print(row("decode + reduce + encode (ScrollCore)", full))
print(row("decode only (ScrollCore reader)", decodeOnly))
print(row("decode only (Foundation JSONDecoder)", foundationDecode))
print(row("encode state only (ScrollCore writer)", encodeOnly))
print(String(format: "Foundation decode / ScrollCore decode: %.1f×", foundationDecode.median / decodeOnly.median))

import CommandLineOptions
import Foundation
import ScrollCore

/// `scroll-bench codec`: what one geometry message costs in ScrollCore (decode + reduce + encode),
/// in process, side by side with Foundation's JSONDecoder on the same messages.
enum CodecBench {
    /// Whether the Foundation pass runs.
    enum FoundationPass: String, CaseIterable, Sendable {
        /// Decode every message with Foundation's JSONDecoder too.
        case yes
        /// Skip the slow Foundation pass (e.g. under valgrind).
        case no
    }

    /// Whether the geometry messages carry the page's anchor and rendered `rev`.
    enum AnchorsPass: String, CaseIterable, Sendable {
        /// Each geometry has `anchor` and `rev`, as the playground page sends it (issue 12).
        case yes
        /// Bare geometry, as a client that checks no anchors sends it.
        case no
    }

    /// What `codec` is told.
    struct Settings: BenchSettings {
        var messages = 50_000
        var runs = 7
        var foundation = FoundationPass.yes
        var windowSize = 0
        var anchors = AnchorsPass.no
        var common = Arguments()
    }

    static let mode = BenchMode(
        "codec", summary: "in-process decode + reduce + encode per geometry message, vs Foundation",
        defaults: Settings(),
        own: [
            .integer("messages", help: "geometry messages per run", \.messages, in: 1...10_000_000),
            .integer("runs", "K", help: "passes over every message", \.runs, in: 1...100),
            .choice(
                "foundation", help: "also decode with Foundation's JSONDecoder (no: skip the slow pass)",
                \.foundation),
            .integer(
                "window-size", help: "the session's windowSize (0 = unbounded; else at least 40)", \.windowSize,
                in: 0...100_000),
            .choice("anchors", help: "geometry carries anchor and rev, as the page sends it", \.anchors),
        ],
        shared: Arguments.output,
        run: run)

    static func run(_ settings: Settings) throws -> [RunReport] {
        let count = settings.messages
        let runs = settings.runs
        let withFoundation = settings.foundation == .yes
        let messages = gestureMessages(count: count, anchors: settings.anchors == .yes)
        let decoder = JSONDecoder()
        let sampleState = openSession(windowSize: settings.windowSize).currentState
        var state = openSession(windowSize: settings.windowSize)
        var reports: [RunReport] = []
        for _ in 0..<runs {
            let full = nanosecondsPerMessage(messages) { bytes, index in
                guard case .geometry(let report)? = try? ClientMessage.decode(bytes) else { return 0 }
                var written = 0
                for effect in state.reduce(.geometryReceived(report), now: Int64(index * 16)) {
                    if case .send(let message) = effect { written += message.encoded().count }
                }
                return written
            }
            let decodeOnly = nanosecondsPerMessage(messages) { bytes, _ in
                (try? ClientMessage.decode(bytes)) == nil ? 0 : 1
            }
            let foundationDecode =
                withFoundation
                ? nanosecondsPerMessage(messages) { bytes, _ in
                    (try? decoder.decode(GeometryReport.self, from: Data(bytes))) == nil ? 0 : 1
                } : .nan
            let encodeOnly = nanosecondsPerMessage(messages) { _, _ in
                ServerMessage.state(sampleState).encoded().count
            }
            var report = RunReport(
                mode: "codec", title: "scroll-bench codec: \(grouped(count)) geometry messages per run, in process")
            report.notes = [
                "time per message; one run = one pass over every message",
                "windowSize \(settings.windowSize), anchors \(settings.anchors.rawValue)",
            ]
            report.add("fullMicroseconds", "decode + reduce + encode (ScrollCore)", .microseconds, full / 1000)
            report.add("decodeMicroseconds", "decode only (ScrollCore reader)", .microseconds, decodeOnly / 1000)
            report.add(
                "foundationDecodeMicroseconds", "decode only (Foundation JSONDecoder)", .microseconds,
                foundationDecode / 1000)
            report.add(
                "encodeStateMicroseconds", "encode state only (ScrollCore writer)", .microseconds, encodeOnly / 1000)
            report.add(
                "foundationOverScrollCore", "Foundation decode ÷ ScrollCore decode", .ratio,
                foundationDecode / decodeOnly)
            reports.append(report)
        }
        return reports
    }

    /// A scripted gesture: fling down through a long feed, back up, then a pull past the threshold and release.
    static func gestureMessages(count: Int, anchors: Bool = false) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        messages.reserveCapacity(count)
        for seq in 0..<count {
            let phaseIndex = seq % 240
            let offset: Double
            let phase: String
            switch phaseIndex {
            case 0..<120:
                offset = Double(phaseIndex) * 19.37
                phase = "decelerating"
            case 120..<200:
                offset = Double(200 - phaseIndex) * 28.11
                phase = "interacting"
            case 200..<230:
                offset = -Double(phaseIndex - 200) * 3.1
                phase = "interacting"
            default:
                offset = 0
                phase = "idle"
            }
            let text = """
                {"type":"geometry","seq":\(seq),"t":\(Double(seq) * 16.667),"contentOffset":{"x":0,"y":\(offset)},\
                "contentSize":{"width":390,"height":5321.5},"containerSize":{"width":390,"height":700},\
                "contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"phase":"\(phase)"
                """
            // The page's anchor: the first visible item (about 88 px a row) and the rev it rendered.
            let row = Int(max(0, offset) / 88)
            let inRow = max(0, offset) - Double(row) * 88
            let anchor = anchors ? ",\"anchor\":{\"id\":\"item-\(row + 1)\",\"offset\":\(-inRow)},\"rev\":1" : ""
            messages.append(Array((text + anchor + "}").utf8))
        }
        return messages
    }

    static func openSession(windowSize: Int = 0) -> SessionState {
        var config = ScrollConfig()
        config.maxItems = 0
        config.windowSize = windowSize
        var state = SessionState(id: "s1", resumeToken: "t", config: config, source: .synthetic)
        _ = state.reduce(.helloReceived(Hello()), now: 0)
        return state
    }

    /// Nanoseconds per message for one pass of `body` over every message.
    private static func nanosecondsPerMessage(_ messages: [[UInt8]], _ body: ([UInt8], Int) -> Int) -> Double {
        var sink = 0
        let start = Monotonic.now()
        for (index, message) in messages.enumerated() { sink &+= body(message, index) }
        let elapsed = Monotonic.now() - start
        if sink == 42 { print("") }  // keeps the work observable
        return Double(elapsed) / Double(messages.count)
    }
}

import ScrollCore

/// A generated gesture with its settings: what `check` runs, shrinks and writes as a trace.
public struct Scenario: Equatable, Sendable {
    /// One thing the simulated user (or developer) does.
    public enum Step: Equatable, Sendable {
        /// A flick at this speed (px/frame, negative: up): three frames under the finger, then momentum.
        case fling(Double)
        /// A steady drag of this many px a frame for this many frames, then the finger lifts.
        case drag(Double, frames: Int)
        /// One frame at the end the user can reach.
        case toEnd
        /// One frame at the top.
        case toTop
        /// At the top, pull this far past it (8 px a frame), then let go.
        case pull(Double)
        /// Nothing moves for this many ms (timers fire; the page reports when its content changes).
        case pause(Int)
        /// The viewport's height changes to this.
        case resize(Double)
        /// A `config` message switching to this preset.
        case switchPreset(Preset)
        /// A recorded hand's stroke: the finger's (or the browser's) move each frame, then the release at
        /// this speed, px/s (the iOS model's momentum; the browser's scrolling stops).
        case stroke([Double], release: Double)
    }

    /// The `hello.config` (`preset` among them).
    public var settings: [String: JSONValue]
    public var layout: PageLayout
    public var steps: [Step]

    public init(settings: [String: JSONValue], layout: PageLayout = PageLayout(), steps: [Step]) {
        self.settings = settings
        self.layout = layout
        self.steps = steps
    }

    /// The preset the scenario opens with.
    public var preset: Preset { settings["preset"]?.string.flatMap(Preset.init(rawValue:)) ?? .playground }

    /// How the page scrolls (`physics`, by default the session's default, `ios`).
    public var physics: ScrollPhysics {
        settings["physics"]?.string.flatMap(ScrollPhysics.init(rawValue:)) ?? ScrollConfig().physics
    }

    /// How the list reports its content size (`contentSize`).
    public var contentSize: ContentSizeModel {
        settings["contentSize"]?.string.flatMap(ContentSizeModel.init(rawValue:)) ?? ScrollConfig().contentSize
    }

    /// How long the user keeps still at the end of every scenario, ms: long enough for any stall to show.
    public static let finalPauseMs = 16_000

    /// A random scenario for `preset`, from `seed`.
    public static func random(preset: Preset, seed: UInt64, fixed: [String: JSONValue] = [:]) -> Scenario {
        var random = SeededGenerator(seed: seed)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        func draw(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var settings: [String: JSONValue] = [
            "preset": .string(preset.rawValue),
            "loadLatencyMs": .int(pick([0, 100, 300, 600, 1500])),
            "refreshLatencyMs": .int(pick([200, 1200, 2500])),
            "jitterMs": .int(pick([0, 0, 50, 200])),
            "failureRate": .number(pick([0, 0, 0, 0.2, 0.5])),
            "initialCount": .int(pick([3, 10, 30])),
            "pageSize": .int(pick([5, 20])),
            "maxItems": .int(pick([60, 200])),
            "seed": .int(Int(random.next() % 1_000_000)),
        ]
        // The settings the run fixes (`physics`, `contentSize`) hold for every scenario.
        settings.merge(fixed) { _, fixed in fixed }
        var layout = PageLayout()
        layout.containerHeight = pick([700, 699.7, 844, 400])
        layout.endShortfall = pick([0, 0, 0.4])
        layout.insetTop = pick([0, 0, 44])
        layout.insetBottom = pick([0, 0, 34])
        var steps: [Step] = []
        let count = 5 + Int(random.next() % 20)
        var switchedAway = 0
        while steps.count < count {
            switch random.next() % 16 {
            case 0...3: steps.append(.fling(draw(0...1) < 0.8 ? draw(20...200) : -draw(20...200)))
            case 4...5:
                steps.append(.drag(draw(0...1) < 0.8 ? draw(1...20) : -draw(1...20), frames: pick([5, 20, 60])))
            case 6...7: steps.append(.toEnd)
            case 8: steps.append(.toTop)
            case 9...10: steps.append(.pull(draw(30...160)))
            case 11...13: steps.append(.pause(pick([100, 400, 1000, 2500, 4000])))
            case 14: steps.append(.resize(pick([400, 699.7, 844, 1000])))
            default:
                // A switch away is followed a few steps later by a switch back, so most of the run is `preset`'s.
                guard switchedAway == 0 else { continue }
                steps.append(.switchPreset(pick(Preset.allCases.filter { $0 != preset })))
                switchedAway = 1 + Int(random.next() % 3)
                continue
            }
            if switchedAway > 0 {
                switchedAway -= 1
                if switchedAway == 0 { steps.append(.switchPreset(preset)) }
            }
        }
        if switchedAway > 0 { steps.append(.switchPreset(preset)) }
        return Scenario(settings: settings, layout: layout, steps: steps)
    }
}

extension Scenario.Step: CustomStringConvertible {
    public var description: String {
        switch self {
        case .fling(let velocity): "fling \(LabFormat.number(velocity)) px/frame"
        case .drag(let speed, let frames): "drag \(LabFormat.number(speed)) px × \(frames) frames"
        case .toEnd: "to the end"
        case .toTop: "to the top"
        case .pull(let distance): "pull \(LabFormat.number(distance)) px and release"
        case .pause(let milliseconds): "pause \(milliseconds) ms"
        case .resize(let height): "resize to \(LabFormat.number(height)) px"
        case .switchPreset(let preset): "switch to \(preset.rawValue)"
        case .stroke(let moves, let release):
            "stroke \(LabFormat.number(moves.reduce(0, +))) px × \(moves.count) frames, "
                + "release \(LabFormat.number(release)) px/s"
        }
    }
}

extension Scenario: CustomStringConvertible {
    /// The settings that differ from the defaults, the layout's changes, then the steps.
    public var description: String {
        let defaults = ScrollConfig().json
        var parts = settings.filter { $0.key != "seed" && $0.key != "preset" && defaults[$0.key] != $0.value }
            .sorted { $0.key < $1.key }.map {
                "\($0.key)=\($0.value.jsonString)"
            }
        let plain = PageLayout()
        if layout.containerHeight != plain.containerHeight {
            parts.append("containerHeight=\(LabFormat.number(layout.containerHeight))")
        }
        if layout.insetTop != 0 { parts.append("insetTop=\(LabFormat.number(layout.insetTop))") }
        if layout.insetBottom != 0 { parts.append("insetBottom=\(LabFormat.number(layout.insetBottom))") }
        if layout.endShortfall != 0 { parts.append("endShortfall=\(LabFormat.number(layout.endShortfall))") }
        return "\(preset.rawValue) [\(parts.joined(separator: " "))]: "
            + (steps.map(\.description) + ["wait"]).joined(separator: ", ")
    }
}

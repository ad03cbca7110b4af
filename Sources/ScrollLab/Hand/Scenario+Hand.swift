import ScrollCore

extension Scenario {
    /// A recorded hand as a scenario `check` runs and shrinks (`check --gestures DIR`): its strokes in order
    /// (each finger's or the browser's moves, then its release), the pauses between them as recorded from
    /// where the page came to rest, its pulls, jumps to either end, resizes and preset switches, on the
    /// recording's page with its settings. A jump to an offset and the buttons' messages are left out.
    public init(hand: RecordedHand) {
        var steps: [Step] = []
        var moves: [Double] = []
        var pulled = 0.0
        var rested: Int64?
        let frame = max(1, hand.frameMs)
        func flush(release: Double) {
            guard !moves.isEmpty else { return }
            steps.append(.stroke(moves, release: release))
            moves = []
        }
        for step in hand.steps {
            let actions = step.actions + step.afterReport
            if !actions.isEmpty, moves.isEmpty, pulled == 0, let rest = rested, step.t - rest > frame {
                steps.append(.pause(Int(step.t - rest - frame)))
            }
            for action in actions {
                switch action {
                case .finger(let move), .scroll(let move):
                    moves.append(move)
                case .lift(let velocity):
                    flush(release: velocity)
                case .pull(let shown):
                    flush(release: 0)
                    if shown > 0 {
                        pulled = max(pulled, shown)
                    } else if pulled > 0 {
                        steps.append(.pull(pulled.rounded()))
                        pulled = 0
                    }
                case .jump(.end):
                    flush(release: 0)
                    steps.append(.toEnd)
                case .jump(.top):
                    flush(release: 0)
                    steps.append(.toTop)
                case .jump(.offset):
                    continue
                case .resize(let height):
                    steps.append(.resize(height))
                case .message(let json):
                    guard let name = json["preset"]?.string, let preset = Preset(rawValue: name) else { continue }
                    flush(release: 0)
                    steps.append(.switchPreset(preset))
                }
            }
            // The browser's strokes end where its frames stop moving.
            if hand.physics == .browser, !actions.contains(where: { if case .scroll = $0 { true } else { false } }) {
                flush(release: 0)
            }
            if !actions.isEmpty || (step.phase != nil && step.phase != .idle) { rested = step.t }
        }
        flush(release: 0)
        if pulled > 0 { steps.append(.pull(pulled.rounded())) }
        var settings = hand.settings.filter { ScrollConfig.settingNames.contains($0.key) }
        settings["physics"] = .string(hand.physics.rawValue)
        settings["seed"] = .int(Int(hand.config.seed % 1_000_000))
        self.init(settings: settings, layout: hand.layout, steps: steps)
    }
}

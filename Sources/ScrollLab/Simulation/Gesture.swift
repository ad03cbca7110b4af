import ScrollCore

/// What the simulated user does in one frame.
public struct FrameIntent: Equatable, Sendable {
    /// A finger on the glass, fed to the iOS model (`physics` `ios`): the page moves as the model says.
    public enum Touch: Equatable, Sendable {
        /// The finger is down and moves the content by this many px (positive: toward the end).
        case drag(Double)
        /// The finger lifts, at the speed of its last movement.
        case lift
    }

    /// Pixels to scroll by (positive: down), kept within the content by the page.
    public var scrollBy = 0.0
    /// The pull past the top to show, px; nil leaves it as it is.
    public var pull: Double?
    /// The phase the page reports.
    public var phase = FeedScrollPhase.idle
    /// The finger, when the iOS model moves the page (then `scrollBy`, `pull` and `phase` are not read).
    public var touch: Touch?

    public init(scrollBy: Double = 0, pull: Double? = nil, phase: FeedScrollPhase = .idle, touch: Touch? = nil) {
        self.scrollBy = scrollBy
        self.pull = pull
        self.phase = phase
        self.touch = touch
    }
}

/// Something that moves the simulated page a frame at a time.
public protocol GestureDriver {
    /// The next frame's movement, given the page and the session's last state.
    mutating func next(page: SimulatedPage, refreshing: Bool) -> FrameIntent
}

/// The simulated users `simulate` offers.
public enum GestureKind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Slow steady scrolling (wheel or finger, 60–180 px/s) with pauses to read.
    case read
    /// Flings with momentum, mostly down, like `scroll-bench`'s script.
    case skim
    /// Hard flings to the end, again and again.
    case toEnd
    /// Pulls past the top and releases, sometimes again while the refresh runs.
    case pullRefresh
}

/// A seeded simulated user of one ``GestureKind``.
public struct Gesture: GestureDriver, Sendable {
    private enum Segment: Equatable, Sendable {
        /// Still, for this many frames.
        case rest(Int)
        /// A steady drag at this speed (px/frame) for this many frames.
        case drag(Double, Int)
        /// A finger flick: this many frames under the finger, then momentum.
        case flick(Double, Int)
        /// Momentum after a flick.
        case coast(Double)
        /// Pulling past the top to this distance.
        case pull(Double)
        /// Let go of a pull: it springs back.
        case release
        /// iOS: the finger holds still for a frame, then lifts.
        case hold
        /// iOS: the finger lifts this frame.
        case lift(afterPull: Bool)
        /// iOS: the finger lifted; the model moves the page until it rests.
        case momentum(afterPull: Bool)
    }

    public let kind: GestureKind
    /// Whether the user's finger drives the iOS model (`ios`) or the browser's scrolling.
    public let physics: ScrollPhysics
    private var generator: SeededGenerator
    private var segment: Segment

    public init(_ kind: GestureKind, seed: UInt64, physics: ScrollPhysics = .browser) {
        self.kind = kind
        self.physics = physics
        generator = SeededGenerator(seed: seed ^ 0x6E57_0000)
        segment = .rest(1)
    }

    /// A uniform draw in `range`.
    private mutating func draw(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(generator.next() >> 11) / Double(1 << 53)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }

    private mutating func frames(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(generator.next() % UInt64(range.count))
    }

    public mutating func next(page: SimulatedPage, refreshing: Bool) -> FrameIntent {
        physics == .ios
            ? touchNext(page: page, refreshing: refreshing) : browserNext(page: page, refreshing: refreshing)
    }

    /// The same user as a finger on an iPhone: drags and flicks lift at the finger's speed and the model
    /// coasts; a pull is finger travel (the rubber band shows about half of it), held, then let go.
    private mutating func touchNext(page: SimulatedPage, refreshing: Bool) -> FrameIntent {
        switch segment {
        case .rest(let left):
            if left > 1 {
                segment = .rest(left - 1)
                return FrameIntent()
            }
            segment = start(page: page, refreshing: refreshing)
            return touchNext(page: page, refreshing: refreshing)
        case .drag(let speed, let left):
            segment = left > 1 ? .drag(speed, left - 1) : .lift(afterPull: false)
            return FrameIntent(touch: .drag(speed))
        case .flick(let speed, let left):
            segment = left > 1 ? .flick(speed, left - 1) : .lift(afterPull: false)
            return FrameIntent(touch: .drag(speed))
        case .coast, .lift(afterPull: false):
            segment = .momentum(afterPull: false)
            return FrameIntent(touch: .lift)
        case .pull(let target):
            // `target` is finger travel past the top; the page shows the rubber band of it.
            let travelled = IOSScrollModel.rubberBandInverse(page.pull, dimension: page.layout.containerHeight)
            if travelled + 4 >= target { segment = .hold }
            return FrameIntent(touch: .drag(-min(4, max(0, target - travelled))))
        case .hold:
            segment = .lift(afterPull: true)
            return FrameIntent(touch: .drag(0))
        case .release, .lift(afterPull: true):
            segment = .momentum(afterPull: true)
            return FrameIntent(touch: .lift)
        case .momentum(let afterPull):
            guard page.motion.motion == .idle else { return FrameIntent() }
            segment = afterPull ? self.afterPull(refreshing: refreshing) : rest()
            return touchNext(page: page, refreshing: refreshing)
        }
    }

    private mutating func browserNext(page: SimulatedPage, refreshing: Bool) -> FrameIntent {
        switch segment {
        case .rest(let left):
            if left > 1 {
                segment = .rest(left - 1)
                return FrameIntent()
            }
            segment = start(page: page, refreshing: refreshing)
            return browserNext(page: page, refreshing: refreshing)
        case .hold, .lift, .momentum:
            segment = rest()
            return FrameIntent()
        case .drag(let speed, let left):
            segment = left > 1 ? .drag(speed, left - 1) : rest()
            return FrameIntent(scrollBy: speed, phase: .interacting)
        case .flick(let velocity, let left):
            segment = left > 1 ? .flick(velocity, left - 1) : .coast(velocity)
            return FrameIntent(scrollBy: velocity, phase: .interacting)
        case .coast(let velocity):
            // Momentum decays like a browser's fling and stops at either end.
            let decayed = velocity * 0.965
            let stopped =
                abs(decayed) < 2 || (decayed > 0 && page.scroll >= page.maxScroll) || (decayed < 0 && page.scroll <= 0)
            segment = stopped ? rest() : .coast(decayed)
            return stopped ? FrameIntent() : FrameIntent(scrollBy: decayed, phase: .decelerating)
        case .pull(let target):
            let pulled = min(target, page.pull + 4)
            if pulled >= target { segment = .release }
            return FrameIntent(pull: pulled, phase: .interacting)
        case .release:
            let pulled = page.pull * 0.7
            if pulled < 0.5 {
                segment = afterPull(refreshing: refreshing)
                return FrameIntent(pull: 0)
            }
            return FrameIntent(pull: pulled)
        }
    }

    /// The pause after a movement.
    private mutating func rest() -> Segment {
        switch kind {
        case .read: .rest(frames(60...180))
        case .skim: .rest(frames(10...40))
        case .toEnd: .rest(frames(30...90))
        case .pullRefresh: .rest(frames(30...120))
        }
    }

    private mutating func afterPull(refreshing: Bool) -> Segment {
        // Now and then the user pulls again at once, while the refresh still runs.
        draw(0...1) < 0.3 ? .rest(10) : .rest(frames(60...150))
    }

    /// The next movement.
    private mutating func start(page: SimulatedPage, refreshing: Bool) -> Segment {
        switch kind {
        case .read:
            return .drag(draw(1...3), frames(120...300))
        case .skim:
            let down = draw(0...1) < 0.9
            return .flick((down ? 1 : -1) * draw(80...140), 5)
        case .toEnd:
            return .flick(draw(150...220), 5)
        case .pullRefresh:
            guard page.scroll <= 0 else { return .flick(-200, 5) }
            return .pull(draw(80...160))
        }
    }
}

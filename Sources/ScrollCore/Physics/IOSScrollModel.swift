/// A model of an iPhone scroll view along one axis: a finger drags the content (with the rubber band past
/// either end), a release coasts with momentum that decays by the deceleration rate every millisecond, and
/// content past an end springs back with a critically damped spring. Pure: time is what the caller passes
/// to ``advance(ms:bounds:)``. `Public/js/ios-scroll.js` is the same model, line for line; docs/fidelity.md
/// gives every constant's source and what differs from a device.
///
/// `position` is `contentOffset` along the axis measured from the content's top: 0 at the top,
/// `bounds.maxOffset` at the end, below 0 or beyond it in the rubber band.
public struct IOSScrollModel: Equatable, Sendable {
    /// UIScrollView's `decelerationRate` `.normal`: velocity kept per millisecond.
    public static let normalDecelerationRate = 0.998
    /// UIScrollView's `decelerationRate` `.fast`.
    public static let fastDecelerationRate = 0.99
    /// The rubber band's constant `c` in (1 − 1/(x·c/L + 1))·L.
    public static let rubberBandCoefficient = 0.55
    /// The bounce spring's natural frequency ω (1/s): critically damped, its time constant is 1/ω = 100 ms.
    public static let bounceFrequency = 10.0
    /// Motion smaller than this (pt) is over: momentum stops when what is left of its travel is less, a
    /// bounce when it is this close to the edge and heading back.
    public static let restingTravel = 0.5

    /// The viewport and content the motion is bounded by.
    public struct Bounds: Equatable, Sendable {
        /// The largest in-range position: `contentSize + insets − containerSize`, at least 0.
        public var maxOffset: Double
        /// The viewport's length along the axis (`L` of the rubber band).
        public var dimension: Double

        public init(maxOffset: Double, dimension: Double) {
            self.maxOffset = max(0, maxOffset)
            self.dimension = max(1, dimension)
        }
    }

    /// Which end a bounce returns to.
    public enum Edge: String, Equatable, Sendable {
        /// Position 0.
        case top
        /// `bounds.maxOffset`.
        case bottom
    }

    /// What moves the content.
    public enum Motion: Equatable, Sendable {
        /// Nothing.
        case idle
        /// A finger is down and has not moved.
        case tracking(raw: Double)
        /// A finger drags; `raw` is where the content would be without the rubber band.
        case dragging(raw: Double)
        /// Momentum after a release, pt/s.
        case decelerating(velocity: Double)
        /// The spring back to an edge, pt/s.
        case bouncing(edge: Edge, velocity: Double)
    }

    /// `contentOffset` along the axis, pt.
    public var position: Double
    public var motion = Motion.idle
    /// Velocity kept per millisecond of momentum.
    public var decelerationRate: Double

    public init(position: Double = 0, decelerationRate: Double = Self.normalDecelerationRate) {
        self.position = position
        self.decelerationRate = decelerationRate
    }

    /// The phase SwiftUI reports: a drag is `interacting`, momentum and the spring back `decelerating`.
    public var phase: FeedScrollPhase {
        switch motion {
        case .idle: .idle
        case .tracking: .tracking
        case .dragging: .interacting
        case .decelerating, .bouncing: .decelerating
        }
    }

    /// The current velocity, pt/s (0 under a finger).
    public var velocity: Double {
        switch motion {
        case .decelerating(let velocity), .bouncing(_, let velocity): velocity
        case .idle, .tracking, .dragging: 0
        }
    }

    // MARK: Formulas

    /// How far content is shown past an edge for finger travel `x` past it: (1 − 1/(x·c/L + 1))·L.
    public static func rubberBand(_ x: Double, dimension: Double) -> Double {
        (1 - 1 / (x * rubberBandCoefficient / dimension + 1)) * dimension
    }

    /// The finger travel past an edge that shows `offset` past it: the rubber band's inverse.
    public static func rubberBandInverse(_ offset: Double, dimension: Double) -> Double {
        let shown = min(offset, dimension * (1 - 1e-9))
        return shown * dimension / ((dimension - shown) * rubberBandCoefficient)
    }

    /// How far momentum at `velocity` pt/s travels: v/1000 · d/(1 − d) (WWDC 2018, "Designing Fluid Interfaces").
    public static func projectedTravel(velocity: Double, rate: Double) -> Double {
        velocity / 1000 * rate / (1 - rate)
    }

    /// The slowest momentum that still moves: the velocity whose remaining travel is ``restingTravel``.
    public static func minimumVelocity(rate: Double) -> Double {
        restingTravel * 1000 * (1 - rate) / rate
    }

    // MARK: Input

    /// A finger touches down: it catches any motion where the content is (in the rubber band too).
    public mutating func touchDown(bounds: Bounds) {
        motion = .tracking(raw: raw(for: position, bounds: bounds))
    }

    /// The finger moves the content by `delta` (positive: toward the end); past an edge the content follows
    /// the rubber band. Without a touch down first, this is one.
    public mutating func drag(by delta: Double, bounds: Bounds) {
        var start: Double
        switch motion {
        case .tracking(let raw), .dragging(let raw): start = raw
        case .idle, .decelerating, .bouncing: start = raw(for: position, bounds: bounds)
        }
        start += delta
        motion = .dragging(raw: start)
        position = Self.shown(raw: start, bounds: bounds)
    }

    /// The finger lifts moving at `velocity` pt/s: momentum in range, the spring back past an edge.
    public mutating func release(velocity: Double, bounds: Bounds) {
        if position < 0 {
            motion = .bouncing(edge: .top, velocity: velocity)
        } else if position > bounds.maxOffset {
            motion = .bouncing(edge: .bottom, velocity: velocity)
        } else if abs(velocity) < Self.minimumVelocity(rate: decelerationRate) {
            motion = .idle
        } else {
            motion = .decelerating(velocity: velocity)
        }
    }

    /// A programmatic scroll (`scrollToTop`, `scrollTo`): the content is put there and any motion stops.
    public mutating func jump(to target: Double) {
        position = target
        motion = .idle
    }

    /// The content changed under a finger at rest or moving: the position stays, the finger's raw place is
    /// worked out again against the new bounds.
    public mutating func boundsChanged(_ bounds: Bounds) {
        switch motion {
        case .tracking: motion = .tracking(raw: raw(for: position, bounds: bounds))
        case .dragging: motion = .dragging(raw: raw(for: position, bounds: bounds))
        case .idle, .decelerating, .bouncing: break
        }
    }

    // MARK: Time

    /// Moves the motion on by `ms` milliseconds.
    public mutating func advance(ms: Double, bounds: Bounds) {
        var left = ms
        // At most three changes a step: momentum to an edge, the spring, the spring into grown content.
        for _ in 0..<4 where left > 0 {
            switch motion {
            case .idle, .tracking, .dragging:
                return
            case .decelerating(let velocity):
                left = coast(velocity: velocity, ms: left, bounds: bounds)
            case .bouncing(let edge, let velocity):
                left = spring(edge: edge, velocity: velocity, ms: left, bounds: bounds)
            }
        }
    }

    /// Momentum for up to `ms`; returns the time left when it reached an edge (the spring takes over).
    private mutating func coast(velocity v0: Double, ms: Double, bounds: Bounds) -> Double {
        let d = decelerationRate
        if position < 0 || position > bounds.maxOffset {
            motion = .bouncing(edge: position < 0 ? .top : .bottom, velocity: v0)
            return ms
        }
        // Discrete per-millisecond decay, extended to fractions: after t ms the velocity is v0·dᵗ and the
        // travel v0/1000 · d(1 − dᵗ)/(1 − d), which tends to the projection.
        let travel = v0 / 1000 * d * (1 - Self.power(d, ms)) / (1 - d)
        let edge = v0 > 0 ? bounds.maxOffset : 0
        let toEdge = edge - position
        if (v0 > 0 && travel > toEdge) || (v0 < 0 && travel < toEdge) {
            // The time the content reaches the edge: solve the travel for t.
            let t = Self.log(1 - toEdge * 1000 * (1 - d) / (v0 * d)) / Self.log(d)
            let crossing = min(ms, max(0, t))
            position = edge
            motion = .bouncing(edge: v0 > 0 ? .bottom : .top, velocity: v0 * Self.power(d, crossing))
            return ms - crossing
        }
        position += travel
        let velocity = v0 * Self.power(d, ms)
        motion = abs(velocity) < Self.minimumVelocity(rate: d) ? .idle : .decelerating(velocity: velocity)
        return 0
    }

    /// The spring back to `edge` for up to `ms`; returns the time left when grown content took it over.
    private mutating func spring(edge: Edge, velocity v0: Double, ms: Double, bounds: Bounds) -> Double {
        let target = edge == .top ? 0 : bounds.maxOffset
        if edge == .bottom, position < bounds.maxOffset, position >= 0 {
            // The content grew under the bounce: what moves now is momentum inside it.
            motion = .decelerating(velocity: v0)
            return ms
        }
        // Critically damped: x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ωt), v(t) = (v0 − ω·(v0 + ω·x0)·t)·e^(−ωt).
        let omega = Self.bounceFrequency
        let x0 = position - target
        let t = ms / 1000
        let b = v0 + omega * x0
        let decay = Self.exp(-omega * t)
        let x = (x0 + b * t) * decay
        let velocity = (v0 - omega * b * t) * decay
        if abs(x) < Self.restingTravel, x * velocity <= 0 {
            position = target
            motion = .idle
        } else {
            position = target + x
            motion = .bouncing(edge: edge, velocity: velocity)
        }
        return 0
    }

    // MARK: Helpers

    /// Where the finger's unbounded position shows the content.
    static func shown(raw: Double, bounds: Bounds) -> Double {
        if raw < 0 { return -rubberBand(-raw, dimension: bounds.dimension) }
        if raw > bounds.maxOffset {
            return bounds.maxOffset + rubberBand(raw - bounds.maxOffset, dimension: bounds.dimension)
        }
        return raw
    }

    /// The finger's unbounded position that shows `shown`.
    public func raw(for shown: Double, bounds: Bounds) -> Double {
        if shown < 0 { return -Self.rubberBandInverse(-shown, dimension: bounds.dimension) }
        if shown > bounds.maxOffset {
            return bounds.maxOffset + Self.rubberBandInverse(shown - bounds.maxOffset, dimension: bounds.dimension)
        }
        return shown
    }

    // The core imports no Foundation: exp and log from a short series, exact to a few ulps over the ranges
    // used (the JS model uses Math.exp and Math.log; the agreement test holds both to 0.01 pt).
    public static func exp(_ x: Double) -> Double {
        // e^x = (e^(x/2ⁿ))^(2ⁿ) with |x/2ⁿ| < 0.5, the Taylor series there.
        var k = 0
        var r = x
        while abs(r) > 0.5 {
            r /= 2
            k += 1
        }
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term *= r / Double(n)
            sum += term
        }
        for _ in 0..<k { sum *= sum }
        return sum
    }

    static func log(_ x: Double) -> Double {
        precondition(x > 0, "log of a non-positive number")
        // ln x = 2·atanh((m − 1)/(m + 1)) + k·ln 2, with m = x/2ᵏ in [0.75, 1.5).
        var m = x
        var k = 0.0
        while m >= 1.5 {
            m /= 2
            k += 1
        }
        while m < 0.75 {
            m *= 2
            k -= 1
        }
        let y = (m - 1) / (m + 1)
        let y2 = y * y
        var term = y
        var sum = 0.0
        var n = 1.0
        while abs(term / n) > 1e-18 {
            sum += term / n
            term *= y2
            n += 2
        }
        return 2 * sum + k * 0.693_147_180_559_945_3
    }

    public static func power(_ base: Double, _ exponent: Double) -> Double {
        exp(exponent * log(base))
    }
}

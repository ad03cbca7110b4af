import Testing

@testable import ScrollCore

/// The iOS scroll model against its formulas (docs/fidelity.md).
struct IOSScrollModelTests {
    static let phone = IOSScrollModel.Bounds(maxOffset: 10_000, dimension: 844)
    static let frameMs = 1000.0 / 60

    /// Runs the model a frame at a time until it is idle (at most `seconds`); the frames it took.
    static func settle(_ model: inout IOSScrollModel, bounds: IOSScrollModel.Bounds, seconds: Double = 10) -> Int {
        var frames = 0
        while model.motion != .idle, Double(frames) * frameMs < seconds * 1000 {
            model.advance(ms: frameMs, bounds: bounds)
            frames += 1
        }
        return frames
    }

    @Test func aFlingAt2000PointsASecondTravels998Points() {
        var model = IOSScrollModel(position: 1000)
        model.release(velocity: 2000, bounds: Self.phone)
        #expect(model.phase == .decelerating)
        _ = Self.settle(&model, bounds: Self.phone)
        let travel = model.position - 1000
        #expect(abs(travel - 998) <= 9.98, "travel \(travel)")
        #expect(model.phase == .idle)
        #expect(abs(IOSScrollModel.projectedTravel(velocity: 2000, rate: 0.998) - 998) < 1e-9)
    }

    @Test func theFastRateTravelsAFifthAsFar() {
        var model = IOSScrollModel(position: 1000, decelerationRate: IOSScrollModel.fastDecelerationRate)
        model.release(velocity: 2000, bounds: Self.phone)
        _ = Self.settle(&model, bounds: Self.phone)
        // 2 · 0.99/0.01 = 198 pt.
        #expect(abs(model.position - 1000 - 198) <= 1.98)
    }

    @Test func momentumIsTheSameAtAnyFrameRate() {
        var at60 = IOSScrollModel(position: 0)
        var at120 = IOSScrollModel(position: 0)
        at60.release(velocity: 1500, bounds: Self.phone)
        at120.release(velocity: 1500, bounds: Self.phone)
        for _ in 0..<30 { at60.advance(ms: 1000 / 60, bounds: Self.phone) }
        for _ in 0..<60 { at120.advance(ms: 1000 / 120, bounds: Self.phone) }
        #expect(abs(at60.position - at120.position) < 1e-9)
    }

    @Test func slowMomentumStops() {
        var model = IOSScrollModel(position: 500)
        model.release(velocity: 0.9, bounds: Self.phone)
        #expect(model.motion == .idle)
        #expect(abs(IOSScrollModel.minimumVelocity(rate: 0.998) - 1.002) < 0.001)
    }

    @Test func aDragOf200PointsPastTheTopShows97Points() {
        let bounds = IOSScrollModel.Bounds(maxOffset: 3000, dimension: 844)
        var model = IOSScrollModel(position: 0)
        model.touchDown(bounds: bounds)
        #expect(model.phase == .tracking)
        for _ in 0..<20 { model.drag(by: -10, bounds: bounds) }
        #expect(abs(-model.position - 97.3) <= 0.5, "shown \(-model.position)")
        #expect(model.phase == .interacting)
        // The same past the bottom.
        var bottom = IOSScrollModel(position: 3000)
        bottom.drag(by: 200, bounds: bounds)
        #expect(abs(bottom.position - 3000 - 97.3) <= 0.5)
    }

    @Test func aDragThatReturnsRetracesTheRubberBand() {
        var model = IOSScrollModel(position: 0)
        model.drag(by: -300, bounds: Self.phone)
        model.drag(by: 300, bounds: Self.phone)
        #expect(abs(model.position) < 1e-9)
        // A finger that catches a bounce midway continues from the rubber band's inverse.
        var caught = IOSScrollModel(position: 0)
        caught.drag(by: -200, bounds: Self.phone)
        caught.release(velocity: 0, bounds: Self.phone)
        caught.advance(ms: 50, bounds: Self.phone)
        let shown = caught.position
        caught.touchDown(bounds: Self.phone)
        caught.drag(by: 0, bounds: Self.phone)
        #expect(abs(caught.position - shown) < 1e-9)
        #expect(
            abs(IOSScrollModel.rubberBand(IOSScrollModel.rubberBandInverse(60, dimension: 844), dimension: 844) - 60)
                < 1e-9)
    }

    @Test func aReleasePastTheTopSettlesWithinASecond() {
        // The stated settle time: released anywhere in the rubber band, or flung into an end at up to
        // 10,000 pt/s, the spring (ω = 10/s) is within 0.5 pt of the edge in under 1 s.
        var model = IOSScrollModel(position: 0)
        model.drag(by: -2000, bounds: Self.phone)
        model.release(velocity: 0, bounds: Self.phone)
        let frames = Self.settle(&model, bounds: Self.phone)
        #expect(Double(frames) * Self.frameMs <= 1000, "\(frames) frames")
        #expect(model.position == 0)
        #expect(model.motion == .idle)
    }

    @Test func aFlingIntoTheEndOvershootsAndSettlesThere() {
        let bounds = IOSScrollModel.Bounds(maxOffset: 3000, dimension: 844)
        var model = IOSScrollModel(position: 2800)
        model.release(velocity: 10_000, bounds: bounds)
        var deepest = 0.0
        var frames = 0
        while model.motion != .idle, frames < 600 {
            model.advance(ms: Self.frameMs, bounds: bounds)
            deepest = max(deepest, model.position - 3000)
            frames += 1
            if model.position > 3000 { #expect(model.phase == .decelerating) }
        }
        #expect(deepest > 100)
        #expect(model.position == 3000)
        // From reaching the end (a few frames) to resting: under 1 s.
        #expect(Double(frames) * Self.frameMs <= 1100, "\(frames) frames")
    }

    @Test func aBounceAtTheEndBecomesMomentumWhenContentGrows() {
        var model = IOSScrollModel(position: 2900)
        model.release(velocity: 3000, bounds: IOSScrollModel.Bounds(maxOffset: 3000, dimension: 844))
        for _ in 0..<6 {
            model.advance(ms: Self.frameMs, bounds: IOSScrollModel.Bounds(maxOffset: 3000, dimension: 844))
        }
        #expect(model.position > 3000)
        let grown = IOSScrollModel.Bounds(maxOffset: 5000, dimension: 844)
        model.advance(ms: Self.frameMs, bounds: grown)
        guard case .decelerating = model.motion else {
            Issue.record("expected momentum, got \(model.motion)")
            return
        }
    }

    @Test func theSeriesMatchTheirIdentities() {
        #expect(abs(IOSScrollModel.exp(1) - 2.718_281_828_459_045) < 1e-14)
        #expect(abs(IOSScrollModel.log(2.718_281_828_459_045) - 1) < 1e-14)
        #expect(abs(IOSScrollModel.power(0.998, 1000) - 0.135_064_522_2) < 1e-9)
        #expect(abs(IOSScrollModel.exp(-30) - 9.357_622_968_840_175e-14) < 1e-24)
    }
}

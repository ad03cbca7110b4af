import ScrollCore
import Testing

@testable import PlaygroundServer

/// The geometry pace on a manual clock (nanoseconds).
struct GeometryPacerTests {
    static let millisecond: Int64 = 1_000_000

    /// Feeds `count` geometries `spacing` ns apart from `start`; returns the arrivals.
    static func feed(
        _ pacer: inout GeometryPacer<Int>, count: Int, from start: Int64 = 0, spacing: Int64, firstValue: Int = 1
    ) -> [GeometryPacer<Int>.Arrival] {
        (0..<count).map { pacer.arrive(firstValue + $0, at: start + Int64($0) * spacing) }
    }

    static func applied(_ arrivals: [GeometryPacer<Int>.Arrival]) -> [Int] {
        arrivals.compactMap {
            if case .apply(let value, _) = $0 { value } else { nil }
        }
    }

    @Test func atTheRateEverythingIsAppliedAtOnce() {
        var pacer = GeometryPacer<Int>(ratePerSecond: 240, burst: 4)
        // 240 a second, evenly spaced (4.17 ms), for two seconds.
        let arrivals = Self.feed(&pacer, count: 480, spacing: 1_000_000_000 / 240 + 1)
        #expect(Self.applied(arrivals) == Array(1...480))
        #expect(pacer.coalescedCount == 0)
    }

    @Test func aBurstWithinTheAllowanceIsAppliedAtOnce() {
        var pacer = GeometryPacer<Int>(ratePerSecond: 240, burst: 24)
        let arrivals = Self.feed(&pacer, count: 24, spacing: 0)
        #expect(Self.applied(arrivals) == Array(1...24))
    }

    @Test func beyondTheRateTheNewestHeldWinsAndOneWarningASecond() {
        var pacer = GeometryPacer<Int>(ratePerSecond: 240, burst: 2)
        let arrivals = Self.feed(&pacer, count: 10, spacing: 0)
        #expect(Self.applied(arrivals) == [1, 2])
        guard case .held(let flushAfter, let warn) = arrivals[2] else {
            Issue.record("third geometry not held: \(arrivals[2])")
            return
        }
        #expect(flushAfter == 4)  // 1/240 s, rounded down
        #expect(!warn)
        // Later ones replace the held one: a flush is already scheduled; only the first replacement warns.
        let later = arrivals[3...].map { arrival -> Bool? in
            if case .held(nil, let warn) = arrival { warn } else { nil }
        }
        #expect(later == [true, false, false, false, false, false, false])
        #expect(pacer.coalescedCount == 7)
        #expect(pacer.flushDue(at: 4 * Self.millisecond) == 10)
        #expect(!pacer.isHolding)

        // Still flooding within the same second: held again, no new warning.
        let second = Self.feed(&pacer, count: 3, from: 5 * Self.millisecond, spacing: 0, firstValue: 11)
        #expect(Self.warnings(second) == 0)
        // A second after the warning, the next replacement warns again (the burst of 2 passes first).
        _ = pacer.flushDue(at: 10 * Self.millisecond)
        let third = Self.feed(&pacer, count: 4, from: 1_000 * Self.millisecond, spacing: 0, firstValue: 20)
        #expect(Self.applied(third) == [20, 21])
        #expect(Self.warnings(third) == 1)
    }

    @Test func aFloodIsAppliedAtTheRateOnAverage() {
        var pacer = GeometryPacer<Int>(ratePerSecond: 240, burst: 1)
        var applied = 0
        var flushAt: Int64?
        // 10,000 a second for two seconds; flushes fire when asked.
        for index in 0..<20_000 {
            let now = Int64(index) * 100_000
            if let due = flushAt, due <= now {
                if pacer.flushDue(at: due) != nil { applied += 1 }
                flushAt = nil
            }
            switch pacer.arrive(index, at: now) {
            case .apply: applied += 1
            case .held(let after?, _): flushAt = now + Int64(after) * Self.millisecond
            case .held(nil, _): break
            }
        }
        #expect((470...490).contains(applied), "applied \(applied) in 2 s")
    }

    @Test func takingTheHeldGeometryEarlyKeepsOrderAndCapsTheDebt() {
        var pacer = GeometryPacer<Int>(ratePerSecond: 240, burst: 1)
        _ = pacer.arrive(1, at: 0)
        _ = pacer.arrive(2, at: 0)
        #expect(pacer.takeHeld(at: 0) == 2)
        #expect(pacer.takeHeld(at: 0) == nil)
        // The scheduled flush finds nothing left.
        #expect(pacer.flushDue(at: 4 * Self.millisecond) == nil)
        // Many early takes cannot push the next geometry further than two tokens (8.4 ms) away.
        for value in 3..<100 {
            _ = pacer.arrive(value, at: 5 * Self.millisecond)
            #expect(pacer.takeHeld(at: 5 * Self.millisecond) == value)
        }
        guard case .apply(100, warn: false) = pacer.arrive(100, at: 5 * Self.millisecond + 8_400_000) else {
            Issue.record("the debt of early takes was not capped")
            return
        }
    }

    /// The host asks `admitsAtOnce` before `arrive`: over bursts, floods, pauses, early takes and flushes, it
    /// answers exactly as `arrive` alone does, and leaves the pacer where `arrive` leaves it.
    @Test func admittingAtOnceAnswersAsArriving() {
        var generator = SeededGenerator(seed: 5)
        var arriving = GeometryPacer<Int>(ratePerSecond: 60, burst: 3)
        var admitting = arriving
        var now: Int64 = 0
        var admittedAtOnce = 0
        for value in 0..<5_000 {
            now += [0, 1, 4, 16, 17, 40, 300][Int.random(in: 0..<7, using: &generator)] * Self.millisecond
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                #expect(admitting.takeHeld(at: now) == arriving.takeHeld(at: now))
            case 1:
                #expect(admitting.flushDue(at: now) == arriving.flushDue(at: now))
            default:
                let expected = "\(arriving.arrive(value, at: now))"
                if admitting.admitsAtOnce(at: now) {
                    admittedAtOnce += 1
                    #expect(expected == "\(GeometryPacer<Int>.Arrival.apply(value, warn: false))")
                } else {
                    #expect("\(admitting.arrive(value, at: now))" == expected)
                }
            }
            #expect(admitting.isHolding == arriving.isHolding)
            #expect(admitting.coalescedCount == arriving.coalescedCount)
        }
        // Both ways were taken often.
        #expect(admittedAtOnce > 1_000)
        #expect(arriving.coalescedCount > 100)
    }

    static func warnings(_ arrivals: [GeometryPacer<Int>.Arrival]) -> Int {
        arrivals.filter {
            switch $0 {
            case .apply(_, let warn), .held(_, let warn): warn
            }
        }.count
    }
}

import Testing

@testable import ScrollCore

/// The one conversion of a parsed number to an integer (`Double.exactInteger`) and of a computed position
/// (`clampedInteger(in:)`): neither traps, whatever the double.
struct DoubleIntegerTests {
    @Test(
        arguments: [
            (0.0, 0), (-0.0, 0), (42, 42), (-7, -7), (9_007_199_254_740_991, 9_007_199_254_740_991),
            (-9_007_199_254_740_991, -9_007_199_254_740_991),
        ] as [(Double, Int)])
    func wholeNumbersWithinTheExactRangeConvert(value: Double, expected: Int) {
        #expect(value.exactInteger == expected)
    }

    @Test(arguments: [0.5, -1.25, 9_007_199_254_740_992, 1e300, -1e300, .infinity, -.infinity, .nan] as [Double])
    func everythingElseIsNil(value: Double) {
        #expect(value.exactInteger == nil)
    }

    @Test func aComputedPositionIsHeldWithinItsRange() {
        #expect((12.7).clampedInteger(in: 0...99) == 12)
        #expect((-3.5).clampedInteger(in: 0...99) == 0)
        #expect((1e300).clampedInteger(in: 0...99) == 99)
        #expect(Double.infinity.clampedInteger(in: 0...99) == 99)
        #expect((-Double.infinity).clampedInteger(in: 0...99) == 0)
        #expect(Double.nan.clampedInteger(in: 0...99) == 0)
        #expect((1e300).clampedInteger(in: Int.min...Int.max) == .max)
        #expect((-1e300).clampedInteger(in: Int.min...Int.max) == .min)
    }
}

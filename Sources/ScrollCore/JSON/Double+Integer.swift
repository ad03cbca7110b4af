/// The one way a parsed number (JSON's doubles) becomes an integer: `Int(someDouble)` traps on a value out
/// of range, NaN or infinity, and one such value from a client or a trace would take the server down.
extension Double {
    /// The largest integer every JSON reader holds exactly (2^53 − 1), and so the bound of every integer read.
    public static let largestExactInteger = 9_007_199_254_740_991

    /// The value as an integer, when it is a whole number within ±``largestExactInteger``; nil for a
    /// fraction, a larger magnitude, NaN or infinity.
    public var exactInteger: Int? {
        guard let value = Int64(exactly: self), abs(value) <= Int64(Self.largestExactInteger) else { return nil }
        return Int(value)
    }

    /// A computed position as an integer: rounded down and held within `range` (NaN gives its lower bound),
    /// for values made from a page's geometry, which a reply never refuses.
    public func clampedInteger(in range: ClosedRange<Int>) -> Int {
        guard !isNaN else { return range.lowerBound }
        let floor = rounded(.down)
        if floor <= Double(range.lowerBound) { return range.lowerBound }
        if floor >= Double(range.upperBound) { return range.upperBound }
        return Int(floor)
    }
}

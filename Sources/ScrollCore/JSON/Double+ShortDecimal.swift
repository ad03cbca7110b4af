/// A number written as a short decimal: `units` with a point before its last `fractionDigits` digits.
struct ShortDecimal: Equatable {
    var negative: Bool
    var units: UInt64
    var fractionDigits: Int
}

extension Double {
    /// Most fraction digits ``shortDecimal`` tries.
    static let shortDecimalMaxFractionDigits = 4

    /// The digits `description` writes for this value when it is the double nearest to a decimal with at
    /// most four fraction digits (0.6, -12.25, 0.0625) and 0.0001 ≤ |value| < 1e9; nil for any other value
    /// (the caller then writes `description`, about 440 instructions with its `String`; this is about 40).
    ///
    /// Why the digits are `description`'s: `description` writes the fewest significant digits that read back
    /// as the value, in plain notation in this range. The digits found here read back as the value (`units /
    /// scale` is a correctly rounded division of two exact doubles, and equals it), and no shorter decimal
    /// does: one with fewer fraction digits would have been found at its own `scale` first, as its units lie
    /// within 0.001 of the computed `magnitude * scale` (the value's half-ulp times 10⁴ is below 1e-4, the
    /// product's rounding below 1e-3 under 1e13). Two decimals of the same length cannot both read back: they
    /// are 1e-4 apart at least, a double's reading interval here is under 1.2e-7 wide. StateEncodingTests
    /// checks the bytes against `description` over many values and edges.
    var shortDecimal: ShortDecimal? {
        let magnitude = abs(self)
        // NaN fails both comparisons.
        guard magnitude >= 0.0001, magnitude < 1e9 else { return nil }
        var scale = 1.0
        for fractionDigits in 1...Self.shortDecimalMaxFractionDigits {
            scale *= 10
            let units = (magnitude * scale).rounded()
            if units / scale == magnitude {
                return ShortDecimal(negative: self < 0, units: UInt64(units), fractionDigits: fractionDigits)
            }
        }
        return nil
    }
}

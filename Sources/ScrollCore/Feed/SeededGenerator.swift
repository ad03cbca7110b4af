/// A small, fast, seedable generator (SplitMix64), so latency, jitter, failures and the synthetic feed
/// are reproducible from `seed` alone.
public struct SeededGenerator: RandomNumberGenerator, Equatable, Hashable, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A stateless hash of `seed` and `index`, for values that must not depend on draw order.
    public static func mix(_ seed: UInt64, _ index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        return generator.next()
    }
}

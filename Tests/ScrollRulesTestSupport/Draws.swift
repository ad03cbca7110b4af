/// A generator that draws the given values, in order, then 0. With no values (0: no jitter) a retry waits the
/// shortest its backoff allows, half its ceiling.
public struct Draws: RandomNumberGenerator {
    public var values: [UInt64]

    public init(_ values: [UInt64] = []) { self.values = values }

    public mutating func next() -> UInt64 { values.isEmpty ? 0 : values.removeFirst() }
}

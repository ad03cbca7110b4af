/// A generator that draws the given values, in order, then 0. With no values (0: no jitter) a retry waits the
/// shortest its backoff allows, half its ceiling.
struct Draws: RandomNumberGenerator {
    var values: [UInt64]

    init(_ values: [UInt64] = []) { self.values = values }

    mutating func next() -> UInt64 { values.isEmpty ? 0 : values.removeFirst() }
}

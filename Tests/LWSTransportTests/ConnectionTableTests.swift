import Testing

@testable import LWSTransport

@Suite struct ConnectionTableTests {
    /// A fixed sequence of numbers, so a failure replays the same way (SplitMix64).
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Numbered connections opening and closing at random, as the server's do, hold the same values as a
    /// `Dictionary` after every step: lookups of present and absent numbers, removals, growth past the
    /// first 16 slots, and runs that wrap around the end of the slots.
    @Test func holdsWhatADictionaryHoldsThroughOpensAndCloses() {
        var random = SplitMix(state: 32)
        var table = ConnectionTable<String>()
        var model: [UInt64: String] = [:]
        var lastNumber: UInt64 = 0
        for step in 0..<5_000 {
            if model.isEmpty || Int.random(in: 0..<100, using: &random) < 55 {
                lastNumber += 1
                table[lastNumber] = "c\(lastNumber)"
                model[lastNumber] = "c\(lastNumber)"
            } else {
                let number = model.keys.randomElement(using: &random)!
                #expect(table.removeValue(forKey: number) == model.removeValue(forKey: number), "step \(step)")
            }
            #expect(table.count == model.count, "step \(step)")
            let probe = UInt64.random(in: 0...(lastNumber + 2), using: &random)
            #expect(table[probe] == model[probe], "step \(step), number \(probe)")
        }
        for number in 0...(lastNumber + 2) {
            #expect(table[number] == model[number], "number \(number)")
        }
        #expect(table.values.sorted() == model.values.sorted())
    }

    /// Numbers that share their low bits (16 slots apart) probe past each other, and removing the first of
    /// such a run leaves the others reachable.
    @Test func removalKeepsTheRestOfARunReachable() {
        var table = ConnectionTable<UInt64>()
        for number: UInt64 in [3, 19, 35, 4] { table[number] = number }
        #expect(table.removeValue(forKey: 3) == 3)
        #expect(table[19] == 19)
        #expect(table[35] == 35)
        #expect(table[4] == 4)
        #expect(table[3] == nil)
        #expect(table.removeValue(forKey: 3) == nil)
        table[19] = nil
        #expect(table[35] == 35)
        #expect(table.count == 2)
        #expect(!table.isEmpty)
    }
}

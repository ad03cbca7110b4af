/// Values by connection number, found without hashing: the server numbers its connections one after
/// another, so a number's low bits already spread them over the slots. A `Dictionary` runs SipHash on
/// every lookup, and the server looks a connection up for every message it reads and every answer it sends.
///
/// Open addressing with linear probing, at most half full; a removal shifts the entries after it back, so
/// no lookup ever walks over a deleted slot.
struct ConnectionTable<Value> {
    private var slots: [(number: UInt64, value: Value)?]
    /// How many values the table holds.
    private(set) var count = 0

    /// An empty table.
    init() {
        slots = Array(repeating: nil, count: 16)
    }

    /// True when the table holds nothing.
    var isEmpty: Bool { count == 0 }

    /// Every value, in no particular order.
    var values: [Value] { slots.compactMap { $0?.value } }

    private var mask: Int { slots.count - 1 }

    private func home(_ number: UInt64) -> Int { Int(truncatingIfNeeded: number) & mask }

    /// The value of connection `number`; setting nil removes it.
    subscript(number: UInt64) -> Value? {
        get {
            var index = home(number)
            while let entry = slots[index] {
                if entry.number == number { return entry.value }
                index = (index + 1) & mask
            }
            return nil
        }
        set {
            if let newValue {
                insert(newValue, for: number)
            } else {
                removeValue(forKey: number)
            }
        }
    }

    private mutating func insert(_ value: Value, for number: UInt64) {
        var index = home(number)
        while let entry = slots[index] {
            if entry.number == number {
                slots[index] = (number, value)
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = (number, value)
        count += 1
        if count * 2 > slots.count { grow() }
    }

    /// Removes and returns the value of connection `number`, if any.
    @discardableResult
    mutating func removeValue(forKey number: UInt64) -> Value? {
        var index = home(number)
        while let entry = slots[index] {
            if entry.number == number { break }
            index = (index + 1) & mask
        }
        guard let removed = slots[index] else { return nil }
        slots[index] = nil
        count -= 1
        // Move back each later entry of the run that could not sit in its home slot because of the hole:
        // one whose home is not between the hole and where it sits now (cyclically).
        var hole = index
        var probe = (index + 1) & mask
        while let entry = slots[probe] {
            let homeToProbe = (probe - home(entry.number)) & mask
            let holeToProbe = (probe - hole) & mask
            if homeToProbe >= holeToProbe {
                slots[hole] = entry
                slots[probe] = nil
                hole = probe
            }
            probe = (probe + 1) & mask
        }
        return removed.value
    }

    private mutating func grow() {
        let entries = slots.compactMap { $0 }
        slots = Array(repeating: nil, count: slots.count * 2)
        count = 0
        for entry in entries { insert(entry.value, for: entry.number) }
    }
}

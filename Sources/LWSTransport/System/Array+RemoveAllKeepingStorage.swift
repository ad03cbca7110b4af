extension Array {
    /// Empties the array and keeps its storage: `removeAll(keepingCapacity: true)` goes through the generic
    /// `replaceSubrange` (about 70 instructions for one element), and the lists emptied this way hold one or two.
    mutating func removeAllKeepingStorage() {
        while popLast() != nil {}
    }
}

/// The one timer queue of a feed's runtime: timers by due time, ties in the order they were scheduled. The
/// session (and so a replay and the lab, which read the session's), and `FeedModel` keep their timers here
/// and nowhere else.
package struct TimerQueue<ID: Hashable & Sendable>: Equatable, Sendable {
    /// A timer waiting for its time.
    package struct Entry: Equatable, Sendable {
        /// When it is due (the caller's clock, ms).
        package var due: Int64
        /// Its place among timers due at the same time: the order they were scheduled.
        package var order: Int
        /// The timer.
        package var id: ID
    }

    /// The timers, earliest first (ties in scheduling order).
    package private(set) var entries: [Entry] = []
    private var scheduled = 0

    /// An empty queue.
    package init() {}

    /// The earliest timer, if any.
    package var next: Entry? { entries.first }

    /// Whether `id` is waiting.
    package func contains(_ id: ID) -> Bool { entries.contains { $0.id == id } }

    /// Queues `id` for `due`; a timer of the same id already waiting is replaced (it is rescheduled).
    package mutating func schedule(_ id: ID, at due: Int64) {
        entries.removeAll { $0.id == id }
        let entry = Entry(due: due, order: scheduled, id: id)
        scheduled += 1
        // After every entry due at or before it: those were scheduled earlier or are due earlier.
        let index = entries.firstIndex { $0.due > due } ?? entries.endIndex
        entries.insert(entry, at: index)
    }

    /// Drops `id`; returns whether it was waiting.
    @discardableResult
    package mutating func cancel(_ id: ID) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// Drops every timer `matching` says so of.
    package mutating func cancelAll(where matching: (ID) -> Bool) {
        entries.removeAll { matching($0.id) }
    }
}

import Foundation
import SystemCalls

/// Standard output for event lines, written by a thread of its own from a bounded buffer, so a terminal
/// that stops reading (a paused `less`, Ctrl-S, a parent that never reads its pipe) never blocks the
/// service thread. When the buffer is full, lines are dropped and counted; once the terminal reads
/// again, one line says how many. The event files and the ring keep every event regardless.
final class TerminalWriter: @unchecked Sendable {
    // @unchecked: every mutable member is guarded by `condition`.

    /// Bytes queued for the terminal before lines are dropped.
    static let defaultCapacity = 1 << 20

    private let descriptor: Int32
    private let capacity: Int
    private let condition = NSCondition()
    private var buffer: [UInt8] = []
    private var dropped = 0
    /// The writing thread holds a batch it has not finished writing.
    private var writing = false

    init(descriptor: Int32 = Syscall.standardOutput, capacity: Int = defaultCapacity) {
        self.descriptor = descriptor
        self.capacity = capacity
        let thread = Thread { [self] in writeForever() }
        thread.name = "terminal"
        thread.start()
    }

    /// Queues one line (a newline is added); never blocks on the terminal.
    func writeLine(_ bytes: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        guard buffer.count + bytes.count + 1 <= capacity else {
            dropped += 1
            return
        }
        buffer += bytes
        buffer.append(0x0A)
        condition.signal()
    }

    /// Waits at most `timeout` for every queued line to be written; false if the terminal is still
    /// not reading. For the end of a run, so the last events show when the terminal reads.
    @discardableResult
    func drain(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !buffer.isEmpty || writing || dropped > 0 {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    private func writeForever() {
        while true {
            condition.lock()
            while buffer.isEmpty && dropped == 0 { condition.wait() }
            let batch = buffer
            let droppedBefore = dropped
            buffer.removeAll(keepingCapacity: true)
            dropped = 0
            writing = true
            condition.unlock()

            // Lines are dropped only while the buffer is full, so every dropped line came after this batch.
            // A terminal that is gone loses its lines; the events still reach their other sinks.
            writeAll(batch, to: descriptor)
            if droppedBefore > 0 {
                writeAll(Array(Self.droppedNotice(droppedBefore).utf8), to: descriptor)
            }

            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }

    static func droppedNotice(_ count: Int) -> String {
        "scroll-playground: the terminal was not reading: \(count) event line\(count == 1 ? " was" : "s were") not shown"
            + " (/api/events and --log-dir keep every event)\n"
    }
}

import CSystemCalls
import Synchronization
import SystemCalls

/// The floor's client side: N loopback connections to the floor's server, each sending `FloorFrame`s
/// and timing their echoes. Paced (`rate` > 0): a driver thread spreads the frames over the period as
/// `load` does, so the server batches as much as it does under `load`. Closed loop (`rate` 0): each
/// connection sends its next frame as soon as its answer is back (one connection: ping-pong).
final class FloorClient: @unchecked Sendable {
    // @unchecked: `sockets`, `epoll` and the `let`s are set in init; `Sender`'s and the reader's `var`s are
    // touched by one thread each while they run, and read by the main thread after joining them.

    let board: SessionBoard
    private let sockets: [Int32]
    private let epoll: Int32
    let sender: Sender
    let windowStart = Atomic<UInt64>(.max)
    let windowEnd = Atomic<UInt64>(.max)
    private let stopping = Atomic<Bool>(false)
    /// Frames sent in the window whose answer has arrived.
    let answered = Atomic<Int>(0)

    /// Round trips of frames sent in the window (ns); answers that arrived in the window; connections
    /// the server closed or that failed.
    private(set) var roundTrips: [UInt64] = []
    private(set) var answersInWindow = 0
    private(set) var closed = 0
    private var tally: EchoTally

    /// Connects `count` sessions to the floor's server on `port`.
    init(count: Int, port: Int, expectedSamples: Int) throws(SystemCallError) {
        board = SessionBoard(count: count)
        epoll = try Syscall.epollCreate()
        var sockets: [Int32] = []
        do {
            for index in 0..<count {
                let fd = try Syscall.connectToLoopback(port: UInt16(port))
                sockets.append(fd)
                try Syscall.epollWatch(epoll, fd, token: UInt64(index))
                board.setStatus(index, .ready)
            }
        } catch {
            for fd in sockets { Syscall.close(fd) }
            Syscall.close(epoll)
            throw error
        }
        self.sockets = sockets
        sender = Sender(sockets: sockets, board: board)
        tally = EchoTally(connections: count)
        roundTrips.reserveCapacity(expectedSamples)
    }

    /// Reads answers until `stop()`; in closed loop sends each connection's next frame until the window ends.
    func read(closedLoop: Bool) {
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 1024)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer {
            events.deallocate()
            buffer.deallocate()
        }
        let start = windowStart.load(ordering: .relaxed)
        let end = windowEnd.load(ordering: .relaxed)
        while !stopping.load(ordering: .relaxed) {
            guard let ready = try? Syscall.epollWait(epoll, events, timeoutMilliseconds: 20) else { break }
            for event in events[..<ready] {
                let index = Int(event.data.u64)
                guard board.status(index) == .ready else { continue }
                switch Syscall.receive(sockets[index], into: buffer) {
                case .bytes(let count):
                    let now = Monotonic.now()
                    let seqs = tally.received(count, on: index)
                    guard !seqs.isEmpty else { continue }
                    if now >= start, now < end { answersInWindow += seqs.count }
                    var counted = 0
                    for seq in seqs {
                        let sent = board.sendTime(session: index, seq: seq)
                        if sent >= start, sent < end {
                            roundTrips.append(now &- sent)
                            counted += 1
                        }
                    }
                    if counted > 0 { answered.add(counted, ordering: .relaxed) }
                    board.setAcked(index, seqs.upperBound - 1)
                    if closedLoop, now < end { sender.send(index, window: start..<end) }
                case .wouldBlock:
                    continue
                case .closed, .failed:
                    closed += 1
                    board.setStatus(index, .ended)
                    Syscall.epollForget(epoll, sockets[index])
                }
            }
        }
    }

    /// Ends `read` within its 20 ms wait.
    func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    /// Closes every connection (after the reader and the driver have been joined).
    func closeAll() {
        for fd in sockets { Syscall.close(fd) }
        Syscall.close(epoll)
    }

    /// Who sends frames: the driver thread when paced, the reader when in closed loop; never both.
    final class Sender: @unchecked Sendable {
        // @unchecked: touched by the one sending thread while it runs, read after it is joined.
        private let sockets: [Int32]
        private let board: SessionBoard
        private var seqs: [Int]
        /// Sent in the window; frames skipped because the driver was over a frame late, or because
        /// `SessionBoard.backlogLimit` frames of the connection were unanswered.
        let sent = Atomic<Int>(0)
        private(set) var skippedLate = 0
        private(set) var skippedBacklog = 0
        private(set) var maxLag: UInt64 = 0
        private(set) var failed = 0

        init(sockets: [Int32], board: SessionBoard) {
            self.sockets = sockets
            self.board = board
            seqs = [Int](repeating: 0, count: sockets.count)
        }

        /// Sends connection `index` its next frame, unless it has too many unanswered.
        func send(_ index: Int, window: Range<UInt64>) {
            guard board.status(index) == .ready else { return }
            let now = Monotonic.now()
            if seqs[index] - board.acked(index) >= SessionBoard.backlogLimit {
                if window.contains(now) { skippedBacklog += 1 }
                return
            }
            seqs[index] += 1
            board.recordSend(session: index, seq: seqs[index], at: now)
            let result = FloorFrame.bytes.withUnsafeBytes { Syscall.sendAll(sockets[index], $0) }
            guard case .bytes = result else {
                failed += 1
                return
            }
            if window.contains(now) { sent.add(1, ordering: .relaxed) }
        }

        /// Sends connection `index`'s frame due `lag` ns ago, or drops it when that is over a `period`.
        func tick(_ index: Int, lag: UInt64, period: Double, window: Range<UInt64>) {
            maxLag = max(maxLag, lag)
            if Double(lag) > period {
                if window.contains(Monotonic.now()) { skippedLate += 1 }
                return
            }
            send(index, window: window)
        }

        /// Plays every connection at `rate` Hz from `start` to `end` on the calling thread, on `load`'s schedule.
        func drive(rate: Double, start: UInt64, end: UInt64, window: Range<UInt64>) {
            let pacer = FramePacer(rate: rate, sessions: sockets.count)
            pacer.run(start: start, end: end) { index, _, lag in
                tick(index, lag: lag, period: pacer.period, window: window)
            }
        }
    }
}

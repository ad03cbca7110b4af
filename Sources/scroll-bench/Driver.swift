import LWSClient

/// Plays every session's gesture at the frame rate from one thread: session `i` sends its frames at
/// `i / N` of the frame period, so the load is spread evenly over time as independent pages would be.
final class Driver: @unchecked Sendable {
    // @unchecked: the `var`s are touched only by the driver thread while it runs, and read by the
    // main thread after joining it.

    private let board: SessionBoard
    private let client: WebSocketClientContext
    private let connections: [ClientConnectionID]
    private let rate: Double
    /// Each session sends a ping this often (in frames).
    private let pingEveryFrames: Int
    private let origin: UInt64

    private var scripts: [GestureScript]
    private var seqs: [Int]
    private var pingIDs: [Int]

    /// Sent in the measurement window.
    private(set) var geometrySent = 0
    private(set) var pingsSent = 0
    private(set) var bytesSent = 0
    /// Frames not sent in the window: the driver was more than a frame late (a browser drops such
    /// frames too), or the session had `backlogLimit` geometries unanswered.
    private(set) var skippedLate = 0
    private(set) var skippedBacklog = 0
    /// How late the driver got behind its schedule, worst case (ns).
    private(set) var maxLag: UInt64 = 0

    init(
        board: SessionBoard, client: WebSocketClientContext, connections: [ClientConnectionID], rate: Double,
        origin: UInt64
    ) {
        self.board = board
        self.client = client
        self.connections = connections
        self.rate = rate
        self.origin = origin
        pingEveryFrames = max(1, Int(rate.rounded()))
        // Staggered starts (0…2 s at rest) so sessions are spread over the whole gesture loop.
        scripts = (0..<connections.count).map { GestureScript(restFrames: 1 + ($0 &* 7919) % 120) }
        seqs = [Int](repeating: 0, count: connections.count)
        pingIDs = [Int](repeating: 0, count: connections.count)
    }

    /// Sends frames from `start` until `end` (monotonic ns), counting those in `window`.
    func run(start: UInt64, end: UInt64, window: Range<UInt64>) {
        let pacer = FramePacer(rate: rate, sessions: connections.count)
        pacer.run(start: start, end: end) { session, cycle, lag in
            tick(session, cycle: cycle, lag: lag, period: pacer.period, window: window)
        }
    }

    private func tick(_ session: Int, cycle: Int, lag: UInt64, period: Double, window: Range<UInt64>) {
        maxLag = max(maxLag, lag)
        guard board.status(session) == .ready else { return }
        let contentHeight = Double(board.itemCount(session)) * GestureScript.averageItemHeight
        let phase = scripts[session].advance(contentHeight: contentHeight)
        let now = Monotonic.now()
        let inWindow = window.contains(now)
        if Double(lag) > period {
            if inWindow { skippedLate += 1 }
            return
        }
        if seqs[session] - board.acked(session) >= SessionBoard.backlogLimit {
            if inWindow { skippedBacklog += 1 }
            return
        }
        seqs[session] += 1
        let seq = seqs[session]
        let frame = ClientFrames.geometry(
            seq: seq, milliseconds: Double(now - origin) / 1e6, offset: scripts[session].offset,
            contentHeight: contentHeight, phase: phase)
        let sentAt = Monotonic.now()
        board.recordSend(session: session, seq: seq, at: sentAt)
        client.send(frame, to: connections[session])
        if inWindow {
            geometrySent += 1
            bytesSent += frame.count
        }
        if (cycle + session) % pingEveryFrames == 0 {
            pingIDs[session] += 1
            let ping = ClientFrames.ping(id: pingIDs[session])
            board.recordPing(session: session, id: pingIDs[session], at: Monotonic.now())
            client.send(ping, to: connections[session])
            if inWindow {
                pingsSent += 1
                bytesSent += ping.count
            }
        }
    }
}

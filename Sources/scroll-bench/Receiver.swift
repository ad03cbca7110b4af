import LWSClient
import Synchronization

/// The client side of every session, on the client context's service thread: says hello when a
/// connection opens, and matches each `state.ack` and `pong` to the time its request was sent.
final class Receiver: @unchecked Sendable {
    // @unchecked: the `var`s are touched only on the client's service thread while it runs, and read
    // by the main thread only after `WebSocketClientContext.shutdown()` has joined that thread; the
    // `let`s are immutable or atomic.

    let board: SessionBoard
    private let hello: [UInt8]

    /// Samples count for requests sent in `[windowStart, windowEnd)` (monotonic ns); messages in
    /// are counted when they arrive in it.
    let windowStart = Atomic<UInt64>(.max)
    let windowEnd = Atomic<UInt64>(.max)
    /// Set before the bench closes its connections: closes from then on are expected.
    let ending = Atomic<Bool>(false)
    /// Set when the grace for late answers is over: later answers count as unanswered.
    let graceOver = Atomic<Bool>(false)

    let opened = Atomic<Int>(0)
    let ready = Atomic<Int>(0)
    let ended = Atomic<Int>(0)
    /// Geometries sent in the window whose answer has arrived.
    let answered = Atomic<Int>(0)

    private var lastAck: [Int]
    private var lastPong: [Int]
    /// Geometry → state round trips and ping → pong times, in nanoseconds.
    private(set) var roundTrips: [UInt64] = []
    private(set) var pongTimes: [UInt64] = []
    /// Messages received in the window, by kind, and their bytes.
    private(set) var receivedByKind = [Int](repeating: 0, count: MessageScanner.Kind.allCases.count)
    private(set) var receivedBytes = 0
    /// The kinds of message that arrived at all (for an error when no session was welcomed).
    private(set) var receivedKinds: Set<String> = []
    /// Geometries answered by the `state` of a later one (the server coalesced or skipped their own).
    private(set) var superseded = 0
    private(set) var errorCodes: [String: Int] = [:]
    private(set) var connectFailures: [String: Int] = [:]
    private(set) var unexpectedCloses: [String: Int] = [:]

    init(board: SessionBoard, preset: String?, expectedSamples: Int) {
        self.board = board
        hello = ClientFrames.hello(preset: preset)
        lastAck = [Int](repeating: 0, count: board.count)
        lastPong = [Int](repeating: 0, count: board.count)
        roundTrips.reserveCapacity(expectedSamples)
    }

    /// One event of session `index`'s connection.
    func handle(_ index: Int, _ id: ClientConnectionID, _ event: ClientEvent, client: WebSocketClientContext) {
        switch event {
        case .opened:
            opened.add(1, ordering: .relaxed)
            board.setStatus(index, .helloSent)
            client.send(hello, to: id)
        case .text(let text):
            received(index, text)
        case .binary:
            receivedByKind[MessageScanner.Kind.other.rawValue] += 1
        case .closed(let code):
            board.setStatus(index, .ended)
            ended.add(1, ordering: .relaxed)
            if !ending.load(ordering: .relaxed) {
                unexpectedCloses[code.map { String($0) } ?? "dropped", default: 0] += 1
            }
        case .failed(let error):
            board.setStatus(index, .ended)
            ended.add(1, ordering: .relaxed)
            connectFailures["\(error)", default: 0] += 1
        }
    }

    private func received(_ index: Int, _ text: String) {
        let now = Monotonic.now()
        let inWindow = now >= windowStart.load(ordering: .relaxed) && now < windowEnd.load(ordering: .relaxed)
        var text = text
        text.withUTF8 { bytes in
            let message = MessageFields(bytes)
            if receivedKinds.count < MessageScanner.Kind.allCases.count { receivedKinds.insert(message.kind.name) }
            if inWindow {
                receivedByKind[message.kind.rawValue] += 1
                receivedBytes += bytes.count
            }
            switch message.kind {
            case .state:
                if let ack = message.ack { acknowledge(index, ack, at: now) }
            case .pong:
                if let id = message.id { pong(index, id, at: now) }
            case .items:
                if let total = message.total { board.setItemCount(index, total) }
            case .welcome:
                if board.status(index) == .helloSent {
                    board.setStatus(index, .ready)
                    ready.add(1, ordering: .relaxed)
                }
            case .error:
                errorCodes[message.code ?? "?", default: 0] += 1
            case .event, .command, .other:
                break
            }
        }
    }

    /// A state answers its `ack` and every earlier geometry still unanswered.
    private func acknowledge(_ index: Int, _ ack: Int, at now: UInt64) {
        let last = lastAck[index]
        guard ack > last else { return }
        if graceOver.load(ordering: .relaxed) {
            lastAck[index] = ack
            board.setAcked(index, ack)
            return
        }
        let start = windowStart.load(ordering: .relaxed)
        let end = windowEnd.load(ordering: .relaxed)
        var seq = max(last + 1, ack - SessionBoard.ringSize + 1)
        var counted = 0
        while seq <= ack {
            let sent = board.sendTime(session: index, seq: seq)
            if sent >= start, sent < end {
                roundTrips.append(now &- sent)
                counted += 1
                if seq < ack { superseded += 1 }
            }
            seq += 1
        }
        if counted > 0 { answered.add(counted, ordering: .relaxed) }
        lastAck[index] = ack
        board.setAcked(index, ack)
    }

    private func pong(_ index: Int, _ id: Int, at now: UInt64) {
        guard id > lastPong[index] else { return }
        lastPong[index] = id
        if graceOver.load(ordering: .relaxed) { return }
        let sent = board.pingTime(session: index, id: id)
        if sent >= windowStart.load(ordering: .relaxed), sent < windowEnd.load(ordering: .relaxed) {
            pongTimes.append(now &- sent)
        }
    }
}

import CLibWebSockets

/// The one place that decides when a WebSocket's queued messages may be written. Each connection's queue
/// is ``Output``, whose members only this file reaches: a message goes in only through
/// ``enqueue(_:on:coalescingKey:)``, and only the gate writes, on WRITEABLE (``writeable(_:)``) or when a loop
/// pass ends (``flushAnswers()``). So no send path can break the rule the server's latency and load rest on:
/// what the delegate sends while it handles a message, and while it handles the others the same pass read,
/// goes out once, coalesced, when the pass ends, without waiting for a WRITEABLE pass; and nothing is
/// written while lws still holds bytes of the connection (`lws_partial_buffered`).
///
/// Confined to the server's service thread.
final class LWSWriteGate {
    /// A connection's queued messages and when they are written next. Only ``LWSWriteGate`` reads or changes
    /// them.
    struct Output {
        fileprivate var queue = OutboundQueue()
        fileprivate var turn = Turn.onWriteable

        /// Bytes queued and not yet handed to lws.
        var queuedBytes: Int { queue.byteCount }
    }

    /// When a connection's queue is written next.
    fileprivate enum Turn {
        /// On WRITEABLE, which is asked for whenever something is queued.
        case onWriteable
        /// The delegate is handling one of the connection's messages: what it sends waits until it returns.
        /// `wasIdle`: nothing was queued before, so no WRITEABLE is pending.
        case answering(wasIdle: Bool)
        /// When this loop pass ends (``flushAnswers()``), with the answers to the other messages it read.
        case endOfPass
    }

    private let writer: LWSWriter
    private let maxQueuedBytes: Int
    // Connections whose turn is endOfPass, in the order their answers became due.
    private var answersDue: [LWSServerConnection] = []

    /// A gate that writes with `writer` and lets a connection queue at most `maxQueuedBytes`.
    init(writer: LWSWriter, maxQueuedBytes: Int) {
        self.writer = writer
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// Queues a text message last on `connection`, dropping its unwritten message with the same
    /// `coalescingKey`, and asks for WRITEABLE unless the message is an answer written when the pass ends.
    /// False, with the queue emptied, when the queue went over its limit: the caller closes the connection.
    func enqueue(_ bytes: [UInt8], on connection: LWSServerConnection, coalescingKey: String?) -> Bool {
        connection.output.queue.enqueue(bytes, isBinary: false, coalescingKey: coalescingKey)
        guard connection.output.queue.byteCount <= maxQueuedBytes else {
            connection.output.queue.removeAll()
            return false
        }
        if case .onWriteable = connection.output.turn { lws_callback_on_writable(connection.wsi) }
        return true
    }

    /// Asks for the close frame `connection`'s state now holds (``LWSServerConnection/State/closing(code:reason:reading:)``):
    /// it goes out on WRITEABLE, once the queue is written.
    func closeAfterQueue(_ connection: LWSServerConnection) {
        lws_callback_on_writable(connection.wsi)
    }

    /// Runs `deliver`, which hands the delegate a message from `connection`: what it sends to `connection`
    /// meanwhile is written when this loop pass ends if nothing was queued before (so no WRITEABLE is
    /// pending) and the connection takes answers; otherwise it waits for WRITEABLE behind what was queued.
    /// The queue is the same either way, so order and coalescing are the queue's: a second message read in
    /// the same pass replaces the first one's unwritten keyed answer.
    func answering(_ connection: LWSServerConnection, _ deliver: () -> Void) {
        if case .endOfPass = connection.output.turn {
            deliver()
            return
        }
        let wasIdle = connection.output.queue.isEmpty
        connection.output.turn = .answering(wasIdle: wasIdle)
        deliver()
        connection.output.turn = .onWriteable
        guard !connection.output.queue.isEmpty else { return }
        if wasIdle, connection.state == .open {
            connection.output.turn = .endOfPass
            answersDue.append(connection)
        } else {
            lws_callback_on_writable(connection.wsi)
        }
    }

    /// The WRITEABLE callback of `connection`: the next fragment of its queue, asking for another WRITEABLE
    /// while anything is left; once the queue is empty, the close frame of a closing connection. Returns what
    /// the callback returns (-1 closes).
    func writeable(_ connection: LWSServerConnection) -> Int32 {
        // An answer due at the end of this pass waits for it, even if lws raises a spurious WRITEABLE first:
        // the pass may still read messages whose answers replace it.
        if case .endOfPass = connection.output.turn { return 0 }
        let wsi = connection.wsi
        if let fragment = connection.output.queue.nextFragment(maxBytes: LWSWriter.fragmentBytes) {
            guard writer.write(wsi, fragment) else {
                connection.state = .dropped(code: connection.state.closeCode)
                return -1
            }
            if !connection.output.queue.isEmpty || connection.state.closeIsPending { lws_callback_on_writable(wsi) }
            return 0
        }
        if case .closing(let code, let reason, let reading) = connection.state {
            // lws may still raise WRITEABLE while it awaits the peer's close ack; returning -1 again then
            // would kill the connection before the ack (and the peer would see a reset).
            connection.state = .closeSent(code: code, reading: reading)
            LWSCloseReason.set(wsi, code: code, reason: reason)
            return -1
        }
        return 0  // spurious WRITEABLE: nothing queued
    }

    /// Forgets `connection`, which lws has closed (its wsi is gone).
    func closed(_ connection: LWSServerConnection) {
        guard case .endOfPass = connection.output.turn else { return }
        connection.output.turn = .onWriteable
        answersDue.removeAll { $0 === connection }
    }

    /// Writes the answers of this loop pass, outside any lws callback, once every readable socket was read
    /// (SwiftNIO flushes on `channelReadComplete` for the same reason): one pass answers each connection
    /// once, however many of its messages the pass read, and at light load an answer still goes out
    /// without waiting for a WRITEABLE pass.
    ///
    /// What lws 4.1.6 does with a write outside WRITEABLE (README.coding.md still says "only from WRITEABLE",
    /// but its one-write-per-WRITEABLE check is compiled out, `if (0 && …)` in output.c): it sends at once;
    /// what the socket does not take (sent in pieces of at most the rx/tx buffer size) goes to the wsi's
    /// own output list and lws_write still returns the whole length (output.c); lws then holds back
    /// WRITEABLE callbacks until it has drained that list itself, and raises one WRITEABLE when it has, asked
    /// for or not. A second lws_write while bytes are held is appended in order but returns only what was
    /// drained, which ``LWSWriter/write(_:_:protocol:)`` would take for a failure: so nothing is written here
    /// while `lws_partial_buffered`, and the rest waits for WRITEABLE. `lws_send_pipe_choked` would also poll()
    /// the socket, a system call per answer; a socket that takes nothing is simply held by lws on the first
    /// write, and counts as choked from then.
    func flushAnswers() {
        guard !answersDue.isEmpty else { return }
        let due = answersDue
        answersDue.removeAll(keepingCapacity: true)
        for connection in due {
            connection.output.turn = .onWriteable
            let wsi = connection.wsi
            // A close asked for meanwhile goes out on WRITEABLE, after the queue (closeAfterQueue asked for it).
            if connection.state.takesAnswers {
                while lws_partial_buffered(wsi) == 0,
                    let fragment = connection.output.queue.nextFragment(maxBytes: LWSWriter.fragmentBytes)
                {
                    guard writer.write(wsi, fragment) else {
                        connection.state = .dropped(code: connection.state.closeCode)
                        // Outside a callback there is no -1 to return: lws closes it on its next pass.
                        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
                        if let context = lws_get_context(wsi) { LWSEventLoop.wake(context) }
                        break
                    }
                }
            }
            // A WRITEABLE raised during the pass was left for this flush (writeable(_:)): ask again for what is left.
            if !connection.output.queue.isEmpty || connection.state.closeIsPending { lws_callback_on_writable(wsi) }
        }
    }
}

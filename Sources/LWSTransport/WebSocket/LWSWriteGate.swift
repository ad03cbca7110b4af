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
    /// them, and each of its steps on a connection is one call of a mutating method here: one access to the
    /// connection's `output` (one exclusivity check), never held across an lws call or the delegate, so
    /// nothing lws or the delegate does meanwhile can overlap it.
    struct Output {
        fileprivate var queue = OutboundQueue()
        fileprivate var turn = Turn.onWriteable

        /// Bytes queued and not yet handed to lws.
        var queuedBytes: Int { queue.byteCount }

        /// Queues `bytes` last (``LWSWriteGate/enqueue(_:on:coalescingKey:)``); nil, with the queue emptied,
        /// when it went over `maxQueuedBytes`, else whether to ask for WRITEABLE.
        fileprivate mutating func enqueue(_ bytes: [UInt8], coalescingKey: String?, maxQueuedBytes: Int) -> Bool? {
            queue.enqueue(bytes, isBinary: false, coalescingKey: coalescingKey)
            guard queue.byteCount <= maxQueuedBytes else {
                queue.removeAll()
                return nil
            }
            if case .onWriteable = turn { return true }
            return false
        }

        /// Starts answering a message: whether nothing was queued before (`wasIdle`), or nil when the answers
        /// already wait for the end of the pass.
        fileprivate mutating func beginAnswering() -> Bool? {
            if case .endOfPass = turn { return nil }
            let wasIdle = queue.isEmpty
            turn = .answering(wasIdle: wasIdle)
            return wasIdle
        }

        /// Ends answering; `dueAtEndOfPass`: the answers may wait for the end of the pass (nothing was queued
        /// before and the connection takes answers). What to do with what the delegate queued.
        fileprivate mutating func endAnswering(dueAtEndOfPass: Bool) -> AnswerTurn {
            guard !queue.isEmpty else {
                turn = .onWriteable
                return .nothingQueued
            }
            turn = dueAtEndOfPass ? .endOfPass : .onWriteable
            return dueAtEndOfPass ? .endOfPass : .onWriteable
        }

        /// Ends the answers' wait for the end of the pass and takes the first fragment to write if `writing`;
        /// `more`: whether anything is queued after it.
        fileprivate mutating func startFlush(writing: Bool) -> (fragment: OutboundQueue.Fragment?, more: Bool) {
            turn = .onWriteable
            return writing ? nextFragment() : (nil, !queue.isEmpty)
        }

        /// The next fragment to write, and whether anything is queued after it.
        fileprivate mutating func nextFragment() -> (fragment: OutboundQueue.Fragment?, more: Bool) {
            let fragment = queue.nextFragment(maxBytes: LWSWriter.fragmentBytes)
            return (fragment, !queue.isEmpty)
        }
    }

    /// Where the answers to a message go once the delegate returns.
    fileprivate enum AnswerTurn {
        /// Nothing is queued.
        case nothingQueued
        /// Written when the pass ends (``flushAnswers()``).
        case endOfPass
        /// Written on WRITEABLE, which must be asked for.
        case onWriteable
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
    private var answersDue = AnswersDue()

    /// A gate that writes with `writer` and lets a connection queue at most `maxQueuedBytes`.
    init(writer: LWSWriter, maxQueuedBytes: Int) {
        self.writer = writer
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// Queues a text message last on `connection`, dropping its unwritten message with the same
    /// `coalescingKey`, and asks for WRITEABLE unless the message is an answer written when the pass ends.
    /// False, with the queue emptied, when the queue went over its limit: the caller closes the connection.
    func enqueue(_ bytes: [UInt8], on connection: LWSServerConnection, coalescingKey: String?) -> Bool {
        guard
            let asksWriteable = connection.output.enqueue(
                bytes, coalescingKey: coalescingKey, maxQueuedBytes: maxQueuedBytes)
        else { return false }
        if asksWriteable { lws_callback_on_writable(connection.wsi) }
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
        guard let wasIdle = connection.output.beginAnswering() else {
            deliver()
            return
        }
        deliver()
        let dueAtEndOfPass = wasIdle && connection.state == .open
        switch connection.output.endAnswering(dueAtEndOfPass: dueAtEndOfPass) {
        case .nothingQueued: break
        case .endOfPass: answersDue.list.append(connection)
        case .onWriteable: lws_callback_on_writable(connection.wsi)
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
        answersDue.list.removeAll { $0 === connection }
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
        guard var due = answersDue.take() else { return }
        defer {
            due.removeAllKeepingStorage()
            answersDue.giveBack(due)
        }
        for connection in due {
            let wsi = connection.wsi
            let state = connection.state
            // A close asked for meanwhile goes out on WRITEABLE, after the queue (closeAfterQueue asked for it).
            // The fragment is taken out of the queue before lws_write runs, so no access to the connection's
            // output is open while lws works (whatever it calls back).
            var (fragment, more) = connection.output.startFlush(
                writing: state.takesAnswers && lws_partial_buffered(wsi) == 0)
            while let next = fragment {
                guard writer.write(wsi, next) else {
                    connection.state = .dropped(code: connection.state.closeCode)
                    // Outside a callback there is no -1 to return: lws closes it on its next pass.
                    lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
                    if let context = lws_get_context(wsi) { LWSEventLoop.wake(context) }
                    break
                }
                guard more, lws_partial_buffered(wsi) == 0 else { break }
                (fragment, more) = connection.output.nextFragment()
            }
            // A WRITEABLE raised during the pass was left for this flush (writeable(_:)): ask again for what is left.
            // `state` is still the connection's: lws_write raises no callback that reaches the delegate (only
            // lws's poll bookkeeping, LOCK_POLL and the like, which `handle` leaves to lws), and a close asked
            // for meanwhile would have asked for WRITEABLE itself (closeAfterQueue).
            if more || state.closeIsPending { lws_callback_on_writable(wsi) }
        }
    }
}

/// The connections whose answers wait for the end of the pass, and a spare list: ``take()`` hands the list
/// out and ``giveBack(_:)`` keeps it, emptied, for a later pass, so neither list is allocated again and a
/// flush touches the gate's own state twice (each a dynamic exclusivity check).
private struct AnswersDue {
    /// In the order the answers became due.
    var list: [LWSServerConnection] = []
    private var spare: [LWSServerConnection] = []

    /// The list, with an empty one in its place; nil when it is empty.
    mutating func take() -> [LWSServerConnection]? {
        guard !list.isEmpty else { return nil }
        var taken: [LWSServerConnection] = []
        swap(&taken, &list)
        swap(&list, &spare)
        return taken
    }

    /// Keeps `emptied` (a list ``take()`` handed out) for the next ``take()``.
    mutating func giveBack(_ emptied: [LWSServerConnection]) {
        spare = emptied
    }
}

import LWSTransport
import ScrollCore

/// Every message to a page goes out through ``deliver(_:to:loop:)``. A long `replace` or `append` goes in parts
/// (``ItemsParts``, each at most `--max-message`) queued only while the connection's unwritten bytes stay within
/// half of `--max-outbound`; what follows it on that connection waits in its ``Outbox``, in order, until the last
/// part is queued. So a session's whole list (a resume, a far jump) reaches its page however long it is, and
/// no message has to fit the outbound queue at once.
extension SessionHost {
    /// What waits to be sent on one connection behind a message going out in parts.
    final class Outbox {
        enum Waiting {
            case text([UInt8], coalescingKey: String?)
            case items(ItemsMessage)
        }

        /// A part written and not yet queued.
        var frame: [UInt8]?
        var parts: ItemsParts?
        var waiting: [Waiting] = []
        var pollScheduled = false
    }

    /// How often a connection with parts to send is looked at again (the transport tells no one when it drains).
    static let outboxPollMilliseconds = 2

    /// Sends a message to a page, in parts if it is a long list.
    func deliver(_ message: ServerMessage, to id: ConnectionID, loop: WebServerLoop) {
        guard case .items(let items) = message, ItemsParts.splits(items) else {
            deliver(text: message.encoded(), coalescingKey: message.coalescingKey, to: id, loop: loop)
            return
        }
        if let outbox = outboxes[id] {
            outbox.waiting.append(.items(items))
            return
        }
        var parts = ItemsParts(items, maxBytes: partBytes)
        guard let first = parts.next() else { return }
        guard !parts.isFinished else {
            loop.send(first, to: id)
            return
        }
        let outbox = Outbox()
        outbox.frame = first
        outbox.parts = parts
        outboxes[id] = outbox
        pump(id, loop: loop)
    }

    /// The largest part: within `--max-message`, and a quarter of `--max-outbound`, so that parts queue
    /// beside the other messages without reaching the cap.
    private var partBytes: Int { min(options.maxMessageBytes, options.maxOutboundBytes / 4) }

    /// Sends an encoded message, behind any parts still to go. A waiting message with the same
    /// `coalescingKey` is dropped, as the transport drops an unwritten one.
    func deliver(text: [UInt8], coalescingKey: String? = nil, to id: ConnectionID, loop: WebServerLoop) {
        guard !outboxes.isEmpty, let outbox = outboxes[id] else {
            loop.send(text, to: id, coalescingKey: coalescingKey)
            return
        }
        if let key = coalescingKey {
            outbox.waiting.removeAll {
                if case .text(_, let waitingKey) = $0 { waitingKey == key } else { false }
            }
        }
        outbox.waiting.append(.text(text, coalescingKey: coalescingKey))
    }

    /// Queues parts while the connection's unwritten bytes leave room for one more, then what waited behind
    /// them; looks again shortly while anything is left.
    private func pump(_ id: ConnectionID, loop: WebServerLoop) {
        guard let outbox = outboxes[id] else { return }
        guard links[id] != nil else {
            outboxes[id] = nil
            return
        }
        let room = options.maxOutboundBytes / 2
        while true {
            if let frame = outbox.frame {
                let queued = loop.outboundBytes(of: id)
                guard queued == 0 || queued + frame.count <= room else { break }
                loop.send(frame, to: id)
                outbox.frame = nil
                continue
            }
            if var parts = outbox.parts {
                outbox.frame = parts.next()
                outbox.parts = parts.isFinished ? nil : parts
                continue
            }
            guard !outbox.waiting.isEmpty else {
                outboxes[id] = nil
                return
            }
            switch outbox.waiting.removeFirst() {
            case .text(let text, let key): loop.send(text, to: id, coalescingKey: key)
            case .items(let items): outbox.parts = ItemsParts(items, maxBytes: partBytes)
            }
        }
        guard !outbox.pollScheduled else { return }
        outbox.pollScheduled = true
        loop.schedule(afterMilliseconds: Self.outboxPollMilliseconds) { [weak self] loop in
            outbox.pollScheduled = false
            self?.pump(id, loop: loop)
        }
    }
}

import Foundation
import SystemCalls

/// The cap on the log folder (`--max-log-bytes`): every byte the server writes under `--log-dir` is taken
/// from it first, so the folder never grows past the cap.
///
/// The cap is shared out once, at start: `events.jsonl` and `events.1.jsonl` may each hold a sixteenth of it
/// (the events file rotates), the files the server did not write keep what they hold, and the traces get the
/// rest. When a trace needs room, the traces of sessions that have ended go first, oldest session first, each
/// reported through ``removed``. The traces of sessions still held (live, or waiting to be resumed) are never
/// removed: when only they are left, new sessions are not recorded once the traces fill seven eighths of
/// their room, and a trace that no longer fits stops; new sessions are recorded again once a quarter is
/// free. One line on standard error says that recording has stopped, and one more once it has not
/// stopped for a minute: a folder that fills and frees in turns does not fill the terminal.
///
/// Confined to the service thread.
final class LogBudget {
    /// A trace no session needs any more.
    private struct Removable {
        let session: SessionID
        let path: String
        let bytes: Int
    }

    /// The cap in bytes.
    let maxBytes: Int
    /// The most bytes `events.jsonl`, and `events.1.jsonl` likewise, may hold.
    let eventsFileBytes: Int
    /// The most bytes the traces may hold together.
    let traceRoom: Int
    /// Bytes the traces hold now.
    private(set) var traceBytes = 0
    /// Traces of sessions that have ended, oldest session first, from `firstRemovable` on.
    private var removable: [Removable] = []
    private var firstRemovable = 0
    /// Recording has stopped: only held sessions' traces are left and they fill the room.
    private(set) var isFull = false
    /// Monotonic nanoseconds, for the notices on standard error.
    private let clock: () -> Int64
    /// When recording last stopped, if standard error has said so and not yet that it goes on.
    private var announcedStop: Int64?
    /// How long recording must go on after a stop before standard error says so.
    static let quietBeforeNotice: Int64 = 60_000_000_000
    /// Told of every trace removed to make room: its session and its size.
    var removed: (_ session: SessionID, _ bytes: Int) -> Void = { _, _ in }
    /// Where the notices go: standard error.
    var notify: (String) -> Void = { StandardError.writeLine($0) }

    /// Bytes per events file under a cap.
    static func eventsFileBytes(for maxBytes: Int) -> Int { maxBytes / 16 }

    /// Measures the folder as it is: the traces already there are an earlier run's, so all removable.
    init(directory: String, maxBytes: Int, clock: @escaping () -> Int64 = SessionHost.monotonicNanoseconds()) {
        self.maxBytes = maxBytes
        self.clock = clock
        eventsFileBytes = Self.eventsFileBytes(for: maxBytes)
        var others = 0
        var traces: [Removable] = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let name = enumerator?.nextObject() as? String {
            let path = "\(directory)/\(name)"
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let bytes = (attributes[.size] as? Int) ?? 0
            if name == "events.jsonl" || name == "events.1.jsonl" { continue }
            if name.hasPrefix("traces/"), name.hasSuffix(".jsonl"),
                let session = SessionID(name.dropFirst("traces/".count).dropLast(".jsonl".count))
            {
                traces.append(Removable(session: session, path: path, bytes: bytes))
                traceBytes += bytes
            } else {
                others += bytes
            }
        }
        removable = traces.sorted { $0.session < $1.session }
        traceRoom = max(0, maxBytes - others - 2 * eventsFileBytes)
    }

    /// Removes the oldest traces until the ones left fit the room (the folder may hold more than the cap
    /// from a run with a larger one); call once the removals can be logged.
    func enforce() {
        _ = makeRoom(for: 0, within: traceRoom)
    }

    /// Whether a new session's trace, starting with `bytes`, may be created: there is room for it below
    /// seven eighths of the traces' room (three quarters while recording is stopped), once the traces of
    /// ended sessions that stand in the way are removed.
    func admitsNewTrace(bytes: Int) -> Bool {
        let mark = isFull ? traceRoom / 4 * 3 : traceRoom / 8 * 7
        guard makeRoom(for: bytes, within: mark) else {
            stopRecording()
            return false
        }
        isFull = false
        if let stopped = announcedStop, clock() - stopped >= Self.quietBeforeNotice {
            announcedStop = nil
            notify(
                "scroll-playground: the log folder has had room for a minute: new sessions are recorded again")
        }
        return true
    }

    /// Takes `bytes` for a trace about to write them; false when they do not fit even with every ended
    /// session's trace removed: the trace must stop.
    func take(_ bytes: Int) -> Bool {
        guard makeRoom(for: bytes, within: traceRoom) else {
            stopRecording()
            return false
        }
        traceBytes += bytes
        return true
    }

    /// Returns `bytes` taken for lines that never reached the disk (a write that failed and was undone).
    func giveBack(_ bytes: Int) {
        traceBytes -= min(bytes, traceBytes)
    }

    /// The session of a trace has ended: its trace may go when room is needed.
    func ended(_ session: SessionID, path: String, bytes: Int) {
        let entry = Removable(session: session, path: path, bytes: bytes)
        // Sessions mostly end in the order they began, so this is usually the end.
        var index = removable.endIndex
        while index > firstRemovable, removable[index - 1].session > session { index -= 1 }
        removable.insert(entry, at: index)
    }

    /// Removes the oldest ended sessions' traces until `bytes` more fit within `limit`.
    private func makeRoom(for bytes: Int, within limit: Int) -> Bool {
        while traceBytes + bytes > limit, firstRemovable < removable.count {
            let oldest = removable[firstRemovable]
            firstRemovable += 1
            // Removed entries are dropped in batches, so taking the oldest stays O(1) on average.
            if firstRemovable >= 1024, firstRemovable * 2 >= removable.count {
                removable.removeFirst(firstRemovable)
                firstRemovable = 0
            }
            if case .failure(let error) = Syscall.removeFile(oldest.path), error.code != ENOENT {
                StandardError.writeLine(
                    "scroll-playground: cannot remove \(oldest.path): \(error.message)")
                continue
            }
            traceBytes -= oldest.bytes
            removed(oldest.session, oldest.bytes)
        }
        return traceBytes + bytes <= limit
    }

    private func stopRecording() {
        isFull = true
        let wasAnnounced = announcedStop != nil
        announcedStop = clock()
        guard !wasAnnounced else { return }
        notify(
            "scroll-playground: the log folder is full (--max-log-bytes \(maxBytes)) and holds only live or "
                + "resumable sessions' traces: new sessions are not recorded, and a trace that no longer fits "
                + "stops (the page is told in welcome and state)")
    }
}

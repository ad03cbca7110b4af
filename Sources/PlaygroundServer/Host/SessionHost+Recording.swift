import Foundation
import LWSTransport
import ScrollCore
import SystemCalls

/// What the host says when the disk will not take a trace: full, removed, or a `traces/` folder that
/// cannot be made. Each kind of trouble goes to standard error at most once a minute, so a client opening
/// sessions in a loop cannot turn it into a flood; each page learns it from `recordingStopped`.
extension SessionHost {
    /// How long one kind of recording trouble stays quiet on standard error after it was said.
    static let recordingNoticeQuiet: Int64 = 60_000_000_000

    /// Whether new sessions can be recorded: creates `traces/` if it is missing. Says on standard error
    /// when that starts failing (at start, or later); returns why, for the session's `welcome`.
    @discardableResult
    func checkTracesFolder() -> String? {
        guard let directory = options.logDirectory else { return nil }
        let folder = "\(directory)/traces"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue {
            tracesUnavailable = nil
            return nil
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            tracesUnavailable = nil
            return nil
        } catch {
            let reason = "not recorded: cannot create \(folder): \(Self.describe(error))"
            if tracesUnavailable == nil {
                StandardError.writeLine(
                    "scroll-playground: sessions are not recorded: cannot create \(folder): "
                        + Self.describe(error))
            }
            tracesUnavailable = reason
            return reason
        }
    }

    /// A session's trace stopped early: says why on standard error (once a minute per kind) and, with a
    /// loop, tells its page at once in a `state`.
    func noteIfStopped(_ hosted: Hosted, loop: WebServerLoop?) {
        guard let reason = hosted.trace?.stopReason else { return }
        switch reason {
        case .logFolderFull:
            break  // LogBudget says its own notice.
        case .writeFailed(let error):
            noteRecordingTrouble(
                "write",
                "scroll-playground: a trace could not be written (\(error)): session \(hosted.id), and any other "
                    + "whose trace fails, is no longer recorded; each such trace ends at its last whole line")
        case .removed:
            noteRecordingTrouble(
                "removed",
                "scroll-playground: the trace of session \(hosted.id) was removed (was the log folder deleted?): "
                    + "it is not written again without its header; new sessions are recorded in a new folder")
        }
        if let loop { sendRecordingStopped(of: hosted, loop: loop) }
    }

    /// Writes `text` to standard error unless trouble of the same `kind` was said in the last minute.
    func noteRecordingTrouble(_ kind: String, _ text: String) {
        let reading = clock()
        if let last = recordingNoticeTimes[kind], reading - last < Self.recordingNoticeQuiet { return }
        recordingNoticeTimes[kind] = reading
        StandardError.writeLine(text)
    }

    /// Sends the page a `state` that says its session is not (or no longer) recorded.
    func sendRecordingStopped(of hosted: Hosted, loop: WebServerLoop) {
        guard let connection = hosted.connection, let reason = recordingStopped(of: hosted) else { return }
        let state = ServerMessage.state(hosted.state.currentState).noting(recordingStopped: reason)
        deliver(state, to: connection, loop: loop)
    }

    /// An error's text without Foundation's wrapping ("The operation could not be completed…").
    static func describe(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return Errno(code: Int32(code)).message
        }
        return error.localizedDescription
    }
}

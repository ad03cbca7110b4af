import Foundation
import SystemCalls

/// The process's standard descriptors as the executable meets them: possibly closed, a pipe whose reader
/// has gone, or a terminal that was closed. Nothing written to them may stop the server.
public enum StandardStreams {
    /// Opens `/dev/null` on each of fds 0–2 that is closed, so that no file the server opens later (the
    /// event log, a trace) takes a standard number and receives notices meant for a terminal. Call it
    /// first thing, before any file is opened.
    public static func reserveClosedDescriptors() {
        let standard = [Syscall.standardInput, Syscall.standardOutput, Syscall.standardError]
        for descriptor in standard where !Syscall.isOpen(descriptor) {
            // open returns the lowest free number, which is this one: the lower ones are open by now.
            let opened = Syscall.open("/dev/null", flags: descriptor == Syscall.standardInput ? O_RDONLY : O_WRONLY)
            if case .success(let opened) = opened, opened != descriptor {
                Syscall.duplicate(opened, onto: descriptor)
                Syscall.close(opened)
            }
        }
    }

    /// Writes `text` to standard output; a terminal or pipe that is gone loses it, and the server goes on.
    public static func writeOutput(_ text: String) {
        writeAll(Array(text.utf8), to: Syscall.standardOutput)
    }

    /// Writes `text` to standard error; a terminal or pipe that is gone loses it, and the server goes on.
    public static func writeError(_ text: String) {
        writeAll(Array(text.utf8), to: Syscall.standardError)
    }
}

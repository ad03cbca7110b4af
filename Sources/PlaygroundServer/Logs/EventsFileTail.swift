import Foundation
import ScrollCore
import SystemCalls

/// The end of an existing `events.jsonl`, read before a run appends to it.
enum EventsFileTail {
    /// Cuts off a last line without its newline (a crash cut it off mid-write), so the run's first record
    /// starts a line of its own, and finds the `seq` of the last record (0 for an empty or new file).
    static func prepare(path: String) throws -> (lastSeq: Int, cutBytes: Int) {
        let descriptor: Int32
        switch Syscall.open(path, flags: O_RDWR | O_CREAT | O_CLOEXEC) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            throw ServerStartError("cannot write \(path): \(error.message)")
        }
        defer { Syscall.close(descriptor) }
        let size = (try? Syscall.seekToEnd(descriptor).get()) ?? -1
        var window = min(size, 64 * 1024)
        while window > 0 {
            var bytes = [UInt8](repeating: 0, count: window)
            let read = bytes.withUnsafeMutableBytes { Syscall.pread(descriptor, into: $0, at: size - window) }
            guard case .success(let count) = read, count == window else {
                let code = if case .failure(let error) = read { error.code } else { Int32(0) }
                throw ServerStartError("cannot read \(path): \(Errno(code: code).message)")
            }
            let wholeFile = window == size
            if let found = scan(bytes, fileSize: size, wholeFile: wholeFile) {
                if found.cutBytes > 0 { Syscall.truncate(descriptor, to: size - found.cutBytes) }
                return found
            }
            guard !wholeFile else { break }
            window = min(size, window * 4)
        }
        return (0, 0)
    }

    /// The cut and the last seq, from the last `bytes.count` bytes of the file; nil when these bytes do not
    /// settle it (no newline, or no complete record with a seq) and more of the file must be read.
    private static func scan(_ bytes: [UInt8], fileSize: Int, wholeFile: Bool) -> (lastSeq: Int, cutBytes: Int)? {
        let newline = UInt8(ascii: "\n")
        guard let lastNewline = bytes.lastIndex(of: newline) else {
            return wholeFile ? (0, fileSize) : nil
        }
        let cutBytes = bytes.count - lastNewline - 1
        // Complete lines, newest first; the first line of a partial window may itself be partial.
        var lines = bytes[..<lastNewline].split(separator: newline, omittingEmptySubsequences: true)
        if !wholeFile, !lines.isEmpty { lines.removeFirst() }
        for line in lines.reversed() {
            if let seq = (try? JSONParser.parse(Array(line)))?["seq"]?.number, seq >= 0, seq < 1e15 {
                return (Int(seq), cutBytes)
            }
        }
        return wholeFile ? (0, cutBytes) : nil
    }
}

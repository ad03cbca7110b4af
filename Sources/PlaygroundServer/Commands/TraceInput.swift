import CommandLineOptions
import Foundation

/// How the commands read a trace file: whole, once its size is within `--max-trace-bytes`. A trace is read
/// into memory at about five times its size (a 439 MB one took 2 GB), so a larger file is refused with one
/// line before any of it is read, and the flag raises the limit for a person who means it.
enum TraceInput {
    /// `--max-trace-bytes`' default: 64 MiB, over an hour of geometry at 60 Hz.
    static let defaultMaxBytes = 64 << 20
    /// What `--max-trace-bytes` takes.
    static let maxBytesRange = 1...(1 << 40)
    /// `--max-trace-bytes`' help, the same for every command.
    static let help = "the largest trace file read; a larger one is refused before it is read"

    /// The bytes of the trace at `path`; `command` starts the one line that says why not.
    static func read(_ path: String, maxBytes: Int, command: String) throws(UsageError) -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        if let size, size > maxBytes { throw tooLarge(path, size, maxBytes, command) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("\(command): cannot read \(path)")
        }
        // A file that grew after its size was read is held to the same limit.
        guard data.count <= maxBytes else { throw tooLarge(path, data.count, maxBytes, command) }
        return data
    }

    private static func tooLarge(_ path: String, _ size: Int, _ maxBytes: Int, _ command: String) -> UsageError {
        UsageError("\(command): \(path): \(size) bytes, more than --max-trace-bytes \(maxBytes) (raise it to read it)")
    }
}

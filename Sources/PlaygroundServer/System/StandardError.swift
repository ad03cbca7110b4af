import Foundation

/// Standard error, for the server's own notices (not events): one `write(2)` per line.
enum StandardError {
    static func writeLine(_ text: String) {
        let line = Array((text + "\n").utf8)
        line.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

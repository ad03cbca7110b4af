import Foundation
import SystemCalls

/// Standard error, for the server's own notices (not events): one `write(2)` per line.
enum StandardError {
    static func writeLine(_ text: String) {
        Syscall.writeAll(Syscall.standardError, text + "\n")
    }
}

import SystemCalls

/// Unbuffered standard error.
enum StandardError {
    static func write(_ text: String) {
        Syscall.writeAll(Syscall.standardError, text)
    }
}

/// Fails the run with one line on standard error and exit code 1 (usage errors use 2).
func fail(_ message: String, code: Int32 = 1) -> Never {
    StandardError.write("scroll-bench: \(message)\n")
    Syscall.exit(code)
}

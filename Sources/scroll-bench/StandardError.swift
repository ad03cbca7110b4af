#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered standard error.
enum StandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in _ = Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count) }
    }
}

/// Fails the run with one line on standard error and exit code 1 (usage errors use 2).
func fail(_ message: String, code: Int32 = 1) -> Never {
    StandardError.write("scroll-bench: \(message)\n")
    exit(code)
}

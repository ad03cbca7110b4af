import SystemCalls

/// Decides whether a request path may be answered from the public directory.
///
/// libwebsockets percent-decodes the path once and collapses `.` and `..` segments before the
/// file mount sees it, so it never leaves the mount's directory lexically. This adds what it
/// does not do: no dotfiles or dot-directories, nothing that still holds a `%` after decoding
/// (a double-encoded request), no backslashes or control characters, and no symbolic link that
/// resolves outside the public directory.
struct StaticPathPolicy: Sendable {
    /// The public directory with symbolic links resolved, without a trailing slash.
    let root: String

    /// Nil when `publicDirectory` is not an existing directory.
    init?(publicDirectory: String) {
        guard Syscall.isDirectory(publicDirectory), let resolved = Syscall.resolvedPath(publicDirectory)
        else { return nil }
        root = resolved == "/" ? "" : resolved
    }

    /// True if the decoded request path passes the lexical rules (see the type's documentation).
    static func isLexicallyAllowed(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        for scalar in path.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\\" || scalar == "%" {
                return false
            }
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment.hasPrefix(".") { return false }
        }
        return true
    }

    /// True if the request path may be served: it passes the lexical rules and, when it names an
    /// existing file or directory, that resolves inside the public directory.
    func allows(_ path: String) -> Bool {
        guard Self.isLexicallyAllowed(path) else { return false }
        guard let resolved = Syscall.resolvedPath(root + path) else {
            return true  // nothing there: the file mount answers 404
        }
        return resolved == root || resolved.hasPrefix(root + "/") || (root.isEmpty && resolved.hasPrefix("/"))
    }
}

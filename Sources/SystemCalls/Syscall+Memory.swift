#if canImport(Glibc)
    import Glibc
#endif

/// C memory for a C library that keeps pointers (libwebsockets' mount tables, protocols, strings).
extension Syscall {
    /// A NUL-terminated `malloc`ed copy of `string` (strdup(3)); ``free(_:)`` releases it.
    package static func duplicate(_ string: String) -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(string) else { fatalError("strdup: out of memory") }
        return copy
    }

    /// `count` zero-filled blocks of `size` bytes (calloc(3)); ``free(_:)`` releases them.
    package static func allocateZeroed(count: Int, size: Int) -> UnsafeMutableRawPointer {
        guard let block = calloc(count, size) else { fatalError("calloc: out of memory") }
        return block
    }

    /// Releases a block from ``duplicate(_:)`` or ``allocateZeroed(count:size:)`` (free(3)).
    package static func free(_ block: UnsafeMutableRawPointer) {
        Glibc.free(block)
    }
}

import SystemCalls

/// C memory that libwebsockets keeps by pointer (mount tables, protocol arrays, strings, policies).
///
/// lws does not copy these: everything allocated here must stay valid until after
/// `lws_context_destroy` returns, and is freed by ``freeAll()`` only then.
package final class LWSMemory {
    package init() {}

    private var blocks: [UnsafeMutableRawPointer] = []

    /// A NUL-terminated copy of `string` that lives until ``freeAll()``.
    package func cString(_ string: String) -> UnsafeMutablePointer<CChar> {
        let copy = Syscall.duplicate(string)
        blocks.append(UnsafeMutableRawPointer(copy))
        return copy
    }

    /// A zero-filled array of `count` values that lives until ``freeAll()``.
    package func zeroed<T>(_ type: T.Type, count: Int = 1) -> UnsafeMutablePointer<T> {
        let raw = Syscall.allocateZeroed(count: max(count, 1), size: MemoryLayout<T>.stride)
        blocks.append(raw)
        return raw.bindMemory(to: T.self, capacity: max(count, 1))
    }

    /// Frees every block; call only after the context that used them is destroyed.
    package func freeAll() {
        for block in blocks { Syscall.free(block) }
        blocks.removeAll()
    }

    deinit {
        freeAll()
    }
}

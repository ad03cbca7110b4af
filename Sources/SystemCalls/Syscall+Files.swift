#if canImport(Glibc)
    import Glibc
#endif

/// Files by path and descriptor, for the server's logs and traces and its standard streams.
extension Syscall {
    /// Opens `path` with `flags`; a file `O_CREAT` makes gets `mode`. The corresponding C function is open(2).
    package static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.open(path, flags, mode) }
    }

    /// The status of the open file `fd` (size, links). The corresponding C function is fstat(2).
    package static func status(_ fd: Int32) -> Result<stat, Errno> {
        var status = stat()
        return retryingInterrupts { fstat(fd, &status) }.map { _ in status }
    }

    /// The status of the file at `path`, following symbolic links. The corresponding C function is stat(2).
    package static func status(atPath path: String) -> Result<stat, Errno> {
        var status = stat()
        return retryingInterrupts { stat(path, &status) }.map { _ in status }
    }

    /// Where the open file `fd` ends, its position moved there. The corresponding C function is lseek(2).
    package static func seekToEnd(_ fd: Int32) -> Result<Int, Errno> {
        retryingInterrupts { lseek(fd, 0, SEEK_END) }.map { Int($0) }
    }

    /// Cuts the open file `fd` to `size` bytes. The corresponding C function is ftruncate(2).
    @discardableResult
    package static func truncate(_ fd: Int32, to size: Int) -> Result<Void, Errno> {
        retryingInterrupts { ftruncate(fd, off_t(size)) }.map { _ in }
    }

    /// Removes the name `path`. The corresponding C function is unlink(2).
    @discardableResult
    package static func removeFile(_ path: String) -> Result<Void, Errno> {
        retryingInterrupts { unlink(path) }.map { _ in }
    }

    /// Renames `path` to `newPath`, replacing a file there. The corresponding C function is rename(2).
    @discardableResult
    package static func rename(_ path: String, to newPath: String) -> Result<Void, Errno> {
        retryingInterrupts { Glibc.rename(path, newPath) }.map { _ in }
    }

    /// Whether `fd` is an open descriptor. The corresponding C function is fcntl(2) with `F_GETFD`.
    package static func isOpen(_ fd: Int32) -> Bool {
        if case .success = retryingInterrupts({ fcntl(fd, F_GETFD) }) { return true }
        return false
    }

    /// Makes `target` a copy of `fd` (closing what `target` was). The corresponding C function is dup2(2).
    @discardableResult
    package static func duplicate(_ fd: Int32, onto target: Int32) -> Result<Void, Errno> {
        retryingInterrupts { dup2(fd, target) }.map { _ in }
    }

    /// Writes all of `bytes` to `fd`, blocking as long as it does; the failure of the write that stopped
    /// short (closed, disk full, a file-size limit).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        var written = 0
        while written < bytes.count {
            switch write(fd, UnsafeRawBufferPointer(rebasing: bytes[written...])) {
            case .success(let count) where count > 0: written += count
            case .success: return .failure(Errno(code: EIO))  // no progress: never for a file or a pipe
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Writes all of `text` to `fd` (standard output or error, which stdio would buffer); a stream that is
    /// gone loses it.
    package static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Ignores `signal` from now on (a broken pipe, a file-size limit, a signal watched another way). The
    /// corresponding C function is signal(2).
    package static func ignore(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }
}

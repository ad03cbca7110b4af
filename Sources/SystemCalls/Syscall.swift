import CSystemCalls  // epoll and malloc_trim, which Glibc's module leaves out

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX calls the transport, its clients and scroll-bench make, in one place (swift-system's
/// `Syscalls.swift` is the model): nothing else in the package calls the C library (descriptors, clocks, threads, memory that C keeps, the process). Each returns its value or the ``Errno`` it failed with, and those that a signal can interrupt are
/// run again on `EINTR`, so no call site handles `EINTR` and each says what it does with the rest (usually
/// only ``Errno/wouldBlock``). The corresponding C function has the same name unless a comment says.
package enum Syscall {
    /// Runs `call` again while it fails with `EINTR`; its result, or the `errno` of its failure (a negative
    /// result).
    @usableFromInline @inlinable
    static func retryingInterrupts<Value: BinaryInteger>(_ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let value = call()
            if value >= 0 { return .success(value) }
            let error = Errno.current
            if error.code != EINTR { return .failure(error) }
        }
    }

    // MARK: Sockets

    /// Runs `call` (`bind`, `connect`) on `address` seen as a `sockaddr`, again on `EINTR`.
    @usableFromInline @inlinable
    static func giving(
        _ address: sockaddr_storage, _ call: (UnsafePointer<sockaddr>) -> Int32
    ) -> Result<Void, Errno> {
        var address = address
        return retryingInterrupts {
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, call) }
        }.map { _ in }
    }

    /// The address `call` (`getsockname`, `getpeername`) fills in, again on `EINTR`.
    @usableFromInline @inlinable
    static func taking(
        _ call: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Result<sockaddr_storage, Errno> {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return retryingInterrupts {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, &length) }
            }
        }.map { _ in address }
    }

    /// A new socket of `family` and `type` (which may carry `SOCK_NONBLOCK` and `SOCK_CLOEXEC`).
    @inlinable
    package static func socket(family: Int32, type: Int32) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.socket(family, type, 0) }
    }

    /// Sets an integer socket option (`setsockopt`).
    @discardableResult
    @inlinable
    package static func setOption(_ fd: Int32, level: Int32, _ name: Int32, to value: Int32) -> Result<Void, Errno> {
        var value = value
        return retryingInterrupts { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
            .map { _ in }
    }

    /// Sets a time socket option (`SO_RCVTIMEO`, `SO_SNDTIMEO`: how long a blocking call waits) to `duration`.
    package static func setTimeOption(_ fd: Int32, _ name: Int32, to duration: Duration) -> Result<Void, Errno> {
        var value = timeval(
            tv_sec: Int(duration.components.seconds), tv_usec: Int(duration.components.attoseconds / 1_000_000_000_000))
        return retryingInterrupts { setsockopt(fd, SOL_SOCKET, name, &value, socklen_t(MemoryLayout<timeval>.size)) }
            .map { _ in }
    }

    /// Binds `fd` to the first `length` bytes of `address`.
    @inlinable
    package static func bind(_ fd: Int32, to address: sockaddr_storage, length: socklen_t) -> Result<Void, Errno> {
        giving(address) { Glibc.bind(fd, $0, length) }
    }

    /// Connects `fd` to the first `length` bytes of `address`; a non-blocking socket fails with `EINPROGRESS`
    /// and reports the outcome in ``pendingError(_:)`` once `poll` says it is writable.
    @inlinable
    package static func connect(_ fd: Int32, to address: sockaddr_storage, length: socklen_t) -> Result<Void, Errno> {
        giving(address) { Glibc.connect(fd, $0, length) }
    }

    /// The error a non-blocking `connect` ended with, 0 when it succeeded (`getsockopt(SO_ERROR)`).
    @inlinable
    package static func pendingError(_ fd: Int32) -> Result<Int32, Errno> {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return retryingInterrupts { getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) }.map { _ in error }
    }

    /// Makes `fd` a listening socket.
    @inlinable
    package static func listen(_ fd: Int32, backlog: Int32) -> Result<Void, Errno> {
        retryingInterrupts { Glibc.listen(fd, backlog) }.map { _ in }
    }

    /// The address `fd` is bound to (`getsockname`).
    @inlinable
    package static func localAddress(_ fd: Int32) -> Result<sockaddr_storage, Errno> {
        taking { getsockname(fd, $0, $1) }
    }

    /// The address of the peer `fd` is connected to (`getpeername`).
    @inlinable
    package static func peerAddress(_ fd: Int32) -> Result<sockaddr_storage, Errno> {
        taking { getpeername(fd, $0, $1) }
    }

    /// The next connection waiting on the listening socket `fd`.
    @inlinable
    package static func accept(_ fd: Int32) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.accept(fd, nil, nil) }
    }

    /// Reads into `buffer`; 0 is end-of-file.
    @inlinable
    package static func recv(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32)
        -> Result<Int, Errno>
    {
        retryingInterrupts { Glibc.recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// Writes what the socket takes of `bytes`, never raising SIGPIPE (`MSG_NOSIGNAL` is always added).
    @inlinable
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.send(fd, bytes.baseAddress, bytes.count, flags | Int32(MSG_NOSIGNAL)) }
    }

    /// Shuts down the sending side of `fd`: the peer reads end-of-file after what was sent.
    @discardableResult
    @inlinable
    package static func shutdownWrites(_ fd: Int32) -> Result<Void, Errno> {
        retryingInterrupts { shutdown(fd, Int32(SHUT_WR)) }.map { _ in }
    }

    /// Shuts down both directions of `fd` at once, without closing it (its owner still does): the peer sees
    /// the connection end with no close handshake.
    @discardableResult
    @inlinable
    package static func shutdownBoth(_ fd: Int32) -> Result<Void, Errno> {
        retryingInterrupts { shutdown(fd, Int32(SHUT_RDWR)) }.map { _ in }
    }

    /// Waits until one of `descriptors` is ready or `milliseconds` pass; how many are ready (0 on timeout).
    /// An interrupted wait starts again with the whole timeout, at most a second here.
    @inlinable
    package static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds milliseconds: Int32)
        -> Result<Int32, Errno>
    {
        retryingInterrupts { Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds) }
    }

    // MARK: Descriptors

    /// Closes `fd`. Never retried: Linux frees the descriptor even when `close` reports `EINTR`, and a second
    /// call could close one another thread has just been given.
    @inlinable
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// A pipe: its read end and its write end.
    @inlinable
    package static func pipe() -> Result<(read: Int32, write: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        return retryingInterrupts { Glibc.pipe(&ends) }.map { _ in (ends[0], ends[1]) }
    }

    /// Makes `fd` non-blocking and close-on-exec (two `fcntl` pairs). `accept4` and `pipe2`, which would do it
    /// in the same call, are GNU extensions Glibc's Swift module does not export.
    @inlinable
    package static func makeNonBlocking(_ fd: Int32) {
        let status = retryingInterrupts { fcntl(fd, F_GETFL) }
        if case .success(let flags) = status { _ = retryingInterrupts { fcntl(fd, F_SETFL, flags | O_NONBLOCK) } }
        let descriptor = retryingInterrupts { fcntl(fd, F_GETFD) }
        if case .success(let flags) = descriptor { _ = retryingInterrupts { fcntl(fd, F_SETFD, flags | FD_CLOEXEC) } }
    }

    /// Reads into `buffer`; 0 is end-of-file.
    @inlinable
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes what `fd` takes of `bytes`.
    @discardableResult
    @inlinable
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    // MARK: Memory

    /// Gives the heap's free pages back to the system (`malloc_trim(0)`, every arena): glibc keeps what freed
    /// sessions, traces and threads' work held, and RSS stays at its peak until it is asked. True when memory
    /// was returned.
    @discardableResult
    @inlinable
    package static func returnFreeMemory() -> Bool {
        malloc_trim(0) != 0
    }

    // MARK: Files

    /// Opens `path` read-only and close-on-exec (`open`).
    package static func openForReading(_ path: String) -> Result<Int32, Errno> {
        open(path, flags: O_RDONLY | O_CLOEXEC)
    }

    /// Whether `path` names a directory, following symbolic links (`stat`).
    package static func isDirectory(_ path: String) -> Bool {
        guard case .success(let status) = status(atPath: path) else { return false }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// `path` with every symbolic link, `.` and `..` resolved; nil when it does not exist (`realpath`).
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The size in bytes of the open file `fd` (`fstat`).
    package static func fileSize(_ fd: Int32) -> Result<Int, Errno> {
        status(fd).map { Int($0.st_size) }
    }

    /// Reads into `buffer` from `offset` of the file, without moving its position; 0 is its end.
    @inlinable
    package static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        -> Result<Int, Errno>
    {
        retryingInterrupts { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }
}

/// The `errno` a failed system call left (``Syscall``).
package struct Errno: Error, Equatable, CustomStringConvertible {
    /// The `errno` value.
    package let code: Int32

    @inlinable package init(code: Int32) { self.code = code }

    /// The calling thread's `errno` now.
    @inlinable package static var current: Errno { Errno(code: errno) }

    /// The call would have blocked (`EAGAIN`, `EWOULDBLOCK`): try again once `poll` reports the descriptor ready.
    @inlinable package var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    /// The system's text alone (strerror(3)), e.g. "No space left on device".
    package var message: String { String(cString: strerror(code)) }

    /// The system's text and the number, as the transport's log lines give them.
    package var description: String { message + " (errno \(code))" }
}

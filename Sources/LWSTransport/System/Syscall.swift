import CLibWebSockets  // only for malloc_trim (shim.h's <malloc.h>): no lws_* call is made here

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX calls the transport makes on descriptors, in one place (swift-system's `Syscalls.swift` is the
/// model): each returns its value or the ``Errno`` it failed with, and those that a signal can interrupt are
/// run again on `EINTR`, so no call site handles `EINTR` and each says what it does with the rest (usually
/// only ``Errno/wouldBlock``). The corresponding C function has the same name unless a comment says.
enum Syscall {
    /// Runs `call` again while it fails with `EINTR`; its result, or the `errno` of its failure (a negative
    /// result).
    private static func retryingInterrupts<Value: BinaryInteger>(_ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let value = call()
            if value >= 0 { return .success(value) }
            let error = Errno.current
            if error.code != EINTR { return .failure(error) }
        }
    }

    // MARK: Sockets

    /// A new socket of `family` and `type` (which may carry `SOCK_NONBLOCK` and `SOCK_CLOEXEC`).
    static func socket(family: Int32, type: Int32) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.socket(family, type, 0) }
    }

    /// Sets an integer socket option (`setsockopt`).
    @discardableResult
    static func setOption(_ fd: Int32, level: Int32, _ name: Int32, to value: Int32) -> Result<Void, Errno> {
        var value = value
        return retryingInterrupts { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
            .map { _ in }
    }

    /// Binds `fd` to the first `length` bytes of `address`.
    static func bind(_ fd: Int32, to address: sockaddr_storage, length: socklen_t) -> Result<Void, Errno> {
        var address = address
        return retryingInterrupts {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
            }
        }.map { _ in }
    }

    /// Makes `fd` a listening socket.
    static func listen(_ fd: Int32, backlog: Int32) -> Result<Void, Errno> {
        retryingInterrupts { Glibc.listen(fd, backlog) }.map { _ in }
    }

    /// The address `fd` is bound to (`getsockname`).
    static func localAddress(_ fd: Int32) -> Result<sockaddr_storage, Errno> {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return retryingInterrupts {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }.map { _ in address }
    }

    /// The address of the peer `fd` is connected to (`getpeername`).
    static func peerAddress(_ fd: Int32) -> Result<sockaddr_storage, Errno> {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return retryingInterrupts {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
            }
        }.map { _ in address }
    }

    /// The next connection waiting on the listening socket `fd`.
    static func accept(_ fd: Int32) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.accept(fd, nil, nil) }
    }

    /// Reads into `buffer`; 0 is end-of-file.
    static func recv(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// Writes what the socket takes of `bytes`, never raising SIGPIPE (`MSG_NOSIGNAL` is always added).
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.send(fd, bytes.baseAddress, bytes.count, flags | Int32(MSG_NOSIGNAL)) }
    }

    /// Shuts down the sending side of `fd`: the peer reads end-of-file after what was sent.
    @discardableResult
    static func shutdownWrites(_ fd: Int32) -> Result<Void, Errno> {
        retryingInterrupts { shutdown(fd, Int32(SHUT_WR)) }.map { _ in }
    }

    /// Waits until one of `descriptors` is ready or `milliseconds` pass; how many are ready (0 on timeout).
    /// An interrupted wait starts again with the whole timeout, at most a second here.
    static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds milliseconds: Int32) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds) }
    }

    // MARK: Descriptors

    /// Closes `fd`. Never retried: Linux frees the descriptor even when `close` reports `EINTR`, and a second
    /// call could close one another thread has just been given.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// A pipe: its read end and its write end.
    static func pipe() -> Result<(read: Int32, write: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        return retryingInterrupts { Glibc.pipe(&ends) }.map { _ in (ends[0], ends[1]) }
    }

    /// Makes `fd` non-blocking and close-on-exec (two `fcntl` pairs). `accept4` and `pipe2`, which would do it
    /// in the same call, are GNU extensions Glibc's Swift module does not export.
    static func makeNonBlocking(_ fd: Int32) {
        let status = retryingInterrupts { fcntl(fd, F_GETFL) }
        if case .success(let flags) = status { _ = retryingInterrupts { fcntl(fd, F_SETFL, flags | O_NONBLOCK) } }
        let descriptor = retryingInterrupts { fcntl(fd, F_GETFD) }
        if case .success(let flags) = descriptor { _ = retryingInterrupts { fcntl(fd, F_SETFD, flags | FD_CLOEXEC) } }
    }

    /// Reads into `buffer`; 0 is end-of-file.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes what `fd` takes of `bytes`.
    @discardableResult
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    // MARK: Memory

    /// Gives the heap's free pages back to the system (`malloc_trim(0)`, every arena): glibc keeps what freed
    /// sessions, traces and threads' work held, and RSS stays at its peak until it is asked. True when memory
    /// was returned.
    @discardableResult
    static func returnFreeMemory() -> Bool {
        malloc_trim(0) != 0
    }

    // MARK: Files

    /// Opens `path` read-only and close-on-exec (`open`).
    static func openForReading(_ path: String) -> Result<Int32, Errno> {
        retryingInterrupts { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// The size in bytes of the open file `fd` (`fstat`).
    static func fileSize(_ fd: Int32) -> Result<Int, Errno> {
        var status = stat()
        return retryingInterrupts { fstat(fd, &status) }.map { _ in Int(status.st_size) }
    }

    /// Reads into `buffer` from `offset` of the file, without moving its position; 0 is its end.
    static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
        retryingInterrupts { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }
}

/// The `errno` a failed system call left (``Syscall``).
struct Errno: Error, Equatable, CustomStringConvertible {
    /// The `errno` value.
    let code: Int32

    /// The calling thread's `errno` now.
    static var current: Errno { Errno(code: errno) }

    /// The call would have blocked (`EAGAIN`, `EWOULDBLOCK`): try again once `poll` reports the descriptor ready.
    var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    /// The system's text and the number, as the transport's log lines give them.
    var description: String { String(cString: strerror(code)) + " (errno \(code))" }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback TCP for scroll-bench's floor and the test clients, on the calls in ``Syscall``: a failure
/// becomes a ``SystemCallError`` naming the call, so call sites say what they mean.
extension Syscall {
    /// What a `recv` or a whole `send` did.
    package enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case bytes(Int)
        /// Nothing to read, or no room to write, right now (`EAGAIN`).
        case wouldBlock
        /// The peer closed the connection (`recv` returned 0, or `ECONNRESET`/`EPIPE`).
        case closed
        /// Another errno.
        case failed(Int32)
    }

    /// 127.0.0.1:`port` as a socket address, and its length.
    package static func loopback(port: UInt16) -> (address: sockaddr_storage, length: socklen_t) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        return (storage, socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    /// The port of a socket address (`sockaddr_in` or `sockaddr_in6`, which keep it at the same offset).
    package static func port(of address: sockaddr_storage) -> UInt16 {
        var address = address
        return withUnsafeBytes(of: &address) { UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port) }
    }

    /// A non-blocking TCP socket listening on 127.0.0.1:`port` (0: any free port), close-on-exec.
    /// The corresponding C functions are socket(2), setsockopt(2), bind(2) and listen(2).
    package static func listenOnLoopback(port: UInt16, backlog: Int32 = 1024) throws(SystemCallError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try socket(family: AF_INET, type: type).named("socket")
        setOption(fd, level: SOL_SOCKET, SO_REUSEADDR, to: 1)
        let (address, length) = loopback(port: port)
        do {
            try bind(fd, to: address, length: length).named("bind")
            try listen(fd, backlog: backlog).named("listen")
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The port a socket is bound to. The corresponding C function is getsockname(2).
    package static func localPort(_ fd: Int32) throws(SystemCallError) -> UInt16 {
        port(of: try localAddress(fd).named("getsockname"))
    }

    /// A free loopback port, found by binding port 0 and closing again: for a server that cannot be told
    /// `--port 0` (it would print 0 as its port). Another process could take it in between.
    package static func freeLoopbackPort() throws(SystemCallError) -> Int {
        let fd = try listenOnLoopback(port: 0, backlog: 1)
        defer { close(fd) }
        return Int(try localPort(fd))
    }

    /// A blocking TCP connection to 127.0.0.1:`port` with Nagle off (as WebSocket servers set it): reads use
    /// `MSG_DONTWAIT`, writes of a frame go out whole. The corresponding C functions are socket(2),
    /// connect(2) and setsockopt(2).
    package static func connectToLoopback(port: UInt16) throws(SystemCallError) -> Int32 {
        let fd = try socket(family: AF_INET, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            .named("socket")
        let (address, length) = loopback(port: port)
        do {
            try connect(fd, to: address, length: length).named("connect")
            try setOption(fd, level: Int32(IPPROTO_TCP), TCP_NODELAY, to: 1).named("setsockopt(TCP_NODELAY)")
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// An accepted connection with Nagle off, or nil when none is waiting. Left blocking (accept(2) does not
    /// pass on the listener's O_NONBLOCK): the floor's server reads with `MSG_DONTWAIT` and writes its small
    /// answers whole. The corresponding C function is accept(2).
    package static func acceptWithNoDelay(_ listener: Int32) throws(SystemCallError) -> Int32? {
        switch accept(listener) {
        case .success(let fd):
            try setOption(fd, level: Int32(IPPROTO_TCP), TCP_NODELAY, to: 1).named("setsockopt(TCP_NODELAY)")
            return fd
        case .failure(let error) where error.code == EAGAIN || error.code == ECONNABORTED:
            return nil
        case .failure(let error):
            throw SystemCallError(call: "accept", code: error.code)
        }
    }

    /// One non-blocking read into `buffer`. The corresponding C function is recv(2) with MSG_DONTWAIT.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        switch recv(fd, into: buffer, flags: Int32(MSG_DONTWAIT)) {
        case .success(let count): count > 0 ? .bytes(count) : .closed
        case .failure(let error): transfer(error)
        }
    }

    /// Writes all of `bytes` on a blocking socket, or fails. The corresponding C function is send(2) with
    /// MSG_NOSIGNAL (a closed peer is `.closed`, not SIGPIPE).
    package static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        var sent = 0
        while sent < bytes.count {
            switch send(fd, UnsafeRawBufferPointer(rebasing: bytes[sent...]), flags: 0) {
            case .success(let count) where count > 0: sent += count
            case .success: return .closed
            case .failure(let error): return transfer(error)
            }
        }
        return .bytes(sent)
    }

    private static func transfer(_ error: Errno) -> Transfer {
        switch error.code {
        case EAGAIN: .wouldBlock
        case ECONNRESET, EPIPE: .closed
        default: .failed(error.code)
        }
    }
}

/// A system call that failed: which, and its errno.
package struct SystemCallError: Error, CustomStringConvertible {
    package let call: String
    package let code: Int32

    package init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    package var description: String { "\(call): \(Errno(code: code).message)" }
}

extension Result where Failure == Errno {
    /// The value, or a ``SystemCallError`` naming `call`.
    package func named(_ call: String) throws(SystemCallError) -> Success {
        switch self {
        case .success(let value): value
        case .failure(let error): throw SystemCallError(call: call, code: error.code)
        }
    }
}

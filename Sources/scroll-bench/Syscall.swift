import CBenchSyscalls

#if canImport(Glibc)
    import Glibc
#endif

/// The floor's system calls (`scroll-bench floor` and its server side), in one place: each retries
/// `EINTR` once here, and a failure becomes a `SystemCallError` naming the call, so call sites say what
/// they mean. Loopback TCP only.
enum Syscall {
    /// What a non-blocking `recv` or `send` did.
    enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case bytes(Int)
        /// Nothing to read, or no room to write, right now (`EAGAIN`).
        case wouldBlock
        /// The peer closed the connection (`recv` returned 0, or `ECONNRESET`/`EPIPE`).
        case closed
        /// Another errno.
        case failed(Int32)
    }

    /// A non-blocking TCP socket listening on 127.0.0.1:`port` (0: any free port), close-on-exec.
    /// The corresponding C functions are socket(2), setsockopt(2), bind(2) and listen(2).
    static func listenOnLoopback(port: UInt16, backlog: Int32 = 1024) throws(SystemCallError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try check("socket", socket(AF_INET, type, 0))
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        do {
            try check("bind", bound)
            try check("listen", listen(fd, backlog))
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The port a socket is bound to. The corresponding C function is getsockname(2).
    static func localPort(_ fd: Int32) throws(SystemCallError) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        try check("getsockname", result)
        return UInt16(bigEndian: address.sin_port)
    }

    /// A free loopback port, found by binding port 0 and closing again: for a server that cannot be told
    /// `--port 0` (it would print 0 as its port). Another process could take it in between.
    static func freeLoopbackPort() throws(SystemCallError) -> Int {
        let fd = try listenOnLoopback(port: 0, backlog: 1)
        defer { close(fd) }
        return Int(try localPort(fd))
    }

    /// A blocking TCP connection to 127.0.0.1:`port` with Nagle off (as WebSocket servers set it): reads use
    /// `MSG_DONTWAIT`, writes of a frame go out whole. The corresponding C functions are socket(2),
    /// connect(2) and setsockopt(2).
    static func connectToLoopback(port: UInt16) throws(SystemCallError) -> Int32 {
        let fd = try check("socket", socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0))
        var address = loopback(port: port)
        var result: Int32
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } while result < 0 && errno == EINTR
        do {
            try check("connect", result)
            try noDelay(fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// An accepted connection with Nagle off, or nil when none is waiting. Left blocking (accept(2) does not
    /// pass on the listener's O_NONBLOCK): the floor's server reads with `MSG_DONTWAIT` and writes its small
    /// answers whole. The corresponding C function is accept(2).
    static func accept(_ listener: Int32) throws(SystemCallError) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                try noDelay(fd)
                return fd
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, ECONNABORTED: return nil
            default: throw SystemCallError(call: "accept", code: errno)
            }
        }
    }

    private static func noDelay(_ fd: Int32) throws(SystemCallError) {
        var one: Int32 = 1
        try check(
            "setsockopt(TCP_NODELAY)",
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)))
    }

    /// An epoll instance, close-on-exec. The corresponding C function is epoll_create1(2).
    static func epollCreate() throws(SystemCallError) -> Int32 {
        try check("epoll_create1", epoll_create1(Int32(EPOLL_CLOEXEC)))
    }

    /// Watches `fd` for input (level-triggered); `token` comes back with its events.
    /// The corresponding C function is epoll_ctl(2).
    static func epollWatch(_ epoll: Int32, _ fd: Int32, token: UInt64) throws(SystemCallError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = token
        try check("epoll_ctl", epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event))
    }

    /// Stops watching `fd` (e.g. a connection the peer closed, which would stay readable).
    /// The corresponding C function is epoll_ctl(2).
    static func epollForget(_ epoll: Int32, _ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) and returns how many of `events` were filled;
    /// 0 on a timeout or a signal. The corresponding C function is epoll_wait(2).
    static func epollWait(
        _ epoll: Int32, _ events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32
    ) throws(SystemCallError) -> Int {
        let count = epoll_wait(epoll, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        if count < 0 {
            if errno == EINTR { return 0 }
            throw SystemCallError(call: "epoll_wait", code: errno)
        }
        return Int(count)
    }

    /// One non-blocking read into `buffer`. The corresponding C function is recv(2) with MSG_DONTWAIT.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return failure(errno)
        }
    }

    /// Writes all of `bytes` on a blocking socket, or fails. The corresponding C function is send(2) with
    /// MSG_NOSIGNAL (a closed peer is `.closed`, not SIGPIPE).
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        var sent = 0
        while sent < bytes.count {
            let count = Glibc.send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if count > 0 {
                sent += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count == 0 ? .closed : failure(errno)
            }
        }
        return .bytes(sent)
    }

    /// The corresponding C function is close(2); its result is of no use for a socket the bench is done with.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Lets SIGTERM end this process, whatever it inherited: a parent that spawned it from a thread blocking
    /// signals (a test runner's) passes that mask on through exec. The corresponding C functions are
    /// sigprocmask(2) and signal(2).
    static func takeDefaultTermination() {
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
    }

    /// Writes `text` to standard output at once (the start line a parent reads from a pipe, which stdio
    /// would buffer). The corresponding C function is write(2).
    static func writeStandardOutput(_ text: String) {
        var text = text
        text.withUTF8 { buffer in _ = Glibc.write(STDOUT_FILENO, buffer.baseAddress, buffer.count) }
    }

    private static func failure(_ code: Int32) -> Transfer {
        switch code {
        case EAGAIN: .wouldBlock
        case ECONNRESET, EPIPE: .closed
        default: .failed(code)
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    @discardableResult
    private static func check(_ call: String, _ result: Int32) throws(SystemCallError) -> Int32 {
        guard result >= 0 else { throw SystemCallError(call: call, code: errno) }
        return result
    }
}

/// A system call that failed: which, and its errno.
struct SystemCallError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}

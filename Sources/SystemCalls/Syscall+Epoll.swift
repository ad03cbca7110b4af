import CSystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// epoll, for scroll-bench's floor (its server side waits on many connections at once).
extension Syscall {
    /// An epoll instance, close-on-exec. The corresponding C function is epoll_create1(2).
    package static func epollCreate() throws(SystemCallError) -> Int32 {
        try retryingInterrupts { epoll_create1(Int32(EPOLL_CLOEXEC)) }.named("epoll_create1")
    }

    /// Watches `fd` for input (level-triggered); `token` comes back with its events.
    /// The corresponding C function is epoll_ctl(2).
    package static func epollWatch(_ epoll: Int32, _ fd: Int32, token: UInt64) throws(SystemCallError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = token
        _ = try retryingInterrupts { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }.named("epoll_ctl")
    }

    /// Stops watching `fd` (e.g. a connection the peer closed, which would stay readable).
    /// The corresponding C function is epoll_ctl(2).
    package static func epollForget(_ epoll: Int32, _ fd: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) and returns how many of `events` were filled;
    /// 0 on a timeout or a signal. The corresponding C function is epoll_wait(2).
    package static func epollWait(
        _ epoll: Int32, _ events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32
    ) throws(SystemCallError) -> Int {
        let count = epoll_wait(epoll, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        if count < 0 {
            if errno == EINTR { return 0 }
            throw SystemCallError(call: "epoll_wait", code: errno)
        }
        return Int(count)
    }
}

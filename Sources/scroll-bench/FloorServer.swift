import CSystemCalls
import SystemCalls

/// The floor's server side, run as its own process (`scroll-bench floor-server`, started by `floor`):
/// one thread doing only `epoll_wait`, `recv` and `send`, each read written straight back. No parsing, no
/// framing, no allocation per message: what any server on this machine pays at least to answer a message.
enum FloorServer {
    /// The hidden mode's word; not listed as a mode, since `floor` starts it.
    static let modeName = "floor-server"
    /// The start line's beginning; the port follows it, as in the playground's own start line.
    static let announcement = "scroll-bench floor on http://127.0.0.1:"

    /// Listens on a free loopback port, prints the start line and serves until it is killed.
    static func run() -> Never {
        Syscall.takeDefaultTermination()
        do {
            try serve()
        } catch {
            fail("floor-server: \(error)")
        }
    }

    private static let listenerToken = UInt64.max

    private static func serve() throws(SystemCallError) -> Never {
        let listener = try Syscall.listenOnLoopback(port: 0)
        let epoll = try Syscall.epollCreate()
        try Syscall.epollWatch(epoll, listener, token: listenerToken)
        Syscall.writeAll(Syscall.standardOutput, announcement + "\(try Syscall.localPort(listener))\n")
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 1024)
        // 64 KiB: everything a connection has sent since the last pass, read at once (as a server batches).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        while true {
            let ready = try Syscall.epollWait(epoll, events, timeoutMilliseconds: -1)
            for event in events[..<ready] {
                let token = event.data.u64
                if token == listenerToken {
                    while let connection = try Syscall.acceptWithNoDelay(listener) {
                        try Syscall.epollWatch(epoll, connection, token: UInt64(connection))
                    }
                    continue
                }
                let fd = Int32(truncatingIfNeeded: token)
                switch Syscall.receive(fd, into: buffer) {
                case .bytes(let count):
                    if case .bytes = Syscall.sendAll(fd, UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                        continue
                    }
                    Syscall.close(fd)
                case .wouldBlock:
                    continue
                case .closed, .failed:
                    // Closing removes it from the epoll set.
                    Syscall.close(fd)
                }
            }
        }
    }
}

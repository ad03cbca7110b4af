#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket connected to the server on loopback, for the tests' raw clients.
enum LoopbackSocket {
    /// Connects to 127.0.0.1:`port`. `receiveBuffer` is set before connecting, so the TCP window starts
    /// small (a slow reader's kernel then cannot take a whole answer at once). `source` binds the client
    /// end to another loopback address (e.g. `127.0.0.2`), so the server sees a different client. Throws the
    /// errno.
    static func connect(port: Int, receiveBuffer: Int? = nil, source: String? = nil) throws(SocketError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(code: errno) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw SocketError(code: code)
            }
        }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw SocketError(code: code)
        }
        return fd
    }

    /// A socket call's errno.
    struct SocketError: Error {
        let code: Int32
    }
}

import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A socket call's errno, as the tests' raw clients throw it.
package struct SocketError: Error, Equatable {
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// A read or write that `SO_RCVTIMEO`/`SO_SNDTIMEO` cut short.
    package var timedOut: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

/// The raw TCP client side every socket test shares (the server's own tests and the playground's): a
/// loopback connection with the options a hostile or slow client needs, whole sends and bounded reads, on
/// the calls of ``Syscall``. Every wait is bounded, by a deadline or by the socket's receive timeout.
package enum LoopbackSocket {
    /// Connects to 127.0.0.1:`port`. `receiveBuffer` is set before connecting, so the TCP window starts
    /// small (a slow reader's kernel then cannot take a whole answer at once); `receiveTimeout` bounds every
    /// blocking read; `source` binds the client end to another loopback address (e.g. `127.0.0.2`), so the
    /// server sees a different client. The socket is closed if a step fails, so a caller's `deinit` never
    /// closes it a second time.
    package static func connect(
        port: Int, receiveBuffer: Int? = nil, receiveTimeout: Duration? = nil, source: String? = nil
    ) throws(SocketError) -> Int32 {
        let fd = try Syscall.socket(family: AF_INET, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            .mapError { SocketError(code: $0.code) }.get()
        do throws(SocketError) {
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                local.sin_addr.s_addr = inet_addr(source)
                try Syscall.bind(fd, to: storage(local), length: socklen_t(MemoryLayout<sockaddr_in>.size))
                    .mapError { SocketError(code: $0.code) }.get()
            }
            if let receiveBuffer {
                Syscall.setOption(fd, level: SOL_SOCKET, SO_RCVBUF, to: Int32(clamping: receiveBuffer))
            }
            if let receiveTimeout { try setTimeouts(fd, receive: receiveTimeout) }
            let (address, length) = Syscall.loopback(port: UInt16(port))
            try Syscall.connect(fd, to: address, length: length).mapError { SocketError(code: $0.code) }.get()
        } catch {
            Syscall.close(fd)
            throw error
        }
        return fd
    }

    /// Bounds every blocking read (`SO_RCVTIMEO`) and, when given, every blocking write (`SO_SNDTIMEO`).
    package static func setTimeouts(_ fd: Int32, receive: Duration, send: Duration? = nil) throws(SocketError) {
        for (option, duration) in [(SO_RCVTIMEO, receive), (SO_SNDTIMEO, send)] {
            guard let duration else { continue }
            try Syscall.setTimeOption(fd, option, to: duration).mapError { SocketError(code: $0.code) }.get()
        }
    }

    /// Sends all of `bytes`; the errno of the send that failed (`EPIPE`/`ECONNRESET` once the server closed).
    package static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            switch bytes[offset...].withUnsafeBytes({ Syscall.send(fd, $0, flags: 0) }) {
            case .success(let sent): offset += sent
            case .failure(let error): throw SocketError(code: error.code)
            }
        }
    }

    /// One blocking read into `buffer`: how many bytes (0 when the server closed), or the errno.
    package static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Result<Int, SocketError> {
        buffer.withUnsafeMutableBytes { Syscall.recv(fd, into: $0, flags: 0) }.mapError { SocketError(code: $0.code) }
    }

    /// Reads until the server closes (true) or a read fails or times out (false), handing each chunk to
    /// `chunk` (which may keep or only count it).
    @discardableResult
    package static func readToEnd(_ fd: Int32, bufferBytes: Int = 64 * 1024, _ chunk: (ArraySlice<UInt8>) -> Void)
        -> Bool
    {
        var buffer = [UInt8](repeating: 0, count: bufferBytes)
        while true {
            switch receive(fd, into: &buffer) {
            case .success(0): return true
            case .success(let count): chunk(buffer[..<count])
            case .failure(let error): return error.code == ECONNRESET
            }
        }
    }

    /// What was received once `done` says so, the server closed, or `timeout` passed (reads wait on `poll`).
    package static func readUntil(_ fd: Int32, timeout: Duration, _ done: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        _ = read(fd, timeout: timeout, into: &received, until: done)
        return received
    }

    /// Everything received until the server closed (`closed`) or `timeout` passed.
    package static func readUntilClosed(_ fd: Int32, timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let closed = read(fd, timeout: timeout, into: &received, until: { _ in false })
        return (received, closed)
    }

    /// Reads into `received` until `done`, the end of the stream (true) or the deadline.
    private static func read(
        _ fd: Int32, timeout: Duration, into received: inout [UInt8], until done: ([UInt8]) -> Bool
    ) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !done(received) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(min(max(1, left / .milliseconds(1)), 3_600_000))
            guard case .success(let ready) = Syscall.poll(&descriptors, timeoutMilliseconds: milliseconds), ready > 0
            else { continue }
            guard case .success(let count) = receive(fd, into: &buffer), count > 0 else { return true }
            received += buffer[..<count]
        }
        return false
    }

    /// A port that was free a moment ago, for a server that cannot be told `--port 0`.
    package static func freePort() throws(SocketError) -> Int {
        do {
            return try Syscall.freeLoopbackPort()
        } catch {
            throw SocketError(code: error.code)
        }
    }

    private static func storage(_ address: sockaddr_in) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        return storage
    }
}

/// Sleeps for `duration`, restarting when a signal interrupts: for tests whose pause or pace is the
/// behaviour under test (a slow reader), never for waiting on a condition.
package func pause(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
}

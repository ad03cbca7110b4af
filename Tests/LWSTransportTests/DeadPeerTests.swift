import Testing

@testable import LWSTransport

#if canImport(Glibc)
    import Glibc
#endif

/// Dead-peer detection through lws's retry-and-idle policy.
@Suite(.timeLimit(.minutes(10))) struct DeadPeerTests {
    @Test func silentPeerIsPingedThenDropped() throws {
        let server = try TestServer {
            $0.pingIntervalSeconds = 1
            $0.hangupSeconds = 2
        }
        // A peer that completes the handshake and then never answers anything, not even pings.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 6, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }  // the server hung up (or SO_RCVTIMEO bounded the wait)
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101"))
        // After the 101 head the server sent a PING frame (FIN + opcode 0x9).
        let head = try #require(text.range(of: "\r\n\r\n"))
        let frames = Array(received[text.utf8.distance(from: text.startIndex, to: head.upperBound)...])
        #expect(frames.first == 0x89)
        let closed = server.delegate.waitForClosed(count: 1, timeout: .seconds(2))
        #expect(closed?.values.first == .some(nil))
    }
}

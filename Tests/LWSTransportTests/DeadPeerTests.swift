import SocketTestSupport
import SystemCalls
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
        let fd = try LoopbackSocket.connect(port: server.port, receiveTimeout: .seconds(6))
        defer { Syscall.close(fd) }
        let request =
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        try LoopbackSocket.sendAll(fd, Array(request.utf8))

        // Until the server hangs up (or SO_RCVTIMEO bounds the wait).
        var received: [UInt8] = []
        LoopbackSocket.readToEnd(fd, bufferBytes: 4096) { received += $0 }
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

import Foundation
import LWSClient
import ScrollCore
import SocketTestSupport
import SystemCalls
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every well-formed request gets an answer at once, and every refused one an HTTP/1.1 answer with a
/// one-line reason: header names libwebsockets 4.1.6's parser cannot take, WebSocket handshakes that break
/// RFC 6455 §4.2.1, HTTP/1.1 without `Host` (RFC 9112 §3.2), a head ending `\n\r\n`. Raw sockets against the
/// real executable.
@Suite(.timeLimit(.minutes(10)))
struct FrontDoorAnswerTests {
    /// Names that are a proper prefix of one libwebsockets knows (`connection`, `host`, `origin`,
    /// `x-auth-token`, `transfer-encoding`, `cache-control`, `if-modified-since`, `get `), or that start with
    /// a method it matches without a colon (`put`).
    static let prefixNames = ["Con", "Ho", "Or", "X-A", "T", "Cache", "If-M", "Get", "Putt"]

    static let upgrade =
        "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"

    // MARK: Header names libwebsockets' parser cannot take

    @Test func aHeaderNamedWithAPrefixOfAKnownNameIsAnswered() throws {
        let server = try ServerProcess()
        let port = server.port
        for name in Self.prefixNames {
            let started = ContinuousClock.now
            // Last, where libwebsockets took the empty line for part of the name and waited for more.
            let last = try RawHTTP.exchange(port: port, RawHTTP.get("/healthz", port: port, extra: "\(name): 1\r\n"))
            #expect(last.responses.map(\.status) == [200], "\(name)")
            let waited = ContinuousClock.now - started
            #expect(waited < .seconds(2), "\(name): answered after \(waited)")
            // First, where libwebsockets swallowed the next line into the name: a foreign Host is still seen.
            let foreign = try RawHTTP.exchange(
                port: port, Array("GET /api/sessions HTTP/1.1\r\n\(name): 1\r\nHost: evil.example\r\n\r\n".utf8))
            #expect(foreign.responses.map(\.status) == [403], "\(name)")
            // A WebSocket upgrade too.
            let upgrade = try Self.answerHead(
                port, RawHTTP.get("/ws", port: port, extra: Self.upgrade + "\(name): 1\r\n"))
            #expect(upgrade.hasPrefix("HTTP/1.1 101 "), "\(name): \(upgrade)")
        }
    }

    /// 3,000 such heads held 3,014 descriptors for 10 s, and under a 1,024 limit 1,000 of them made
    /// `/healthz` get 503: each is now answered and closed at once, so under a limit of 256 wave after wave
    /// of them is answered and the server's descriptors come back.
    @Test func prefixNamedHeadsHoldNoDescriptors() throws {
        let server = try ServerProcess(launcher: ["/usr/bin/prlimit", "--nofile=256:256", "--"])
        let port = server.port
        let baseline = server.openDescriptorCount
        for wave in 0..<4 {
            var clients: [Int32] = []
            defer { for fd in clients { Syscall.close(fd) } }
            for index in 0..<120 {
                let fd = try LoopbackSocket.connect(port: port)
                clients.append(fd)
                let name = Self.prefixNames[index % Self.prefixNames.count]
                let head = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\(name): 1\r\n\r\n".utf8)
                #expect(throws: Never.self) { try LoopbackSocket.sendAll(fd, head) }
            }
            #expect(try HTTPProbe.get(port: port, path: "/healthz", timeout: .seconds(2)).status == 200)
            for fd in clients {
                let (bytes, closed) = LoopbackSocket.readUntilClosed(fd, timeout: .seconds(2))
                #expect(String(decoding: bytes.prefix(15), as: UTF8.self) == "HTTP/1.1 200 OK", "wave \(wave)")
                #expect(closed, "wave \(wave)")
            }
        }
        // The server closes each connection once its answer is out; a bounded wait for the last closes.
        let deadline = ContinuousClock.now + .seconds(2)
        while server.openDescriptorCount > baseline + 4, ContinuousClock.now < deadline {
            pause(for: .milliseconds(10))
        }
        #expect(server.openDescriptorCount <= baseline + 4, "\(server.openDescriptorCount) open, \(baseline) before")
    }

    /// The head of the answer to `request` on a new connection (read until its empty line, at most 5 s),
    /// for answers that keep the connection open (a 101).
    static func answerHead(_ port: Int, _ request: [UInt8]) throws -> String {
        let fd = try LoopbackSocket.connect(port: port)
        defer { Syscall.close(fd) }
        try? LoopbackSocket.sendAll(fd, request)
        let received = LoopbackSocket.readUntil(fd, timeout: .seconds(5)) { httpHeadEnd($0) != nil }
        return String(decoding: received, as: UTF8.self)
    }

    // MARK: WebSocket handshakes (RFC 6455 §4.2.1, §4.4)

    static func handshake(_ port: Int, _ lines: String) throws -> RawHTTP.Response {
        let exchange = try RawHTTP.exchange(
            port: port, Array("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(lines)\r\n".utf8))
        #expect(exchange.closedByServer)
        return try #require(exchange.responses.first, "no answer to \(lines.debugDescription)")
    }

    @Test func anotherWebSocketVersionGets426NamingVersion13() throws {
        let server = try ServerProcess()
        let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        for version in ["Sec-WebSocket-Version: 12\r\n", "Sec-WebSocket-Version: 13, 8\r\n", ""] {
            let answer = try Self.handshake(
                server.port, "Connection: Upgrade\r\nUpgrade: websocket\r\n\(key)\(version)")
            #expect(answer.statusLine == "HTTP/1.1 426 Upgrade Required", "\(version)")
            #expect(answer.headers["sec-websocket-version"] == "13", "\(version)")
            #expect(answer.headers["connection"] == "close")
            #expect(answer.text.hasPrefix("Upgrade Required: "), "\(answer.text)")
        }
    }

    @Test func aBrokenHandshakeGets400WithItsReason() throws {
        let server = try ServerProcess()
        let port = server.port
        let start = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        let cases = [
            "no key": start,
            "a short key": start + "Sec-WebSocket-Key: abc\r\n",
            "a key of 15 bytes": start + "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAA\r\n",
            "a key of 17 bytes": start + "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAAA=\r\n",
            "a key that is not base64": start + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ!=\r\n",
            "two keys": Self.upgrade + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
            "an unknown subprotocol": Self.upgrade + "Sec-WebSocket-Protocol: chat, superchat\r\n",
            "Connection: keep-alive": "Connection: keep-alive\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
            "Upgrade: h2c, WebSocket": "Connection: Upgrade\r\nUpgrade: h2c, WebSocket\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        ]
        for (name, lines) in cases {
            let answer = try Self.handshake(port, lines)
            #expect(answer.statusLine == "HTTP/1.1 400 Bad Request", "\(name)")
            #expect(answer.headers["connection"] == "close", "\(name)")
            #expect(answer.headers["content-security-policy"] != nil, "\(name)")
            // One line that says why.
            #expect(answer.text.hasPrefix("Bad Request: ") && answer.text.count > 20, "\(name): \(answer.text)")
            #expect(answer.text.filter { $0 == "\n" }.count == 1 && answer.text.hasSuffix("\n"), "\(name)")
        }
        // The subprotocol among others, and none at all, still open.
        for lines in [Self.upgrade + "Sec-WebSocket-Protocol: chat, scroll-playground.v1\r\n", Self.upgrade] {
            let head = try Self.answerHead(port, RawHTTP.get("/ws", port: port, extra: lines))
            #expect(head.hasPrefix("HTTP/1.1 101 "), "\(head)")
        }
    }

    // MARK: RFC 9112

    @Test func http11WithoutHostGets400AndHTTP10IsServed() throws {
        let server = try ServerProcess()
        let port = server.port
        let missing = try RawHTTP.exchange(port: port, Array("GET /healthz HTTP/1.1\r\n\r\n".utf8))
        #expect(missing.responses.map(\.statusLine) == ["HTTP/1.1 400 Bad Request"])
        #expect(missing.responses.first?.text == "Bad Request: HTTP/1.1 needs a Host header\n")
        let old = try RawHTTP.exchange(port: port, Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
        #expect(old.responses.map(\.status) == [200])
    }

    @Test func aHeadEndingInLFCRLFIsAnsweredAtOnce() throws {
        let server = try ServerProcess()
        let port = server.port
        for head in ["GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\n\r\n", "GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\r\n"] {
            let started = ContinuousClock.now
            let exchange = try RawHTTP.exchange(port: port, Array(head.utf8))
            #expect(exchange.responses.map(\.status) == [200], "\(head.debugDescription)")
            #expect(ContinuousClock.now - started < .seconds(2))
        }
    }

    // MARK: What docs/security.md says

    /// docs/security.md quotes the Content-Security-Policy every answer carries, word for word.
    @Test func theSecurityDocumentQuotesTheContentSecurityPolicyTheServerSends() throws {
        let server = try ServerProcess()
        let policy = try #require(try HTTPProbe.get(port: server.port, path: "/").header("content-security-policy"))
        let readme = try String(
            contentsOf: ServerProcess.packageRoot.appendingPathComponent("docs/security.md"), encoding: .utf8)
        #expect(readme.contains("`Content-Security-Policy: \(policy)`"), "docs/security.md does not quote: \(policy)")
    }

    /// `/recorder.js` is a public static script a page on another origin imports: it alone carries
    /// `Access-Control-Allow-Origin: *`; every other answer still has no CORS header.
    @Test func onlyTheRecorderIsServedToEveryOrigin() throws {
        let server = try ServerProcess()
        let port = server.port
        let origin = "Origin: http://localhost:3000\r\n"
        let recorder = try RawHTTP.exchange(port: port, RawHTTP.get("/recorder.js", port: port, extra: origin))
        let answer = try #require(recorder.responses.first)
        #expect(answer.status == 200)
        #expect(answer.headers["access-control-allow-origin"] == "*")
        #expect(answer.headers["content-type"] == "text/javascript")
        #expect(answer.text.contains("export function record"))
        // A HEAD answer has a content-length but no body: read its head as text.
        let head = try Self.answerHead(port, RawHTTP.get("/recorder.js", port: port, method: "HEAD", extra: origin))
        #expect(head.contains("\r\naccess-control-allow-origin: *\r\n"))
        // The header goes to that path alone.
        let below = try RawHTTP.exchange(port: port, RawHTTP.get("/recorder.js/index.html", port: port, extra: origin))
        #expect(below.responses.map(\.status) == [404])
        #expect(below.responses.first?.headers["access-control-allow-origin"] == nil)
        for path in [
            "/", "/index.html", "/js/main.js", "/healthz", "/api/sessions", "/no-such-file.js", "/recorder.jsx",
        ] {
            let other = try RawHTTP.exchange(port: port, RawHTTP.get(path, port: port, extra: origin))
            let response = try #require(other.responses.first, "\(path)")
            #expect(response.headers["access-control-allow-origin"] == nil, "\(path)")
        }
    }
}

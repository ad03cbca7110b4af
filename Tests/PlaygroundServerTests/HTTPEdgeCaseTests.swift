import Foundation
import LWSTransport
import ScrollCore
import Testing

/// HTTP requests a browser or a script may send that libwebsockets 4.1.6 mishandles on its own:
/// pipelining, large header blocks, `Upgrade: h2c`, HEAD, and the 503 at the session cap. Raw sockets
/// against the real executable.
@Suite(.timeLimit(.minutes(1)))
struct HTTPEdgeCaseTests {
    // MARK: Pipelining

    @Test func threePipelinedRequestsGetThreeAnswersInOrder() throws {
        let server = try ServerProcess()
        let port = server.port
        let exchange = try RawHTTP.exchange(
            port: port,
            RawHTTP.get("/healthz", port: port) + RawHTTP.get("/api/sessions", port: port)
                + RawHTTP.get("/healthz", port: port, extra: "Connection: close\r\n"))
        #expect(exchange.responses.map(\.status) == [200, 200, 200])
        #expect(try JSONParser.parse(exchange.responses[0].text)["status"] == "ok")
        #expect(try JSONParser.parse(exchange.responses[1].text)["sessions"] != nil)
        #expect(try JSONParser.parse(exchange.responses[2].text)["status"] == "ok")
        #expect(exchange.leftover.isEmpty)
    }

    @Test func anAPIAnswerAfterA404IsItsOwn() throws {
        let server = try ServerProcess()
        let port = server.port
        let exchange = try RawHTTP.exchange(
            port: port, RawHTTP.get("/api/nothing", port: port) + RawHTTP.get("/healthz", port: port))
        #expect(exchange.responses.map(\.status) == [404, 200])
        #expect(exchange.responses.first?.text == "Not Found\n")
        #expect(try JSONParser.parse(exchange.responses[1].text)["status"] == "ok")
        #expect(exchange.leftover.isEmpty)
    }

    /// libwebsockets answers a request pipelined behind a static file with a 403 of its own: the server
    /// closes after a file instead, and the client sends the rest again.
    @Test func aRequestBehindAFileIsNeverAnsweredWrongly() throws {
        let server = try ServerProcess()
        let port = server.port
        for file in ["/index.html", "/js/main.js", "/no-such-file.js"] {
            let exchange = try RawHTTP.exchange(
                port: port, RawHTTP.get(file, port: port) + RawHTTP.get("/api/sessions", port: port))
            let first = try #require(exchange.responses.first, "\(file): no answer")
            #expect(first.status == (file == "/no-such-file.js" ? 404 : 200), "\(file)")
            for later in exchange.responses.dropFirst() {
                #expect(later.status == 200, "\(file): then \(later.statusLine)")
                #expect(try JSONParser.parse(later.text)["sessions"] != nil, "\(file): then \(later.text.prefix(80))")
            }
            #expect(exchange.responses.count == 2 || exchange.closedByServer, "\(file): neither answered nor closed")
            #expect(exchange.leftover.isEmpty, "\(file): \(exchange.leftover.count) stray bytes")
        }
    }

    /// An answer larger than one write (here a trace) is written over several callbacks; a request
    /// pipelined behind it must never cost it its body.
    @Test func aRequestBehindALargeAnswerNeverCutsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--log-dir", directory, "--max-geometry-rate", "100000"])
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        for seq in 1...300 { try page.geometry(seq: seq, offsetY: Double(seq)) }
        _ = try page.next("state", where: { $0["ack"] == 300 })
        let port = server.port
        let trace = "/api/sessions/\(session)/trace"
        let alone = try RawHTTP.exchange(port: port, RawHTTP.get(trace, port: port, extra: "Connection: close\r\n"))
        let whole = try #require(alone.responses.first)
        #expect(whole.body.count > 64 * 1024, "the trace is too small to need several writes")

        // Known issue: lws re-binds the connection for the pipelined request (HTTP_DROP_PROTOCOL, then a
        // fresh per-session memory) before the first body is out, and that body is never written.
        withKnownIssue("a request pipelined behind an answer over 32 KiB loses that answer") {
            let exchange = try RawHTTP.exchange(
                port: port, RawHTTP.get(trace, port: port) + RawHTTP.get("/healthz", port: port))
            let first = try #require(exchange.responses.first)
            #expect(first.status == 200)
            #expect(first.body.count == Int(first.headers["content-length"] ?? ""))
            #expect(first.body.count >= whole.body.count)
            #expect(exchange.responses.count == 1 || exchange.responses.last?.status == 200)
            #expect(exchange.leftover.isEmpty)
        }
    }

    // MARK: Headers

    static func cookie(bytes: Int) -> String { "Cookie: session=" + String(repeating: "c", count: bytes) + "\r\n" }

    @Test func sixteenKiBOfHeadersAreServedAndMoreGet431() throws {
        let server = try ServerProcess()
        let port = server.port
        for path in ["/", "/healthz"] {
            let fits = try RawHTTP.exchange(
                port: port, RawHTTP.get(path, port: port, extra: Self.cookie(bytes: 15_000) + "Connection: close\r\n"))
            #expect(fits.responses.map(\.status) == [200], "\(path) with 15 KB of cookies")
            let over = try RawHTTP.exchange(
                port: port, RawHTTP.get(path, port: port, extra: Self.cookie(bytes: 20_000) + "Connection: close\r\n"))
            #expect(over.responses.map(\.status) == [431], "\(path) with 20 KB of cookies")
            #expect(over.responses.first?.statusLine.hasPrefix("HTTP/1.1 431") == true)
        }
        // A WebSocket upgrade too.
        let upgrade = try RawHTTP.exchange(
            port: port,
            RawHTTP.get(
                "/ws", port: port,
                extra: Self.cookie(bytes: 20_000) + "Connection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        #expect(upgrade.responses.map(\.status) == [431])
    }

    /// Beyond libwebsockets' own 32 KiB header buffer nothing can be answered: lws drops the connection
    /// without a callback (parsers.c "Ran out of header data space"). The server goes on.
    @Test func beyondTheHeaderBufferTheConnectionIsDroppedAndTheServerGoesOn() throws {
        let server = try ServerProcess()
        let port = server.port
        let dropped = try RawHTTP.exchange(
            port: port, RawHTTP.get("/", port: port, extra: Self.cookie(bytes: 40_000) + "Connection: close\r\n"))
        #expect(dropped.responses.isEmpty)
        #expect(dropped.closedByServer)
        #expect(try HTTPProbe.get(port: port, path: "/healthz").status == 200)
    }

    // MARK: Upgrades

    @Test func h2cIsNotUpgradedButAnsweredOverHTTP1() throws {
        let server = try ServerProcess()
        let port = server.port
        let exchange = try RawHTTP.exchange(
            port: port,
            RawHTTP.get(
                "/healthz", port: port,
                extra:
                    "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"
            ))
        #expect(exchange.responses.map(\.statusLine) == ["HTTP/1.1 200 OK"])
        // A foreign Host is still refused, h2c or not.
        let foreign = try RawHTTP.exchange(
            port: port,
            Array(
                ("GET /api/sessions HTTP/1.1\r\nHost: evil.example\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n").utf8))
        #expect(exchange.responses.count == 1)
        #expect(foreign.responses.map(\.status) == [403])
    }

    @Test func the503AtTheSessionCapIsAPlainHTTP11Answer() throws {
        let server = try ServerProcess(["--max-sessions", "1"])
        let port = server.port
        // The session's place is taken once its page has said hello.
        let held = try PlaygroundConnection(port: port)
        try held.hello()
        let exchange = try RawHTTP.exchange(
            port: port,
            RawHTTP.get(
                "/ws", port: port,
                extra: "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: scroll-playground.v1\r\n")
        )
        let answer = try #require(exchange.responses.first)
        #expect(answer.statusLine == "HTTP/1.1 503 Service Unavailable")
        #expect(answer.headers["connection"] == "close")
        #expect(answer.headers["content-security-policy"] != nil)
        #expect(answer.text.hasPrefix("Service Unavailable"))
        #expect(exchange.closedByServer)
        #expect(exchange.leftover.isEmpty)
        _ = held
    }

    // MARK: Methods

    @Test func headOnTheAPIAnswersLikeGetWithoutABody() throws {
        let server = try ServerProcess()
        let port = server.port
        for path in ["/healthz", "/api/sessions", "/api/events"] {
            let get = try HTTPProbe.get(port: port, path: path)
            let head = try HTTPProbe.exchange(
                port: port, request: RawHTTP.get(path, port: port, method: "HEAD", extra: "Connection: close\r\n"))
            #expect(head.status == 200, "\(path)")
            #expect(head.header("content-length") == String(get.body.count), "\(path)")
            #expect(head.header("content-type") == get.header("content-type"), "\(path)")
            #expect(head.body.isEmpty, "\(path)")
        }
    }

    // MARK: What libwebsockets refuses before any callback

    /// `%00` in the query and an absolute-form request target are refused by lws's request parser
    /// (parsers.c: a decoded NUL in the arguments fails the parse; a target not starting with `/` is
    /// forbidden) before the server sees the request: the first is dropped unanswered, the second gets
    /// lws's own 403. Pinned here so README says what really happens; the server goes on.
    @Test func whatTheParserRefusesIsRefusedAndTheServerGoesOn() throws {
        let server = try ServerProcess()
        let port = server.port
        let nul = try RawHTTP.exchange(port: port, RawHTTP.get("/api/events?session=a%00b", port: port))
        #expect(nul.responses.isEmpty)
        #expect(nul.closedByServer)
        let absolute = try RawHTTP.exchange(port: port, RawHTTP.get("http://127.0.0.1:\(port)/healthz", port: port))
        #expect(absolute.responses.map(\.status) == [403])
        #expect(try HTTPProbe.get(port: port, path: "/healthz").status == 200)
    }
}

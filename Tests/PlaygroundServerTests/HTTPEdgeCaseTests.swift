import Foundation
import LWSClient
import ScrollCore
import Testing

/// HTTP requests a browser or a script may send that libwebsockets 4.1.6 mishandles on its own:
/// pipelining, large header blocks, `Upgrade: h2c`, HEAD, `%00`, absolute-form targets and the 503 at the
/// session cap. Raw sockets against the real executable.
@Suite(.timeLimit(.minutes(10)))
struct HTTPEdgeCaseTests {
    // MARK: Pipelining

    /// A connection answers one request (`connection: close`, then the close); the client sends the requests
    /// it pipelined behind it again, each on a connection of its own (RFC 9112 §9.3.2), and gets their answers.
    @Test func pipelinedRequestsGetTheFirstAnswerThenAClose() throws {
        let server = try ServerProcess()
        let port = server.port
        let requests = ["/healthz", "/api/sessions", "/healthz"]
        let exchange = try RawHTTP.exchange(port: port, requests.flatMap { RawHTTP.get($0, port: port) })
        #expect(exchange.responses.map(\.status) == [200])
        #expect(exchange.responses.first?.headers["connection"] == "close")
        #expect(try JSONParser.parse(try #require(exchange.responses.first).text)["status"] == "ok")
        #expect(exchange.closedByServer)
        #expect(exchange.leftover.isEmpty)
        for path in requests.dropFirst() {
            let again = try RawHTTP.exchange(port: port, RawHTTP.get(path, port: port))
            #expect(again.responses.map(\.status) == [200], "\(path)")
            #expect(again.closedByServer)
        }
    }

    @Test func aRequestBehindA404IsNeverAnsweredWrongly() throws {
        let server = try ServerProcess()
        let port = server.port
        let exchange = try RawHTTP.exchange(
            port: port, RawHTTP.get("/api/nothing", port: port) + RawHTTP.get("/healthz", port: port))
        #expect(exchange.responses.map(\.status) == [404])
        #expect(exchange.responses.first?.text == "Not Found\n")
        #expect(exchange.responses.first?.headers["connection"] == "close")
        #expect(exchange.closedByServer)
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

        // libwebsockets 4.1.6 parses the pipelined request before the first body is out and loses that body;
        // the front door hands it only the first request.
        let exchange = try RawHTTP.exchange(
            port: port, RawHTTP.get(trace, port: port) + RawHTTP.get("/healthz", port: port))
        let first = try #require(exchange.responses.first)
        #expect(first.status == 200)
        #expect(first.body.count == Int(first.headers["content-length"] ?? ""))
        #expect(first.body.count >= whole.body.count)
        #expect(exchange.responses.count == 1)
        #expect(exchange.closedByServer)
        #expect(exchange.leftover.isEmpty)
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

    /// libwebsockets 4.1.6 drops a head that overflows its 32 KiB header buffer or its table of about 90
    /// header fragments without a word (parsers.c); the front door answers 431 to every head over 16 KiB or
    /// 64 header lines, headers libwebsockets does not know included.
    @Test func everyHeadOver16KiBOrTooManyLinesGets431() throws {
        let server = try ServerProcess()
        let port = server.port
        let heads = [
            "40 KB cookie": Self.cookie(bytes: 40_000),
            "100 KB cookie": Self.cookie(bytes: 100_000),
            "20 KB of unknown headers": String(
                repeating: "X-Foo: " + String(repeating: "x", count: 990) + "\r\n", count: 20),
            "120 cookie lines": String(repeating: "Cookie: a=b\r\n", count: 120),
            "120 unknown header lines": String(repeating: "X-Foo: a\r\n", count: 120),
        ]
        for (name, extra) in heads {
            let exchange = try RawHTTP.exchange(port: port, RawHTTP.get("/", port: port, extra: extra))
            let answer = try #require(exchange.responses.first, "\(name): no answer")
            #expect(answer.statusLine == "HTTP/1.1 431 Request Header Fields Too Large", "\(name)")
            #expect(answer.headers["connection"] == "close", "\(name)")
            #expect(answer.headers["content-security-policy"] != nil, "\(name)")
            #expect(exchange.closedByServer, "\(name)")
        }
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

    /// Every method but GET and HEAD, on every path (files, the API, the WebSocket's), is answered by the front
    /// door as RFC 9110 says: `OPTIONS` 204 with `Allow`, the defined methods 405 with `Allow`, others 501.
    /// libwebsockets served `/index.html` to `PUT` and `OPTIONS`, never answered `CONNECT` and gave `TRACE`
    /// an HTML 403.
    @Test func otherMethodsAreAnsweredAsRFC9110SaysOnEveryPath() throws {
        let server = try ServerProcess()
        let port = server.port
        func ask(_ method: String, _ target: String) throws -> HTTPProbe.Response {
            try HTTPProbe.exchange(
                port: port,
                request: RawHTTP.get(
                    target, port: port, method: method, extra: "Content-Length: 0\r\nConnection: close\r\n"))
        }
        for path in ["/", "/index.html", "/recorder.js", "/healthz", "/api/sessions", "/ws"] {
            for method in ["POST", "PUT", "PATCH", "DELETE", "TRACE"] {
                let response = try ask(method, path)
                #expect(response.status == 405, "\(method) \(path)")
                #expect(response.header("allow") == "GET, HEAD, OPTIONS", "\(method) \(path)")
                #expect(response.text.hasPrefix("Method Not Allowed: \(method)"), "\(method) \(path): \(response.text)")
                #expect(response.header("content-type")?.hasPrefix("text/plain") == true, "\(method) \(path)")
            }
            let options = try ask("OPTIONS", path)
            #expect(options.status == 204, "OPTIONS \(path)")
            #expect(options.header("allow") == "GET, HEAD, OPTIONS", "OPTIONS \(path)")
            #expect(options.body.isEmpty, "OPTIONS \(path)")
            #expect(try ask("BREW", path).status == 501, "BREW \(path)")
        }
        let connect = try ask("CONNECT", "127.0.0.1:\(port)")
        #expect(connect.status == 405)
        #expect(connect.header("allow") == "GET, HEAD, OPTIONS")
    }

    /// RFC 9112 §6.3: conflicting lengths, both framings or an unknown coding were answered 200.
    @Test func aRequestWithoutOneFramingIsRefused() throws {
        let server = try ServerProcess()
        let port = server.port
        for (fields, status) in [
            ("Content-Length: 0\r\nContent-Length: 5\r\n", 400),
            ("Content-Length: 0\r\nTransfer-Encoding: chunked\r\n", 400),
            ("Transfer-Encoding: xchunked\r\n", 501),
        ] {
            let response = try HTTPProbe.exchange(
                port: port, request: RawHTTP.get("/index.html", port: port, extra: fields + "Connection: close\r\n"))
            #expect(response.status == status, "\(fields)")
        }
    }

    // MARK: What libwebsockets' parser refused before any callback

    /// libwebsockets 4.1.6 drops a request whose query decodes to a NUL without a word (parsers.c); the front
    /// door answers 400.
    @Test func aNulInTheTargetGets400() throws {
        let server = try ServerProcess()
        let port = server.port
        for target in ["/api/events?session=a%00b", "/healthz?x=%00", "/index.html%00.txt"] {
            let exchange = try RawHTTP.exchange(port: port, RawHTTP.get(target, port: port))
            #expect(exchange.responses.map(\.statusLine) == ["HTTP/1.1 400 Bad Request"], "\(target)")
            #expect(exchange.responses.first?.headers["connection"] == "close", "\(target)")
            #expect(exchange.closedByServer, "\(target)")
        }
        #expect(try HTTPProbe.get(port: port, path: "/healthz").status == 200)
    }

    /// libwebsockets 4.1.6 answers an absolute-form target with an HTTP/1.0 403 of its own; one that names
    /// this server is served like its path, one that names another keeps 403, and the Host check holds.
    @Test func anAbsoluteFormTargetForThisServerIsServed() throws {
        let server = try ServerProcess()
        let port = server.port
        for authority in ["127.0.0.1:\(port)", "localhost:\(port)"] {
            let exchange = try RawHTTP.exchange(port: port, RawHTTP.get("http://\(authority)/healthz", port: port))
            let answer = try #require(exchange.responses.first, "\(authority): no answer")
            #expect(answer.statusLine == "HTTP/1.1 200 OK", "\(authority)")
            #expect(try JSONParser.parse(answer.text)["status"] == "ok", "\(authority)")
        }
        let page = try RawHTTP.exchange(port: port, RawHTTP.get("http://127.0.0.1:\(port)", port: port))
        #expect(page.responses.first?.status == 200)
        #expect(
            page.responses.first?.text.contains("<html") == true
                || page.responses.first?.text.contains("<!doctype") == true)
        for target in [
            "http://evil.example:\(port)/healthz", "http://127.0.0.1:1/healthz", "https://127.0.0.1:\(port)/healthz",
        ] {
            let exchange = try RawHTTP.exchange(port: port, RawHTTP.get(target, port: port))
            #expect(exchange.responses.map(\.statusLine) == ["HTTP/1.1 403 Forbidden"], "\(target)")
        }
        // DNS rebinding: the target names this server, the Host header an attacker's name.
        let rebound = try RawHTTP.exchange(
            port: port,
            Array("GET http://127.0.0.1:\(port)/api/sessions HTTP/1.1\r\nHost: evil.example\r\n\r\n".utf8))
        #expect(rebound.responses.map(\.status) == [403])
    }
}

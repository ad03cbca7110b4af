import Testing

@testable import LWSTransport

/// The front door's rules for a request head, as a pure function of the bytes read so far.
@Suite struct RequestHeadTests {
    static let port = 8080

    static func verdict(_ text: String, maxHeadBytes: Int = 16 * 1024) -> RequestHead.Verdict {
        verdict(Array(text.utf8), maxHeadBytes: maxHeadBytes)
    }

    static func verdict(_ bytes: [UInt8], maxHeadBytes: Int = 16 * 1024) -> RequestHead.Verdict {
        RequestHead.evaluate(bytes, maxHeadBytes: maxHeadBytes, subprotocol: "test.v1") { authority in
            authority == "127.0.0.1:\(port)" || authority == "localhost:\(port)"
        }
    }

    static let handshake = "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"

    static func admitted(_ text: String, webSocket: Bool = false) -> RequestHead.Verdict {
        .admit(bytes: Array(text.utf8), isWebSocketUpgrade: webSocket)
    }

    @Test func aHeadIsReadUntilItsEmptyLine() {
        #expect(Self.verdict("GET / HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        #expect(Self.verdict("GET / HTTP/1.1\r\nHost: a\r\n\r") == .incomplete)
        #expect(Self.verdict("GET / HTTP/1.1\r\nHost: a\r\n\r\n") == Self.admitted("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        // Bare LF line ends, which libwebsockets accepts too.
        #expect(Self.verdict("GET / HTTP/1.1\nHost: a\n\n") == Self.admitted("GET / HTTP/1.1\nHost: a\n\n"))
        #expect(Self.verdict("GET / HTTP/1.0\r\n\r\n") == Self.admitted("GET / HTTP/1.0\r\n\r\n"))
    }

    @Test func aPipelinedRequestIsNotHandedOnButAWebSocketsFirstFrameIs() {
        let get = "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(Self.verdict(get + "GET /api/sessions HTTP/1.1\r\n\r\n") == Self.admitted(get))
        let upgrade =
            "GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: WebSocket\r\n" + Self.handshake + "\r\n"
        #expect(Self.verdict(upgrade + "\u{81}\u{80}") == Self.admitted(upgrade + "\u{81}\u{80}", webSocket: true))
        // h2c is not a WebSocket: libwebsockets answers it over HTTP/1.1, one request like any other.
        let h2c = "GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n\r\n"
        #expect(Self.verdict(h2c + "PRI") == Self.admitted(h2c))
    }

    @Test func overTheLimitIs431WhateverTheLinesAre() {
        let line = "GET / HTTP/1.0\r\n"  // 1.0: no Host needed
        // No end in sight past the limit.
        #expect(
            Self.verdict(line + "Cookie: " + String(repeating: "c", count: 2_000), maxHeadBytes: 1_024)
                == .refuse(.headerFieldsTooLarge))
        // Ends, but past the limit: one byte over counts.
        let exact = line + "X-Foo: " + String(repeating: "x", count: 1_024 - line.utf8.count - 11) + "\r\n\r\n"
        #expect(exact.utf8.count == 1_024)
        #expect(Self.verdict(exact, maxHeadBytes: 1_024) == Self.admitted(exact))
        #expect(Self.verdict(exact, maxHeadBytes: 1_023) == .refuse(.headerFieldsTooLarge))
        // Too many lines, known to libwebsockets or not, however short.
        let many = line + String(repeating: "X-Foo: a\r\n", count: RequestHead.maxHeaderLines + 1) + "\r\n"
        #expect(Self.verdict(many) == .refuse(.headerFieldsTooLarge))
        let enough = line + String(repeating: "Accept: a\r\n", count: RequestHead.maxHeaderLines) + "\r\n"
        #expect(Self.verdict(enough) == Self.admitted(enough))
    }

    @Test(arguments: [
        "/api/events?session=a%00b", "/x%00/../y", "/%00", "/api?x=%0", "/api?x=%zz", "/a%", "/a%g0",
    ])
    func aNulOrABrokenEscapeInTheTargetIs400(target: String) {
        #expect(Self.verdict("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n") == .refuse(.badRequest))
    }

    @Test func aRawNulAnywhereIs400() {
        #expect(
            Self.verdict(Array("GET / HTTP/1.1\r\nX-Foo: a".utf8) + [0] + Array("b\r\n\r\n".utf8))
                == .refuse(.badRequest))
    }

    @Test(arguments: [
        "GET  / HTTP/1.1", "GET /", "GET / HTTP/1.1 x", " GET / HTTP/1.1", "G(T / HTTP/1.1", "GET / HTTX/1.1",
        "GET * HTTP/1.1", "GET /a\u{7f} HTTP/1.1", "",
    ])
    func aMalformedRequestLineIs400(line: String) {
        #expect(Self.verdict("\(line)\r\nHost: a\r\n\r\n") == .refuse(.badRequest))
    }

    /// Only GET and HEAD reach libwebsockets, which served a file to `PUT`, gave `CONNECT` no answer and
    /// `TRACE` an HTML 403 of its own: the door answers the rest, whatever the target's form.
    @Test func methodsOtherThanGetAndHeadAreAnsweredByTheDoor() {
        for (method, target) in [
            ("PUT", "/index.html"), ("POST", "/api/sessions"), ("DELETE", "/"), ("PATCH", "/"), ("TRACE", "/"),
            ("CONNECT", "127.0.0.1:8080"),
        ] {
            #expect(
                Self.verdict("\(method) \(target) HTTP/1.1\r\nHost: a\r\n\r\n") == .refuse(.methodNotAllowed(method)))
        }
        #expect(Self.verdict("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n") == .refuse(.options))
        #expect(Self.verdict("OPTIONS /index.html HTTP/1.1\r\nHost: a\r\n\r\n") == .refuse(.options))
        #expect(Self.verdict("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n") == .refuse(.notImplemented("method BREW")))
        #expect(
            Self.verdict("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n") == Self.admitted("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n"))
    }

    /// RFC 9112 §6.3: a head whose body could be framed two ways, or not at all, is refused (no smuggling
    /// was seen through the one-request connection, but a door answers no request it cannot frame).
    @Test func aHeadWithoutOneFramingIsRefused() {
        func head(_ fields: String) -> String { "GET / HTTP/1.1\r\nHost: a\r\n\(fields)\r\n" }
        #expect(
            Self.verdict(head("Content-Length: 5\r\nContent-Length: 6\r\n"))
                == .refuse(.badRequest("Content-Length values differ")))
        #expect(Self.verdict(head("Content-Length: 5, 6\r\n")) == .refuse(.badRequest("Content-Length values differ")))
        #expect(Self.verdict(head("Content-Length: -1\r\n")) == .refuse(.badRequest("Content-Length is not a length")))
        #expect(
            Self.verdict(head("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"))
                == .refuse(.badRequest("Transfer-Encoding and Content-Length together")))
        #expect(
            Self.verdict(head("Transfer-Encoding: xchunked\r\n"))
                == .refuse(.notImplemented("transfer coding xchunked")))
        #expect(
            Self.verdict(head("Transfer-Encoding: gzip, chunked\r\n"))
                == .refuse(.notImplemented("transfer coding gzip, chunked")))
        #expect(Self.verdict(head("Content-Length: 0\r\n")) == Self.admitted(head("Content-Length: 0\r\n")))
        #expect(Self.verdict(head("Content-Length: 7, 7\r\n")) == Self.admitted(head("Content-Length: 7, 7\r\n")))
    }

    @Test func anotherHTTPVersionIs505() {
        #expect(Self.verdict("GET / HTTP/2.0\r\n\r\n") == .refuse(.versionNotSupported))
        #expect(Self.verdict("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == .refuse(.versionNotSupported))
        #expect(Self.verdict("GET / HTTP/1.0\r\n\r\n") == Self.admitted("GET / HTTP/1.0\r\n\r\n"))
    }

    @Test(arguments: ["Host a", ": a", "Ho st: a", "Host : a", " folded", "\tfolded"])
    func aMalformedHeaderLineIs400(header: String) {
        #expect(Self.verdict("GET / HTTP/1.1\r\nX-Foo: a\r\n\(header)\r\n\r\n") == .refuse(.badRequest))
    }

    @Test func twoHostsAre400() {
        #expect(Self.verdict("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: evil.example\r\n\r\n") == .refuse(.badRequest))
    }

    @Test func tooManyQueryParametersAre414() {
        let fits = (1...RequestHead.maxQueryParameters).map { "a\($0)=1" }.joined(separator: "&")
        #expect(
            Self.verdict("GET /api?\(fits) HTTP/1.1\r\nHost: a\r\n\r\n")
                == Self.admitted("GET /api?\(fits) HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(Self.verdict("GET /api?\(fits);b=2 HTTP/1.1\r\n\r\n") == .refuse(.uriTooLong))
    }

    @Test func anAbsoluteFormTargetForThisServerBecomesOriginForm() {
        #expect(
            Self.verdict("GET http://127.0.0.1:8080/healthz HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
                == Self.admitted("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"))
        #expect(
            Self.verdict("HEAD HTTP://localhost:8080?x=1 HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\n\r\n")
                == Self.admitted("HEAD /?x=1 HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(
            Self.verdict("GET http://127.0.0.1:8080/a%00 HTTP/1.1\r\n\r\n") == .refuse(.badRequest))
    }

    @Test(arguments: [
        "http://evil.example:8080/healthz", "http://127.0.0.1:9999/healthz", "http://127.0.0.1/healthz",
        "https://127.0.0.1:8080/healthz", "ftp://127.0.0.1:8080/",
    ])
    func anAbsoluteFormTargetForAnotherServerIs403(target: String) {
        #expect(Self.verdict("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n") == .refuse(.forbidden))
    }

    @Test(arguments: ["http:/127.0.0.1:8080/", "http://user@127.0.0.1:8080/", "http:///x", "x"])
    func aTargetThatIsNeitherFormIs400(target: String) {
        #expect(Self.verdict("GET \(target) HTTP/1.1\r\n\r\n") == .refuse(.badRequest))
    }

    @Test func aRefusalIsAWholeHTTP11AnswerThatCloses() {
        let text = String(decoding: HTTPRefusal.badRequest.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(text.contains("\r\nconnection: close\r\n"))
        #expect(text.contains("\r\ncontent-length: 12\r\n"))
        #expect(text.hasSuffix("\r\n\r\nBad Request\n"))
    }

    // MARK: What libwebsockets' parser cannot take, and RFC 6455 / RFC 9112

    /// A name libwebsockets' trie walks into and stops inside (a proper prefix of a name it knows, or one
    /// running through `put`) is left out of what it reads; a name it knows, or one it leaves the trie
    /// with, stays.
    @Test func headerLinesLibwebsocketsWouldMisparseAreLeftOut() {
        for name in ["Con", "Ho", "Or", "X-A", "T", "Cache", "If-M", "Get", "Proxy", "P", "Put", "Putt", "Uri-Args"] {
            #expect(
                Self.verdict("GET / HTTP/1.1\r\n\(name): 1\r\nHost: a\r\n\r\n")
                    == Self.admitted("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), "\(name)")
            #expect(RequestHead.isMisparsedByLibwebsockets(name.lowercased()), "\(name)")
        }
        for name in ["host", "connection", "te", "x-forwarded-for", "x-foo", "conx", "hostx", "accepts", "dnt"] {
            #expect(!RequestHead.isMisparsedByLibwebsockets(name), "\(name)")
        }
        let kept = "GET / HTTP/1.1\r\nHost: a\r\nX-Foo: 1\r\nDNT: 1\r\n\r\n"
        #expect(Self.verdict(kept) == Self.admitted(kept))
    }

    @Test func aHeadEndingInLFCRLFIsComplete() {
        #expect(
            Self.verdict("GET / HTTP/1.1\r\nHost: a\n\r\n") == Self.admitted("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(Self.verdict("GET / HTTP/1.1\nHost: a\n\r\n") == Self.admitted("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(Self.verdict("GET / HTTP/1.1\r\nHost: a\n\r") == .incomplete)
    }

    @Test func http11WithoutHostIs400() {
        #expect(Self.verdict("GET / HTTP/1.1\r\n\r\n") == .refuse(.badRequest("HTTP/1.1 needs a Host header")))
        #expect(
            Self.verdict("GET / HTTP/1.1\r\nX-Foo: a\r\n\r\n") == .refuse(.badRequest("HTTP/1.1 needs a Host header")))
    }

    @Test func aWebSocketHandshakeThatBreaksRFC6455IsRefused() {
        let head = "GET /ws HTTP/1.1\r\nHost: a\r\n"
        let upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\n"
        let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        for version in ["", "Sec-WebSocket-Version: 8\r\n", "Sec-WebSocket-Version: 13, 8\r\n"] {
            guard case .refuse(let refusal) = Self.verdict(head + upgrade + key + version + "\r\n") else {
                Issue.record("\(version) admitted")
                continue
            }
            #expect(refusal.status == 426)
            #expect(refusal.headers == ["sec-websocket-version: 13"])
        }
        let version = "Sec-WebSocket-Version: 13\r\n"
        let refused = [
            upgrade + version,
            upgrade + version + "Sec-WebSocket-Key: abc\r\n",
            upgrade + version + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZR==\r\n",
            upgrade + version + key + key,
            upgrade + version + key + "Sec-WebSocket-Protocol: chat\r\nSec-WebSocket-Protocol: Test.v1\r\n",
            "Connection: keep-alive\r\nUpgrade: websocket\r\n" + version + key,
            "Connection: Upgrade\r\nUpgrade: h2c, websocket\r\n" + version + key,
        ]
        for lines in refused {
            guard case .refuse(let refusal) = Self.verdict(head + lines + "\r\n") else {
                Issue.record("\(lines.debugDescription) admitted")
                continue
            }
            #expect(refusal.status == 400, "\(lines.debugDescription)")
            #expect(refusal.detail != nil, "\(lines.debugDescription)")
        }
        for lines in [
            upgrade + version + key,
            "Connection: keep-alive, Upgrade\r\nUpgrade: WebSocket\r\n" + version + key,
            upgrade + version + key + "Sec-WebSocket-Protocol: chat, test.v1\r\n",
        ] {
            #expect(
                Self.verdict(head + lines + "\r\n") == Self.admitted(head + lines + "\r\n", webSocket: true),
                "\(lines.debugDescription)")
        }
    }

    @Test func aRefusalWithAReasonSaysItInOneLine() {
        let text = String(decoding: HTTPRefusal.upgradeRequired("version 13 only").bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
        #expect(text.contains("\r\nsec-websocket-version: 13\r\n"))
        #expect(text.hasSuffix("\r\n\r\nUpgrade Required: version 13 only\n"))
    }
}

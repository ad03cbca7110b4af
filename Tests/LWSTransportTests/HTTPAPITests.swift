import LWSClient
import Testing

@testable import LWSTransport

/// The callback mounts (`/healthz`, `/api`) routed to the delegate.
@Suite(.timeLimit(.minutes(10))) struct HTTPAPITests {
    @Test func healthzIsAnsweredByTheDelegate() throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: "/healthz")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("content-length") == "11")
        #expect(response.text == "{\"ok\":true}")
        #expect(response.header("content-security-policy") != nil)
        #expect(response.header("cache-control") == "no-store")
    }

    @Test func pathAndQueryAreDecoded() throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(
            port: server.port, path: "/api/echo?session=s%201&after=5&plus=a+b&literal=%2B")
        #expect(response.status == 200)
        #expect(response.text == "GET /api/echo after=5&literal=+&plus=a b&session=s 1")
    }

    @Test func unknownRouteIs404() throws {
        let server = try TestServer()
        #expect(try HTTPProbe.get(port: server.port, path: "/api/nothing").status == 404)
        // "/apix" is not under the "/api" mount: it goes to the file mount.
        #expect(try HTTPProbe.get(port: server.port, path: "/apix").status == 404)
    }

    @Test func largeBodyIsWrittenWhole() throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: "/api/big")
        #expect(response.status == 200)
        #expect(response.body.count == 200_000)
        #expect(response.body.allSatisfy { $0 == UInt8(ascii: "x") })
    }

    @Test func otherMethodsAre405() throws {
        let server = try TestServer()
        let request = "DELETE /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        let response = try HTTPProbe.exchange(port: server.port, request: Array(request.utf8))
        #expect(response.status == 405)
    }

    @Test func headGetsTheHeadersWithoutABody() throws {
        let server = try TestServer()
        let request = "HEAD /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        let response = try HTTPProbe.exchange(port: server.port, request: Array(request.utf8))
        #expect(response.status == 200)
        #expect(response.header("content-length") == "11")
        #expect(response.body.isEmpty)
    }
}

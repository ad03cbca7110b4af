import Foundation
import LWSClient
import ScrollCore
import Testing

/// The page's files and the safe defaults, over real sockets.
@Suite(.timeLimit(.minutes(10)))
struct HTTPServingTests {
    @Test func indexIsServedAsHTML() throws {
        let server = try ServerProcess()
        let response = try HTTPProbe.get(port: server.port, path: "/")
        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("text/html") == true)
        #expect(response.text.contains("<html"))
        #expect(response.header("content-security-policy")?.contains("script-src 'self'") == true)
        #expect(response.header("content-security-policy")?.contains("unsafe-inline") == false)
    }

    @Test func missingFileIs404() throws {
        let server = try ServerProcess()
        #expect(try HTTPProbe.get(port: server.port, path: "/no-such-file.js").status == 404)
    }

    @Test(arguments: [
        "/../Package.swift", "/%2e%2e/Package.swift", "/%2E%2E/Package.swift", "/js/../../Package.swift",
        "/%252e%252e/Package.swift",
    ])
    func traversalIsRefused(path: String) throws {
        let server = try ServerProcess()
        let response = try HTTPProbe.get(port: server.port, path: path)
        #expect(response.status >= 400)
        #expect(!response.text.contains("PackageDescription"))
    }

    @Test func foreignOriginIsRefusedOwnAndAllowedAccepted() throws {
        let server = try ServerProcess(["--allow-origin", "http://tools.example"])
        let foreign = try HTTPProbe.upgrade(
            port: server.port, subprotocol: "scroll-playground.v1", origin: "http://evil.example")
        #expect(foreign.status == 403)
        let own = try HTTPProbe.upgrade(
            port: server.port, subprotocol: "scroll-playground.v1", origin: "http://127.0.0.1:\(server.port)")
        #expect(own.status == 101)
        let allowed = try HTTPProbe.upgrade(
            port: server.port, subprotocol: "scroll-playground.v1", origin: "http://tools.example")
        #expect(allowed.status == 101)
    }

    @Test func healthz() throws {
        let server = try ServerProcess()
        let response = try HTTPProbe.get(port: server.port, path: "/healthz")
        #expect(response.status == 200)
        #expect(try JSONParser.parse(response.body)["status"] == "ok")
    }

    @Test func badEventQueryIs400() throws {
        let server = try ServerProcess()
        #expect(try HTTPProbe.get(port: server.port, path: "/api/events?limit=0").status == 400)
        #expect(try HTTPProbe.get(port: server.port, path: "/api/events?after=x").status == 400)
        #expect(try HTTPProbe.get(port: server.port, path: "/api/nothing").status == 404)
    }
}

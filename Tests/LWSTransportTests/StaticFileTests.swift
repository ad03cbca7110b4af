import LWSClient
import Testing

@testable import LWSTransport

/// The file mount: MIME types, 404s, and what must never be served.
@Suite(.timeLimit(.minutes(10))) struct StaticFileTests {
    @Test(arguments: [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/app.js", "text/javascript"),
        ("/module.mjs", "text/javascript"),
        ("/style.css", "text/css"),
        ("/data.json", "application/json"),
        ("/icon.svg", "image/svg+xml"),
        ("/image.png", "image/png"),
        ("/favicon.ico", "image/x-icon"),
        ("/font.woff2", "font/woff2"),
        ("/app.js.map", "application/json"),
        ("/module.wasm", "application/wasm"),
    ])
    func servesFileWithItsMimeType(path: String, mimeType: String) throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: path)
        #expect(response.status == 200)
        #expect(response.header("content-type") == mimeType)
        #expect(response.header("content-length") == String(response.body.count))
    }

    @Test func rootAndDirectoriesServeTheirIndex() throws {
        let server = try TestServer()
        #expect(try HTTPProbe.get(port: server.port, path: "/").text.contains("<title>index</title>"))
        #expect(try HTTPProbe.get(port: server.port, path: "/sub/").text.contains("<title>sub</title>"))
    }

    @Test func missingFileIs404() throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: "/missing.js")
        #expect(response.status == 404)
        // The delegate only sees the API mounts, never file misses.
        #expect(server.delegate.log.update { $0.received.isEmpty })
    }

    @Test func directoryWithoutIndexIsNotListed() throws {
        let server = try TestServer()
        for path in ["/empty/", "/empty"] {
            #expect(try HTTPProbe.get(port: server.port, path: path).status == 404, "\(path)")
        }
    }

    @Test func unknownFileTypeIs415() throws {
        let server = try TestServer()
        #expect(try HTTPProbe.get(port: server.port, path: "/notes.xyz").status == 415)
    }

    @Test(arguments: [
        "/../Package.swift",
        "/%2e%2e/Package.swift",
        "/%2E%2E/Package.swift",
        "/%252e%252e/Package.swift",
        "/sub/../../Package.swift",
        "/..%2fPackage.swift",
        "/%2e%2e%2fPackage.swift",
        "//../Package.swift",
        "/escape.txt",
    ])
    func traversalIsRefused(path: String) throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: path)
        #expect(response.status == 404)
        #expect(!response.text.contains(Fixture.outsideMarker))
    }

    @Test(arguments: ["/.secret", "/sub/.hidden", "/%2esecret", "/.git/config", "/sub/%2ehidden"])
    func dotfilesAreRefused(path: String) throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: path)
        #expect(response.status == 404)
        #expect(!response.text.contains(Fixture.secretMarker))
    }

    @Test func normalizedPathsInsideThePublicDirectoryStillWork() throws {
        let server = try TestServer()
        for path in ["/sub/../index.html", "/sub/%2e%2e/index.html", "/./index.html", "//index.html"] {
            #expect(try HTTPProbe.get(port: server.port, path: path).status == 200, "\(path)")
        }
    }

    @Test func securityHeadersArePresent() throws {
        let server = try TestServer()
        let response = try HTTPProbe.get(port: server.port, path: "/")
        let policy = try #require(response.header("content-security-policy"))
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'self'"))
        #expect(policy.contains("connect-src 'self' ws: wss:"))
        #expect(response.header("x-content-type-options") == "nosniff")
        #expect(response.header("x-frame-options") == "deny")
        #expect(response.header("referrer-policy") == "no-referrer")
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// The refusals of the hardening issue over real sockets: origins, static paths, headers and the
/// warning for a non-loopback address.
@Suite(.timeLimit(.minutes(10)))
struct SecurityTests {
    // MARK: Origin

    @Test func withoutAllowOriginOnlyTheServersOwnOriginOrNoneIsAccepted() throws {
        let server = try ServerProcess()
        let port = server.port
        func upgrade(_ origin: String?) throws -> Int {
            try HTTPProbe.upgrade(port: port, subprotocol: "scroll-playground.v1", origin: origin).status
        }
        #expect(try upgrade(nil) == 101)
        #expect(try upgrade("http://127.0.0.1:\(port)") == 101)
        #expect(try upgrade("HTTP://127.0.0.1:\(port)/") == 101)
        for foreign in [
            "http://evil.example", "null", "http://127.0.0.1:\(port + 1)", "https://127.0.0.1:\(port)",
            "http://localhost:\(port)", "http://127.0.0.1:\(port).evil.example", "http://tools.example",
        ] {
            #expect(try upgrade(foreign) == 403, "\(foreign) accepted")
        }
        #expect(throws: ClientError.handshakeFailed(status: 403)) {
            _ = try WebSocketClient.connect(
                port: port, subprotocol: "scroll-playground.v1", origin: "http://evil.example")
        }
    }

    @Test func allowOriginAddsExactlyTheNamedOrigins() throws {
        let server = try ServerProcess([
            "--allow-origin", "http://tools.example", "--allow-origin", "https://b.example:8443",
        ])
        let port = server.port
        func upgrade(_ origin: String) throws -> Int {
            try HTTPProbe.upgrade(port: port, subprotocol: "scroll-playground.v1", origin: origin).status
        }
        #expect(try upgrade("http://tools.example") == 101)
        #expect(try upgrade("https://b.example:8443") == 101)
        #expect(try upgrade("http://127.0.0.1:\(port)") == 101)
        for foreign in [
            "https://tools.example", "http://tools.example:8080", "http://sub.tools.example", "http://b.example:8443",
        ] {
            #expect(try upgrade(foreign) == 403, "\(foreign) accepted")
        }
    }

    // MARK: Host (DNS rebinding)

    /// A GET (or upgrade) with `host` as the `Host` header, whatever address it is sent to.
    static func request(port: Int, path: String, host: String, origin: String? = nil, upgrade: Bool = false) throws
        -> Int
    {
        var text = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: \(upgrade ? "Upgrade" : "close")\r\n"
        if upgrade {
            text += "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        }
        if let origin { text += "Origin: \(origin)\r\n" }
        return try HTTPProbe.exchange(port: port, request: Array((text + "\r\n").utf8)).status
    }

    @Test func onLoopbackAForeignHostIsRefusedEvenWithAMatchingOrigin() throws {
        let server = try ServerProcess()
        let port = server.port
        // A rebound name: Host and Origin agree, so only the Host check stops it.
        let evil = "evil.example:\(port)"
        #expect(try Self.request(port: port, path: "/", host: evil) == 403)
        #expect(try Self.request(port: port, path: "/api/sessions", host: evil) == 403)
        #expect(try Self.request(port: port, path: "/ws", host: evil, origin: "http://\(evil)", upgrade: true) == 403)
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
            #expect(try Self.request(port: port, path: "/api/sessions", host: host) == 200, "\(host)")
        }
        #expect(
            try Self.request(
                port: port, path: "/ws", host: "localhost:\(port)", origin: "http://localhost:\(port)", upgrade: true)
                == 101)
    }

    @Test func onAnotherAddressEveryHostIsServed() throws {
        let server = try ServerProcess(["--host", "0.0.0.0"])
        #expect(
            try Self.request(port: server.port, path: "/api/sessions", host: "my-machine.lan:\(server.port)") == 200)
    }

    // MARK: Static files

    /// A public directory with dotfiles, a subdirectory without an index and a symbolic link out, next
    /// to a file that must never be served.
    final class Site {
        let root: URL
        let publicDirectory: URL
        static let secret = "TOP-SECRET-OUTSIDE"

        init() throws {
            let manager = FileManager.default
            root = manager.temporaryDirectory.appendingPathComponent("sp-site-\(UUID().uuidString)")
            publicDirectory = root.appendingPathComponent("public")
            try manager.createDirectory(
                at: publicDirectory.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try manager.createDirectory(
                at: publicDirectory.appendingPathComponent(".git"), withIntermediateDirectories: true)
            try manager.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try Data("<html><body>index</body></html>".utf8).write(
                to: publicDirectory.appendingPathComponent("index.html"))
            try Data("sub file".utf8).write(to: publicDirectory.appendingPathComponent("sub/file.txt"))
            try Data("DOTFILE-SECRET".utf8).write(to: publicDirectory.appendingPathComponent(".env"))
            try Data("DOTFILE-SECRET".utf8).write(to: publicDirectory.appendingPathComponent(".git/config"))
            try Data(Self.secret.utf8).write(to: root.appendingPathComponent("secret.txt"))
            try Data(Self.secret.utf8).write(to: root.appendingPathComponent("outside/secret.txt"))
            try manager.createSymbolicLink(
                at: publicDirectory.appendingPathComponent("escape"),
                withDestinationURL: root.appendingPathComponent("outside"))
            try manager.createSymbolicLink(
                at: publicDirectory.appendingPathComponent("link.txt"),
                withDestinationURL: root.appendingPathComponent("secret.txt"))
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }
    }

    static let refusedPaths = [
        // Dotfiles and dot-directories, plain and encoded.
        "/.env", "/%2eenv", "/%2Eenv", "/%252eenv", "/.git/config", "/%2egit/config", "/sub/../.env",
        // Outside the public directory: plain, encoded, double-encoded, mixed, backslashes.
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
        "/%252e%252e/secret.txt", "/%252e%252e%252fsecret.txt", "/sub/../../secret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/sub/..%2f..%2fsecret.txt", "/..%5csecret.txt", "/%5c..%5csecret.txt", "/.%2e/secret.txt", "/%2e./secret.txt",
        "//../secret.txt", "/%00/../secret.txt", "/index.html%00.txt",
        // Symbolic links that lead out.
        "/escape/secret.txt", "/link.txt",
    ]

    @Test func dotfilesOutsidePathsAndLinksOutAreRefused() throws {
        let site = try Site()
        let server = try ServerProcess(["--public", site.publicDirectory.path])
        #expect(try HTTPProbe.get(port: server.port, path: "/").text.contains("index"))
        #expect(try HTTPProbe.get(port: server.port, path: "/sub/file.txt").text == "sub file")
        for path in Self.refusedPaths {
            // Every refusal is an answer (the front door reads each head before libwebsockets' parser,
            // which used to hang up on a %00).
            let response = try HTTPProbe.get(port: server.port, path: path)
            #expect(response.status >= 400, "\(path) answered \(response.status)")
            #expect(!response.text.contains("SECRET"), "\(path) leaked \(response.text.prefix(80))")
        }
    }

    @Test func aDirectoryIsNeverListed() throws {
        let site = try Site()
        let server = try ServerProcess(["--public", site.publicDirectory.path])
        for path in ["/sub", "/sub/", "/sub/.", "/escape/"] {
            let response = try HTTPProbe.get(port: server.port, path: path)
            #expect(!response.text.contains("file.txt"), "\(path) listed the directory")
            #expect(!response.text.contains("secret"), "\(path) listed the directory")
            #expect(response.status != 200 || response.text.contains("index"), "\(path) answered \(response.status)")
        }
    }

    // MARK: Headers

    @Test func everyResponseCarriesAStrictPolicyWithoutUnsafeInline() throws {
        let server = try ServerProcess()
        for path in ["/", "/index.html", "/healthz", "/api/sessions", "/no-such-file.js"] {
            let response = try HTTPProbe.get(port: server.port, path: path)
            let policy = try #require(response.header("content-security-policy"), "\(path): no CSP")
            #expect(!policy.contains("unsafe-inline"), "\(path): \(policy)")
            #expect(!policy.contains("unsafe-eval"), "\(path): \(policy)")
            #expect(policy.contains("default-src 'none'"), "\(path): \(policy)")
            #expect(response.header("x-content-type-options") == "nosniff", "\(path)")
        }
        let page = try HTTPProbe.get(port: server.port, path: "/").text
        #expect(!page.contains("<script>"), "inline script in the page")
        #expect(!page.contains("<style"), "inline style in the page")
        #expect(!page.contains(" style=\""), "inline style attribute in the page")
    }

    // MARK: Listening address

    @Test func theDefaultListensOnLoopbackWithoutAWarning() throws {
        let server = try ServerProcess()
        let line = try #require(server.outputLines.first)
        #expect(line.hasPrefix("Scroll Playground on http://127.0.0.1:"))
        #expect(server.stop() == 0)
        #expect(!server.stderrText.contains("authentication"))
    }

    @Test func anyOtherAddressPrintsTheNoAuthenticationWarning() throws {
        let server = try ServerProcess(["--host", "0.0.0.0"])
        let warning = server.waitForStderr { $0.contains("no authentication") }
        #expect(warning?.contains("warning: listening on 0.0.0.0") == true)
        // It still serves on loopback too.
        #expect(try HTTPProbe.get(port: server.port, path: "/healthz").status == 200)
    }
}

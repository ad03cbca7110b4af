import Testing

@testable import LWSTransport

@Suite struct UpgradePolicyTests {
    let policy = UpgradePolicy(webSocketPath: "/ws", allowedOrigins: ["https://example.com/"], maxConnections: 2)

    @Test func acceptsNoOriginOwnOriginAndAllowedOrigins() {
        #expect(policy.evaluate(path: "/ws", origin: nil, host: "h:1", openConnections: 0) == nil)
        #expect(policy.evaluate(path: "/ws", origin: "http://h:1", host: "h:1", openConnections: 0) == nil)
        #expect(policy.evaluate(path: "/ws", origin: "HTTP://H:1", host: "h:1", openConnections: 0) == nil)
        #expect(policy.evaluate(path: "/ws", origin: "https://example.com", host: "h:1", openConnections: 1) == nil)
    }

    @Test func refusesOtherOriginsPathsAndOverCapacity() {
        #expect(policy.evaluate(path: "/ws", origin: "http://evil", host: "h:1", openConnections: 0) == .foreignOrigin)
        #expect(policy.evaluate(path: "/ws", origin: "https://h:1", host: "h:1", openConnections: 0) == .foreignOrigin)
        #expect(policy.evaluate(path: "/ws", origin: "null", host: "h:1", openConnections: 0) == .foreignOrigin)
        #expect(policy.evaluate(path: "/ws", origin: "http://h:1", host: nil, openConnections: 0) == .foreignOrigin)
        #expect(policy.evaluate(path: "/other", origin: nil, host: "h:1", openConnections: 0) == .wrongPath)
        #expect(policy.evaluate(path: "/ws", origin: nil, host: "h:1", openConnections: 2) == .overCapacity)
        #expect(UpgradePolicy.Refusal.foreignOrigin.status == 403)
        #expect(UpgradePolicy.Refusal.overCapacity.status == 503)
    }
}

@Suite struct StaticPathPolicyTests {
    @Test func lexicalRules() {
        for path in ["/", "/index.html", "/js/main.js", "/a-b_c.d/e"] {
            #expect(StaticPathPolicy.isLexicallyAllowed(path), "\(path)")
        }
        for path in ["/.secret", "/a/../b", "/a/./b", "/%2e%2e/x", "/a\\b", "relative", "/a/.git/config", "/x\u{1}"] {
            #expect(!StaticPathPolicy.isLexicallyAllowed(path), "\(path)")
        }
    }

    @Test func symlinkOutOfTheRootIsRefused() throws {
        let policy = try #require(StaticPathPolicy(publicDirectory: Fixture.publicDirectory))
        #expect(policy.allows("/index.html"))
        #expect(policy.allows("/does-not-exist.js"))
        #expect(!policy.allows("/escape.txt"))
    }
}

@Suite struct HostPolicyTests {
    @Test func onLoopbackOnlyLoopbackNamesAreAccepted() {
        let policy = HostPolicy(listenHost: "127.0.0.1")
        for host in [nil, "127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080", "127.0.0.2", "localhost"] {
            #expect(policy.accepts(host), "\(host ?? "nil")")
        }
        for host in [
            "evil.example:8080", "evil.example", "127.0.0.1.evil.example:80", "localhost.evil.example", "10.0.0.1:8080",
            "[::2]:8080", "", "127.0.0:1",
        ] {
            #expect(!policy.accepts(host), "\(host)")
        }
        #expect(HostPolicy(listenHost: "localhost").loopbackOnly)
        #expect(HostPolicy(listenHost: "::1").loopbackOnly)
    }

    @Test func onOtherAddressesEveryHostIsAccepted() {
        for listen in ["0.0.0.0", "::", "192.168.1.5", ""] {
            #expect(HostPolicy(listenHost: listen).accepts("evil.example:8080"), "\(listen)")
        }
    }
}

import LWSClient
import Testing

@testable import LWSTransport

/// Subprotocol binding, the Origin check, the path check and the connection limit.
@Suite(.timeLimit(.minutes(10))) struct WebSocketHandshakeTests {
    @Test func connectsWithTheSubprotocol() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port, subprotocol: TestServer.subprotocol)
        #expect(client.subprotocol == TestServer.subprotocol)
        try client.send("hello")
        #expect(client.receive() == .text("hello"))
    }

    @Test func connectsWithoutASubprotocol() throws {
        let server = try TestServer()
        // lws binds a client naming no subprotocol to protocols[0], which is the configured one.
        let client = try WebSocketClient.connect(port: server.port, subprotocol: nil)
        #expect(client.subprotocol == nil)
        try client.send("hello")
        #expect(client.receive() == .text("hello"))
        #expect(server.delegate.log.update { $0.opened.count } == 1)
    }

    @Test func rawUpgradeWithoutSubprotocolGets101() throws {
        let server = try TestServer()
        let response = try HTTPProbe.upgrade(port: server.port)
        #expect(response.status == 101)
        #expect(response.header("sec-websocket-protocol") == nil)
    }

    @Test func foreignOriginIsRefusedWith403() throws {
        let server = try TestServer()
        let response = try HTTPProbe.upgrade(port: server.port, origin: "http://evil.example")
        #expect(response.status == 403)
        #expect(throws: ClientError.handshakeFailed(status: 403)) {
            try WebSocketClient.connect(port: server.port, origin: "http://evil.example")
        }
        #expect(server.delegate.log.update { $0.opened.isEmpty })
    }

    @Test func ownOriginIsAccepted() throws {
        let server = try TestServer()
        let client = try WebSocketClient.connect(port: server.port, origin: "http://127.0.0.1:\(server.port)")
        try client.send("ok")
        #expect(client.receive() == .text("ok"))
    }

    @Test func ownOriginWithOtherPortIsRefused() throws {
        let server = try TestServer()
        let response = try HTTPProbe.upgrade(port: server.port, origin: "http://127.0.0.1:1")
        #expect(response.status == 403)
    }

    @Test func allowedOriginIsAccepted() throws {
        let server = try TestServer { $0.allowedOrigins = ["http://localhost:5173"] }
        let client = try WebSocketClient.connect(port: server.port, origin: "http://localhost:5173")
        try client.send("ok")
        #expect(client.receive() == .text("ok"))
        #expect(try HTTPProbe.upgrade(port: server.port, origin: "http://localhost:5174").status == 403)
    }

    @Test func upgradeOnAnotherPathIs404() throws {
        let server = try TestServer()
        #expect(try HTTPProbe.upgrade(port: server.port, path: "/api/events").status == 404)
        #expect(try HTTPProbe.upgrade(port: server.port, path: "/").status == 404)
    }

    @Test func upgradeOverTheConnectionLimitIs503() throws {
        let server = try TestServer { $0.maxConnections = 2 }
        let first = try WebSocketClient.connect(port: server.port)
        let second = try WebSocketClient.connect(port: server.port)
        #expect(try HTTPProbe.upgrade(port: server.port).status == 503)
        #expect(throws: ClientError.handshakeFailed(status: 503)) {
            try WebSocketClient.connect(port: server.port)
        }
        first.close()
        #expect(try first.waitForClose() == 1000)
        #expect(server.delegate.waitForClosed(count: 1) != nil)
        // A slot is free again.
        let third = try WebSocketClient.connect(port: server.port)
        try third.send("x")
        #expect(third.receive() == .text("x"))
        _ = second
    }
}

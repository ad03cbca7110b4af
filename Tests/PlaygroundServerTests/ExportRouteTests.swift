import Foundation
import LWSClient
import PlaygroundServer
import ScrollCore
import Testing

/// `GET /api/export`: the page's "Use in your app" panel is `scroll-playground export` for the live session.
@Suite(.timeLimit(.minutes(10)))
struct ExportRouteTests {
    @Test func theRouteWritesWhatTheCommandWritesForTheSessionsSettings() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let hello = try page.hello(preset: "chat", config: ["bottomThreshold": 1500, "physics": "browser"])
        let session = try #require(hello.welcome["session"]?.string)
        let base = "http://127.0.0.1:\(server.port)/"
        let response = try HTTPProbe.get(
            port: server.port, path: "/api/export?session=\(session)&base=http%3A%2F%2F127.0.0.1%3A\(server.port)%2F")
        #expect(response.status == 200)
        let answer = try JSONParser.parse(response.body)

        var command = ExportCommand()
        command.base = base
        command.config.rules.preset = .chat
        command.config.rules.bottomThreshold = 1500
        for format in ExportFormat.allCases {
            command.format = format
            #expect(answer[format.rawValue]?.string == command.render(), "\(format)")
        }
        // How the page scrolls is not something you tuned: the page's own physics stays out of the export.
        #expect(answer["url"]?.string == "\(base)?preset=chat&bottomThreshold=1500")
    }

    @Test func aMissingSessionOrAForeignBaseIsRefused() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let session = try #require(try page.hello().welcome["session"]?.string)
        #expect(try HTTPProbe.get(port: server.port, path: "/api/export").status == 404)
        #expect(try HTTPProbe.get(port: server.port, path: "/api/export?session=s999").status == 404)
        #expect(try HTTPProbe.get(port: server.port, path: "/api/export?session=..%2Fx").status == 404)
        let script = try HTTPProbe.get(
            port: server.port, path: "/api/export?session=\(session)&base=javascript%3Aalert(1)")
        #expect(script.status == 400)
        let long = String(repeating: "a", count: 3000)
        #expect(
            try HTTPProbe.get(port: server.port, path: "/api/export?session=\(session)&base=http%3A%2F%2F\(long)")
                .status == 400)
    }
}

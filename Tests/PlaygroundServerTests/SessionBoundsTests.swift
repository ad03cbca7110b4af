import Foundation
import LWSClient
import ScrollCore
import Testing

/// Descriptors, held sessions and items stay bounded, and a session within the bounds always resumes.
@Suite(.timeLimit(.minutes(10)))
struct SessionBoundsTests {
    @Test func heldSessionsAreCappedByEvictingTheOneWaitingLongest() throws {
        let server = try ServerProcess(["--max-sessions", "3", "--log-format", "json"])
        var tokens: [String] = []
        var ids: [String] = []
        for _ in 0..<3 {
            let page = try PlaygroundConnection(port: server.port)
            let welcome = try page.hello().welcome
            tokens.append(try #require(welcome["resume"]?.string))
            ids.append(try #require(welcome["session"]?.string))
            page.client.close()
            _ = try page.client.waitForClose()
            #expect(server.waitForEvent("sessionClosed", of: ids.last!) != nil)
        }
        let fourth = try PlaygroundConnection(port: server.port)
        try fourth.hello()
        let evicted = try #require(server.waitForEvent("sessionEvicted"))
        #expect(evicted["session"]?.string == ids[0])
        #expect(evicted["data"] == ["reason": "maxSessions", "maxSessions": 3])
        let listed = try JSONParser.parse(HTTPProbe.get(port: server.port, path: "/api/sessions").text)
        #expect(listed["sessions"]?.array?.count == 3)
        #expect(listed["sessions"]?.array?.contains { $0["id"]?.string == ids[0] } == false)
        // The evicted session's page gets a new session; the next oldest still resumes.
        fourth.client.close()
        _ = try fourth.client.waitForClose()
        let late = try PlaygroundConnection(port: server.port)
        #expect(try late.hello(resume: tokens[0]).welcome["session"]?.string != ids[0])
        let resumed = try PlaygroundConnection(port: server.port)
        #expect(try resumed.hello(resume: tokens[2]).welcome["session"]?.string == ids[2])
    }

    @Test func itemsPerSessionAreCapped() throws {
        let server = try ServerProcess(["--max-session-items", "120"])
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(config: ["maxItems": 0, "pageSize": 50, "loadLatencyMs": 0, "refreshLatencyMs": 0])
        var total = 30
        var seq = 0
        while true {
            try page.send(["type": "loadMore"])
            let finished = try page.event("loadMoreFinished")
            total = Int(try #require(finished["data"]?["total"]?.number))
            seq += 1
            if finished["data"]?["hasMore"] == false { break }
            #expect(seq < 10)
        }
        #expect(total == 120)
        try page.send(["type": "loadMore"])
        _ = try page.event("feedExhausted")
        try page.send(["type": "refresh"])
        #expect(try page.event("refreshFinished")["data"]?["added"] == 0)
        #expect(try page.next("state", where: { $0["hasMore"] == false })["itemCount"] == 120)
    }

    /// The issue's churn: sessions opened and dropped again and again, recorded, keep no descriptor open
    /// while they wait for their page and do not grow the server.
    @Test func churnKeepsDescriptorsAndMemoryFlat() throws {
        let folder = LogFolder()
        let cycles = Int(ProcessInfo.processInfo.environment["SCROLL_PLAYGROUND_CHURN_CYCLES"] ?? "") ?? 2_000
        // The default --max-sessions (1024) holds the newest sessions for resume and evicts the rest.
        let server = try ServerProcess(["--log-dir", folder.path])
        let descriptorsBefore = server.openDescriptorCount
        var rssAfterWarmUp = 0
        for cycle in 1...cycles {
            let socket = try RawWebSocket(port: server.port)
            try socket.send(#"{"type":"hello","version":1}"#)
            _ = try socket.receive(until: { $0.contains(#""type":"state""#) })
            socket.drop()
            if cycle == cycles / 10 { rssAfterWarmUp = server.residentBytes }
        }
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        let descriptors = server.openDescriptorCount
        let rss = server.residentBytes
        print(
            "churn of \(cycles) sessions: open fds \(descriptorsBefore) → \(descriptors), RSS \(rssAfterWarmUp >> 10) KiB after warm-up → \(rss >> 10) KiB"
        )
        let traces = try FileManager.default.contentsOfDirectory(atPath: "\(folder.path)/traces")
        #expect(traces.count == cycles + 1)
        #expect(descriptors < descriptorsBefore + 10, "descriptors \(descriptorsBefore) → \(descriptors)")
        #expect(rss - rssAfterWarmUp < 64 << 20)
    }
}

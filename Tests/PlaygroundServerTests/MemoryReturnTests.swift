import Foundation
import LWSClient
import ScrollCore
import Testing

/// Issue 42 §6: after a churn had ended, the server's resident memory stayed where the load had taken it
/// (263 MiB a minute later, 24 MiB at start): glibc kept the ended sessions' free pages. A second after a
/// burst of sessions ends, the server gives them back. Over real sockets against the real executable.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct MemoryReturnTests {
    @Test(.enabled(if: MemoryBudgetTests.measuresMemory))
    func theMemoryOfEndedSessionsIsGivenBack() throws {
        let server = try ServerProcess(["--resume-grace", "0"])
        let before = server.residentBytes
        // 60 sessions, each jumped 5,000 items into an endless feed: tens of MiB between them.
        var pages: [PlaygroundConnection] = []
        for _ in 0..<60 {
            let page = try PlaygroundConnection(port: server.port)
            try page.hello(config: ["maxItems": 0, "loadLatencyMs": 0])
            try page.send(["type": "jump", "id": "item-5000"])
            _ = try page.event("jumpFinished", timeout: .seconds(30))
            pages.append(page)
        }
        let loaded = server.residentBytes
        let grown = loaded - before
        #expect(grown > 12 << 20, "the sessions took \(grown >> 20) MiB, too little to see it given back")
        for page in pages { page.client.close() }
        pages.removeAll()
        // Given back means most of it: within a bound, the resident memory falls below a third of the growth.
        let deadline = ContinuousClock.now.advanced(by: .seconds(15))
        var now = loaded
        while ContinuousClock.now < deadline {
            now = server.residentBytes
            if now - before < grown / 3 { break }
            usleep(100_000)
        }
        #expect(
            now - before < grown / 3,
            "resident \(before >> 20) MiB → \(loaded >> 20) MiB loaded → \(now >> 20) MiB after the sessions ended")
    }
}

import Foundation
import ScrollCore
import Testing

/// Numbers at the edge of what a double holds, where they are not parsed integers but feed a computation
/// that becomes one (issue 20 §1's sweep): each trapped in `Int(_:)` on the previous code.
@Suite(.timeLimit(.minutes(10)))
struct HostileNumberTests {
    /// A bounded window trims by the rows in view, the offset over the average row: `1e300` over a content a
    /// `1e-300` tall is infinite, and the server died with every session.
    @Test func aGeometryOfExtremeSizesTrimsTheWindowWithoutACrash() throws {
        let server = try ServerProcess()
        let watcher = try PlaygroundConnection(port: server.port)
        try watcher.hello()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello(config: ["windowSize": 40, "loadLatencyMs": 0])
        try page.geometry(seq: 1, offsetY: 1e300, contentHeight: 1e-300)
        let trimmed = try page.next("items", where: { $0["op"] == "trim" })
        #expect(trimmed["edge"] == "top")
        #expect(try TerminalStallTests.pingTimes(watcher, count: 1).count == 1)
    }

    /// `simulate --sweep KEY=0:1e300:1e-300` counted its points in an Int.
    @Test func aSweepOfMorePointsThanAnIntHoldsExitsTwo() throws {
        let result = try runToCompletion(["simulate", "--sweep", "pageSize=0:1e300:1e-300"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("at most"), "\(result.stderr)")
    }
}

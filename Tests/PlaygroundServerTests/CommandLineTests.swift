import Foundation
import LWSClient
import ScrollCore
import Testing

/// The executable's flags: one clear line and exit 2 for anything it cannot follow.
@Suite(.timeLimit(.minutes(10)))
struct CommandLineTests {
    @Test func helpListsEveryFlag() throws {
        let result = try runToCompletion(["--help"])
        #expect(result.status == 0)
        for flag in [
            "--host", "--port", "--public", "--preset", "--items", "--log-dir", "--log-format", "--max-sessions",
            "--allow-origin", "--resume-grace", "--bottom-threshold", "--pull-threshold", "--initial-count",
            "--page-size", "--refresh-count", "--max-items", "--load-latency-ms", "--refresh-latency-ms",
            "--jitter-ms", "--failure-rate", "--refresh-hold-ms", "--axis", "--seed",
        ] {
            #expect(result.stdout.contains(flag), "missing \(flag)")
        }
    }

    @Test(arguments: [
        (["--port", "http"], "--port"),
        (["--bogus"], "--bogus"),
        (["--failure-rate", "2"], "failureRate"),
        (["--preset", "nope"], "preset"),
        (["--axis", "diagonal"], "axis"),
        (["--log-format", "xml"], "--log-format"),
        (["--items", "/nonexistent/items.json"], "--items"),
        (["--public", "/nonexistent/public"], "--public"),
        (["--page-size"], "--page-size"),
        (["--window-size", "30", "--page-size", "20"], "at least 2 × pageSize 20"),
        (["--page-size", "20", "--window-size", "30"], "at least 2 × pageSize 20"),
    ])
    func badFlagsExitTwoWithOneLine(arguments: [String], mentioning: String) throws {
        let result = try runToCompletion(arguments)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(mentioning))
    }

    @Test func malformedItemsFileExitsTwo() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString).json")
        try Data(#"[{"id": 1}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try runToCompletion(["--items", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("title"))
    }

    @Test func itemsFileFeedsTheSession() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString).json")
        try Data(
            #"[{"id":"a","title":"Alpha","color":"red"},{"id":"b","title":"Beta"},{"id":"c","title":"Gamma"}]"#.utf8
        )
        .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try ServerProcess(["--items", file.path, "--initial-count", "2", "--load-latency-ms", "10"])
        let page = try PlaygroundConnection(port: server.port)
        let items = try page.hello().items
        #expect(items.itemIDs == ["a", "b"])
        #expect(items["items"]?.array?.first?["color"] == "red")
        try page.send(["type": "loadMore"])
        let next = try page.next("items")
        #expect(next.itemIDs == ["c"])
        #expect(next["hasMore"] == false)
    }

    @Test func jsonLogFormatPrintsRecords() throws {
        let server = try ServerProcess(["--log-format", "json"])
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        let line = try #require(server.waitForLine { $0.hasPrefix("{") })
        let record = try JSONParser.parse(line)
        #expect(record["name"] == "sessionOpened")
        #expect(record["seq"] == 1)
        #expect(record["time"]?.string?.hasSuffix("Z") == true)
    }
}

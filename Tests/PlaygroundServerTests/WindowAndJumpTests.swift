import Foundation
import LWSClient
import ScrollCore
import Testing

/// A bounded window and jump to an item (issue 12 §3, §4) over real sockets against the real executable.
@Suite(.timeLimit(.minutes(10)))
struct WindowAndJumpTests {
    /// Pages landing at the bottom trim the top first, so what the page holds never passes the window; the
    /// top loads the trimmed items back; the recorded trace replays with no differences.
    @Test func theWindowTrimsBeforeAPageLandsAndLoadsTrimmedItemsBack() throws {
        let directory = FailurePolicyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--log-dir", directory])
        let page = try PlaygroundConnection(port: server.port)
        let (welcome, first, opened) = try page.hello(
            preset: "playground", config: ["windowSize": 40, "maxItems": 0, "loadLatencyMs": 20])
        let session = try #require(welcome["session"]?.string)
        #expect(welcome["config"]?["windowSize"] == 40)
        #expect(opened["window"] == ["start": 0, "count": 30, "limit": 40])
        var held = first.itemIDs
        var seq = 0
        for _ in 0..<3 {
            seq += 1
            try page.geometry(seq: seq, offsetY: 2300)
            let trim = try page.next("items")
            #expect(trim["op"] == "trim")
            #expect(trim["edge"] == "top")
            let count = try #require(trim["count"]?.number)
            held.removeFirst(Int(count))
            let append = try page.next("items")
            #expect(append["op"] == "append")
            held += append.itemIDs
            #expect(held.count <= 40)
            seq += 1
            try page.geometry(seq: seq, offsetY: 1000)
        }
        #expect(held.first == "item-51" && held.last == "item-90")
        let state = try page.next("state", where: { $0["window"]?["start"] == 50 })
        #expect(state["window"] == ["start": 50, "count": 40, "limit": 40])
        #expect(state["itemCount"] == 90)
        #expect(state["topEdge"]?["hasPrevious"] == true)
        // Back at the top: the items above come back from the session, the bottom trimmed first.
        seq += 1
        try page.geometry(seq: seq, offsetY: 0)
        let bottom = try page.next("items")
        #expect(bottom["op"] == "trim" && bottom["edge"] == "bottom" && bottom["count"] == 20)
        let back = try page.next("items")
        #expect(back["op"] == "prepend" && back["older"] == true)
        #expect(back.itemIDs == (31...50).map { "item-\($0)" })
        #expect(try page.event("loadPreviousFinished")["data"]?["reloaded"] == true)

        let download = try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace")
        let trace = try ReplayTests.temporaryFile(download.text)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        #expect(download.text.contains("windowTrimmed"))
        let diff = try runToCompletion(["replay", trace, "--diff"])
        #expect(diff.stdout.hasPrefix("no differences"), "\(diff.stdout)")
    }

    /// A negative window names the field and the range; nothing changes.
    @Test func aNegativeWindowIsRefusedAndChangesNothing() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.hello()
        try page.send(["type": "config", "windowSize": -1, "pageSize": 10])
        let error = try page.next("error")
        #expect(error["code"] == "bad_message")
        #expect(error["field"] == "windowSize")
        #expect(error["message"] == "windowSize must be in 0…100000")
        #expect(!page.drain().contains { $0["name"] == "configChanged" })
    }

    /// A jump loads the window around a far item, commands the page to scroll to it, then sends the window;
    /// the old position's bottom rule does not fire; an unknown id is refused and changes nothing.
    @Test func aJumpLoadsTheWindowAndCommandsTheScrollAndAnUnknownItemChangesNothing() throws {
        let directory = FailurePolicyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--log-dir", directory])
        let page = try PlaygroundConnection(port: server.port)
        let welcome = try page.hello(
            preset: "playground", config: ["windowSize": 100, "maxItems": 2000, "loadLatencyMs": 20]
        ).welcome
        let session = try #require(welcome["session"]?.string)

        try page.send(["type": "jump", "id": "item-2001"])
        let refused = try page.next("error")
        #expect(refused["code"] == "unknown_item")
        #expect(refused["message"] == #"no item "item-2001" in this feed: nothing changed"#)
        try page.send(["type": "jump", "id": "item-1500", "anchor": "bottom"])
        #expect(try page.event("jumpStarted")["data"]?["feedIndex"] == 1499)
        // The old window's bottom while the jump loads: held back.
        try page.geometry(seq: 1, offsetY: 2300)
        let held = try page.event("loadMoreSuppressed")
        #expect(held["data"]?["reason"] == "jump")
        let command = try page.next("command")
        #expect(command == ["type": "command", "name": "scrollToItem", "id": "item-1500", "anchor": "bottom"])
        let window = try page.next("items")
        #expect(window["op"] == "replace")
        #expect(window.itemIDs.count == 100)
        #expect(window.itemIDs.first == "item-1450" && window.itemIDs.last == "item-1549")
        let rev = try #require(window["rev"]?.number)
        // The page placed the item and reports the jump's window: the jump settles.
        try page.send([
            "type": "geometry", "seq": 2, "t": 40, "contentOffset": ["x": 0, "y": 4000],
            "contentSize": ["width": 390, "height": 8800], "containerSize": ["width": 390, "height": 700],
            "phase": "idle", "rev": .number(rev), "anchor": ["id": "item-1493", "offset": -10],
        ])
        let settled = try page.event("jumpSettled")
        #expect(settled["data"]?["id"] == "item-1500")
        // Held back while the window loaded (logged above), nothing fired while the page positioned.
        #expect(settled["data"]?["suppressed"] == [])
        #expect(!page.drain().contains { $0["name"] == "loadMoreStarted" })

        let download = try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace")
        let trace = try ReplayTests.temporaryFile(download.text)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        #expect(download.text.contains(#""timer":"jump-"#))
        let diff = try runToCompletion(["replay", trace, "--diff"])
        #expect(diff.stdout.hasPrefix("no differences"), "\(diff.stdout)")
    }
}

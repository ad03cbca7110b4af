import Foundation
import LWSClient
import ScrollCore
import Testing

/// Two-way and chat feeds (issue 12 §2) over real sockets against the real executable: the top edge, the
/// `loadPrevious` message, the anchor check around a prepend, and arrivals in `chat`.
@Suite(.timeLimit(.minutes(10)))
struct TwoWayFeedServerTests {
    /// A feed opened in the middle loads older items at the top, by the rule and by `loadPrevious`; the
    /// server judges the page's anchor around each prepend, and the recorded trace replays exactly.
    @Test func olderPagesArePrependedAndTheAnchorIsJudged() throws {
        let folder = LogFolder()
        let server = try ServerProcess(["--log-dir", folder.path])
        let page = try PlaygroundConnection(port: server.port)
        let (welcome, opening, state) = try page.hello(
            preset: "playground", config: ["startAt": 101, "pageSize": 20, "loadLatencyMs": 20])
        let session = try #require(welcome["session"]?.string)
        let first = try #require(opening.itemIDs.first)
        #expect(first == "item-101")
        #expect(state["topEdge"]?["hasPrevious"] == true)
        #expect(state["itemCount"] == 30)

        // At the top: the rule loads the previous page once and prepends it as older items.
        try page.geometry(seq: 1, offsetY: 0, anchor: (first, 0), rev: 1)
        #expect(try page.event("loadPreviousStarted")["data"]?["trigger"] == "top")
        let older = try page.next("items")
        #expect(older["op"] == "prepend")
        #expect(older["older"] == true)
        #expect(older["rev"] == 2)
        #expect(older.itemIDs.count == 20)
        #expect(older.itemIDs.last == "item-100")
        // The page rendered the prepend and kept item-101 where it was, 20 rows further down the content.
        try page.geometry(seq: 2, offsetY: 1600, contentHeight: 4600, anchor: (first, 0), rev: 2)
        let kept = try page.event("anchorKept")
        #expect(kept["data"] == ["id": "item-101", "rev": 2, "px": 0])

        // Away from the top, a person asks for the page before; this time the view jumps by 30 px.
        try page.geometry(seq: 3, offsetY: 1700, contentHeight: 4600, anchor: ("item-82", -20), rev: 2)
        try page.send(["type": "loadPrevious"])
        #expect(try page.event("loadPreviousStarted")["data"]?["trigger"] == "manual")
        let third = try page.next("items", where: { $0["rev"] == 3 })
        #expect(third["op"] == "prepend")
        try page.geometry(seq: 4, offsetY: 3300, contentHeight: 6200, anchor: ("item-82", 10), rev: 3)
        let drift = try page.event("anchorDrift")
        #expect(drift["data"] == ["id": "item-82", "rev": 3, "px": 30])

        let download = try HTTPProbe.get(port: server.port, path: "/api/sessions/\(session)/trace")
        let trace = try ReplayTests.temporaryFile(download.text)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let diff = try runToCompletion(["replay", trace, "--diff"])
        #expect(diff.stdout.hasPrefix("no differences"), "\(diff.stdout)")
    }

    /// `chat` opens at the newest message with a `scrollToBottom` command; a new message is followed at the
    /// bottom and not while the user reads older messages.
    @Test func chatFollowsNewMessagesOnlyAtTheBottom() throws {
        let server = try ServerProcess(["--new-message-every-ms", "50"])
        let page = try PlaygroundConnection(port: server.port)
        let (welcome, opening, _) = try page.hello(preset: "chat")
        #expect(welcome["config"]?["newMessageEveryMs"] == 50)
        #expect(opening["hasMore"] == false)
        #expect(try page.next("command")["name"] == "scrollToBottom")
        #expect(try page.event("scrollToBottom")["data"]?["trigger"] == "open")

        // Resting at the bottom: arrivals are appended and followed.
        let height = Double(opening.itemIDs.count) * 80
        try page.geometry(seq: 1, offsetY: height - 700, contentHeight: height)
        try page.settle()
        let followed = try page.event("messageArrived")
        #expect(followed["data"]?["follow"] == true)
        #expect(try page.next("command")["name"] == "scrollToBottom")

        // Reading older messages: arrivals land below without a command.
        try page.geometry(seq: 2, offsetY: 200, contentHeight: height + 200)
        try page.settle()
        for _ in 0..<2 {
            #expect(try page.event("messageArrived")["data"]?["follow"] == false)
        }
        #expect(!(try page.settle()).contains { $0["type"] == "command" })
    }
}

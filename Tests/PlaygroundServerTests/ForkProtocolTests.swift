import Foundation
import ScrollCore
import Testing

/// `forkTrace` and `hello.fork` over real sockets: a refused fork is an `error` and nothing else; a fork
/// opens a new session from the parent's moment.
@Suite(.timeLimit(.minutes(10)))
struct ForkProtocolTests {
    static var parent: String {
        let url = ServerProcess.packageRoot.appendingPathComponent("Examples/traces/pull-during-page-load.jsonl")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    @Test(arguments: [
        ("", #"{"type":"hello","fork":{"parent":"p.jsonl","at":500}}"#, "a fork needs its parent trace"),
        ("not a trace\n", #"{"type":"hello","fork":{"parent":"p.jsonl","at":500}}"#, "line 1: not JSON"),
        ("PARENT", #"{"type":"hello","fork":{"parent":"p.jsonl","at":1}}"#, "before the parent's session opened"),
        ("PARENT", #"{"type":"hello","fork":{"parent":"p.jsonl","at":500},"config":{"pageSize":0}}"#, "pageSize"),
    ])
    func aRefusedForkIsAnErrorAndOpensNothing(upload: String, hello: String, mentioning: String) throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        let text = upload == "PARENT" ? Self.parent : upload
        if !text.isEmpty { try page.send(["type": "forkTrace", "text": .string(text)]) }
        try page.send(try JSONParser.parse(hello))
        let error = try page.next("error")
        #expect(error["code"] == "bad_message")
        #expect(error["message"]?.string?.contains(mentioning) == true, "\(error)")
        // Still no session: the page may say hello again.
        let (welcome, _, _) = try page.hello()
        #expect(welcome["session"] == "s1")
    }

    @Test func aForkStartsFromTheParentsItemsAndTheLoadInFlight() throws {
        let server = try ServerProcess()
        let page = try PlaygroundConnection(port: server.port)
        try page.send(["type": "forkTrace", "text": .string(Self.parent)])
        try page.send(["type": "hello", "fork": ["parent": "p.jsonl", "at": 500], "config": ["preset": "refreshable"]])
        let welcome = try page.next("welcome")
        #expect(welcome["session"] == "s1")
        // The page takes the session over as it stood, logged as the fork it is, then its settings apply.
        #expect(welcome["config"]?["preset"] == "playground")
        let forked = try page.event("sessionForked")["data"]
        #expect(forked?["delivered"] == "replace")
        #expect(forked?["parent"] == "p.jsonl" && forked?["at"] == 500 && forked?["parentSession"] != nil)
        #expect(try page.event("configChanged")["data"]?["changed"]?["preset"] != nil)
        let items = try page.next("items")
        #expect(items["op"] == "replace")
        #expect(items.itemIDs == (1...30).map { "item-\($0)" })
        // The parent's page load (900 ms, started at t=461) lands live.
        let finished = try page.event("loadMoreFinished")
        #expect(finished["data"]?["page"] == 2)
    }
}

import Foundation
import LWSClient
import ScrollCore
import Testing

/// A page stand-in speaking the playground protocol over a real WebSocket, with bounded waits.
final class PlaygroundConnection {
    let client: WebSocketClient
    /// Messages received but not yet asked for, in order.
    private var inbox: [JSONValue] = []

    init(port: Int, subprotocol: String? = "scroll-playground.v1") throws {
        client = try WebSocketClient.connect(port: port, subprotocol: subprotocol)
    }

    func send(_ message: JSONValue) throws {
        try client.send(message.jsonString)
    }

    /// Sends `hello` and returns the welcome, first items and state messages.
    @discardableResult
    func hello(
        preset: String? = nil, config: JSONValue = [:], resume: String? = nil, lastRev: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (welcome: JSONValue, items: JSONValue, state: JSONValue) {
        var message: [String: JSONValue] = ["type": "hello", "version": 1, "config": config]
        if let preset { message["preset"] = .string(preset) }
        if let resume { message["resume"] = .string(resume) }
        if let lastRev { message["lastRev"] = .int(lastRev) }
        try send(.object(message))
        let welcome = try next("welcome", sourceLocation: sourceLocation)
        let items = try next("items", sourceLocation: sourceLocation)
        let state = try next("state", sourceLocation: sourceLocation)
        return (welcome, items, state)
    }

    /// Sends a vertical geometry, with the first visible item (`anchor`) and the last `items` rev rendered
    /// when given.
    func geometry(
        seq: Int, offsetY: Double, contentHeight: Double = 3000, containerHeight: Double = 700,
        phase: String = "idle", insetTop: Double = 0, anchor: (id: String, offset: Double)? = nil, rev: Int? = nil
    ) throws {
        var message: [String: JSONValue] = [
            "type": "geometry", "seq": .int(seq), "t": .int(seq * 16),
            "contentOffset": ["x": 0, "y": .number(offsetY)],
            "contentSize": ["width": 390, "height": .number(contentHeight)],
            "containerSize": ["width": 390, "height": .number(containerHeight)],
            "contentInsets": ["top": .number(insetTop), "leading": 0, "bottom": 0, "trailing": 0],
            "phase": .string(phase),
        ]
        if let anchor { message["anchor"] = ["id": .string(anchor.id), "offset": .number(anchor.offset)] }
        if let rev { message["rev"] = .int(rev) }
        try send(.object(message))
    }

    /// The next message of `type` that satisfies `predicate`, skipping (and keeping) others; waits up to `timeout`.
    func next(
        _ type: String, timeout: Duration = .seconds(10), where predicate: (JSONValue) -> Bool = { _ in true },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        if let index = inbox.firstIndex(where: { $0["type"]?.string == type && predicate($0) }) {
            return inbox.remove(at: index)
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            guard let event = client.receive(timeout: deadline - ContinuousClock.now) else { break }
            switch event {
            case .text(let text):
                let message = try JSONParser.parse(text)
                if message["type"]?.string == type && predicate(message) { return message }
                inbox.append(message)
            case .closed(let code):
                Issue.record(
                    "connection closed (\(code.map(String.init) ?? "no code")) while waiting for \(type)",
                    sourceLocation: sourceLocation)
                throw ClientError.notOpen
            default:
                continue
            }
        }
        Issue.record("no \(type) message within \(timeout)", sourceLocation: sourceLocation)
        throw ClientError.timedOut
    }

    /// The next `event` message named `name`.
    func event(_ name: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation)
        throws -> JSONValue
    {
        try next("event", timeout: timeout, where: { $0["name"]?.string == name }, sourceLocation: sourceLocation)
    }

    /// Waits until the server has handled everything sent so far (a ping's pong) and returns what it sent
    /// before, not yet taken: what comes next answers what the test sends next.
    @discardableResult
    func settle(sourceLocation: SourceLocation = #_sourceLocation) throws -> [JSONValue] {
        let id = Int.random(in: 1...1_000_000)
        try send(["type": "ping", "id": .int(id)])
        _ = try next("pong", where: { $0["id"] == .int(id) }, sourceLocation: sourceLocation)
        defer { inbox.removeAll() }
        return inbox
    }

    /// Every message received so far and not yet taken, plus whatever arrives within `timeout`.
    func drain(timeout: Duration = .milliseconds(200)) -> [JSONValue] {
        while case .text(let text)? = client.receive(timeout: timeout), let message = try? JSONParser.parse(text) {
            inbox.append(message)
        }
        defer { inbox.removeAll() }
        return inbox
    }
}

extension JSONValue {
    /// The item ids of an `items` message.
    var itemIDs: [String] {
        (self["items"]?.array ?? []).compactMap { $0["id"]?.string }
    }
}

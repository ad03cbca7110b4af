import Foundation
import Testing

@testable import ScrollCore

/// Server messages on the wire: every message the core produces is JSON that Foundation reads
/// back to the fields the protocol names (docs/protocol.md).
struct ServerMessageEncodingTests {
    /// The shape of a message, written from the protocol's field list, independently of the encoder.
    static func expected(_ message: ServerMessage) -> JSONValue {
        switch message {
        case .welcome(let session, let resume, let config, let recordingStopped):
            let presets: [JSONValue] = Preset.allCases.map {
                let behavior = $0.behavior
                return [
                    "name": .string($0.rawValue), "design": .string($0.design), "rule": .string($0.rule),
                    "rules": .array(behavior.rules.map { .string($0.rawValue) }),
                    "refresh": .string(behavior.refresh.rawValue), "indicator": .string(behavior.indicator.rawValue),
                    "opensAtBottom": .bool(behavior.opensAtBottom), "followsArrivals": .bool(behavior.followsArrivals),
                    "defaultRetryPolicy": .string(behavior.defaultRetryPolicy.rawValue),
                    "compared": .bool(behavior.compared),
                    "properties": .array(behavior.properties.map { .string($0.rawValue) }),
                ]
            }
            let events: [JSONValue] = EventName.allCases.map {
                var fields: [String: JSONValue] = [
                    "name": .string($0.rawValue), "category": .string($0.category.rawValue),
                    "meaning": .string($0.meaning), "failure": .bool($0.catalogEntry.failure),
                ]
                if let plot = $0.catalogEntry.plot { fields["plot"] = .string(plot.rawValue) }
                return .object(fields)
            }
            let settings: [JSONValue] = ScrollConfig.settings.map { setting in
                let description = setting.description
                var fields: [String: JSONValue] = [
                    "name": .string(setting.name), "unit": .string(description.unit),
                    "meaning": .string(description.meaning), "role": .string(setting.role.rawValue),
                    "default": description.defaultValue.map(JSONValue.init) ?? .null,
                    "flag": setting.notAFlag == nil ? .string("--\(setting.flag)") : .null,
                ]
                switch description.kind {
                case .number(let range):
                    fields["kind"] = "number"
                    fields["min"] = .number(range.lowerBound)
                    fields["max"] = .number(range.upperBound)
                case .integer(let range):
                    fields["kind"] = "integer"
                    fields["min"] = .int(range.lowerBound)
                    fields["max"] = .int(range.upperBound)
                case .choice(let names):
                    fields["kind"] = "choice"
                    fields["choices"] = .array(names.map { .string($0) })
                case .toggle:
                    fields["kind"] = "toggle"
                }
                return .object(fields)
            }
            var fields: [String: JSONValue] = [
                "type": "welcome", "session": .string(session), "resume": .string(resume), "config": config.json,
                "presets": .array(presets), "events": .array(events), "settings": .array(settings),
            ]
            if let recordingStopped { fields["recordingStopped"] = .string(recordingStopped) }
            return .object(fields)
        case .items(let items):
            var fields: [String: JSONValue] = [
                "type": "items", "op": .string(items.op.rawValue), "rev": .int(items.rev),
                "items": .array(items.items.map(expected)),
                "total": .int(items.total), "hasMore": .bool(items.hasMore),
            ]
            if items.older { fields["older"] = true }
            if let trimmed = items.trimmed {
                fields["edge"] = .string(trimmed.edge.rawValue)
                fields["count"] = .int(trimmed.count)
            }
            return .object(fields)
        case .state(let state):
            var fields: [String: JSONValue] = [
                "type": "state", "ack": state.ack.map { .int($0) } ?? .null, "preset": .string(state.preset.rawValue),
                "reachedBottom": .bool(state.reachedBottom),
                "pull": [
                    "distance": .number(state.pull.distance), "progress": .number(state.pull.progress),
                    "eligible": .bool(state.pull.eligible),
                ],
                "refreshing": .bool(state.refreshing), "loadingNextPage": .bool(state.loadingNextPage),
                "hasMore": .bool(state.hasMore),
                "itemCount": .int(state.itemCount),
                "indicator": [
                    "top": [
                        "visible": .bool(state.indicator.topVisible), "height": .number(state.indicator.topHeight),
                        "scale": .number(state.indicator.topScale), "opacity": .number(state.indicator.topOpacity),
                    ],
                    "bottom": ["visible": .bool(state.indicator.bottomVisible)],
                ],
            ]
            if let origin = state.origin { fields["origin"] = ["x": .number(origin.x), "y": .number(origin.y)] }
            fields["loadFailure"] = state.loadFailure.map(expected) ?? .null
            if let top = state.topEdge {
                fields["topEdge"] = [
                    "reachedTop": .bool(top.reachedTop), "hasPrevious": .bool(top.hasPrevious),
                    "loadingPreviousPage": .bool(top.loadingPreviousPage),
                    "loadFailure": top.loadFailure.map(expected) ?? .null,
                ]
            }
            if let window = state.window {
                fields["window"] = [
                    "start": .int(window.start), "count": .int(window.count), "limit": .int(window.limit),
                ]
            }
            if let recordingStopped = state.recordingStopped { fields["recordingStopped"] = .string(recordingStopped) }
            return .object(fields)
        case .event(let record):
            var fields = expected(record).object!
            fields["type"] = "event"
            return .object(fields)
        case .command(let name):
            return ["type": "command", "name": .string(name)]
        case .scrollToItem(let id, let anchor):
            return ["type": "command", "name": "scrollToItem", "id": .string(id), "anchor": .string(anchor.rawValue)]
        case .error(let error):
            var fields: [String: JSONValue] = [
                "type": "error", "code": .string(error.code.rawValue), "message": .string(error.message),
            ]
            if let ref = error.ref { fields["ref"] = .int(ref) }
            if let field = error.field { fields["field"] = .string(field) }
            return .object(fields)
        case .pong(let id):
            return ["type": "pong", "id": id]
        }
    }

    static func expected(_ failure: LoadFailureState) -> JSONValue {
        var members: [String: JSONValue] = [
            "page": .int(failure.page), "failures": .int(failure.failures), "next": .string(failure.next.rawValue),
        ]
        if let retry = failure.retry { members["retry"] = .int(retry) }
        if let retryMax = failure.retryMax { members["retryMax"] = .int(retryMax) }
        if let retryInMs = failure.retryInMs { members["retryInMs"] = .int(retryInMs) }
        return .object(members)
    }

    static func expected(_ item: FeedItem) -> JSONValue {
        var fields = item.extra
        fields["id"] = .string(item.id)
        fields["title"] = .string(item.title)
        if let subtitle = item.subtitle { fields["subtitle"] = .string(subtitle) }
        if let height = item.height { fields["height"] = .number(height) }
        return .object(fields)
    }

    static func expected(_ record: EventRecord) -> JSONValue {
        var fields: [String: JSONValue] = [
            "seq": .int(record.seq), "time": .string(record.time), "session": .string(record.session),
            "name": .string(record.entry.name.rawValue), "data": .object(record.entry.data),
        ]
        if let geometrySeq = record.entry.geometrySeq { fields["geometrySeq"] = .int(geometrySeq) }
        return .object(fields)
    }

    /// Everything a busy session of `preset` sends, its log entries wrapped as `event` messages.
    static func messages(_ preset: Preset) -> [ServerMessage] {
        let source = FeedSource.list(
            (1...60).map {
                FeedItem(
                    id: "id-\($0)", title: "Title \"\($0)\"\n", extra: $0 == 1 ? ["meta": ["ünï": [1.5, nil]]] : [:])
            })
        var h = Harness(
            [
                "preset": .string(preset.rawValue), "compare": true, "jitterMs": 50, "failureRate": 0.3,
                "bottomThreshold": 12.5, "windowSize": 40,
            ],
            source: source)
        var effects = h.opening
        for y in stride(from: -130.0, through: 1300, by: 37.3) {
            effects += h.scroll(
                y: y, x: y / 10, insets: ScrollInsets(top: 4.5, bottom: 2), phase: y < 0 ? .interacting : .decelerating)
            effects += h.advance(by: 97)
        }
        effects += h.scroll(y: 0)
        effects += h.send(.refreshRequested)
        effects += h.advance(by: 2500)
        effects += h.send(.jumpRequested(JumpRequest(id: "id-55", anchor: .center)))
        effects += h.advance(by: 2500)
        effects += h.send(.configReceived(["pageSize": 0]))
        effects += h.send(.resetRequested)
        effects += h.send(.resumed(lastRev: 1))
        var messages: [ServerMessage] = []
        for (index, effect) in effects.enumerated() {
            switch effect {
            case .send(let message): messages.append(message)
            case .log(let entry):
                messages.append(
                    .event(EventRecord(seq: index, time: "2026-01-02T03:04:05.678Z", session: "s1", entry: entry)))
            case .schedule, .cancel: break
            }
        }
        messages.append(.error(ProtocolError(.badMessage, #"missing field "phase""#, ref: 12)))
        messages.append(.pong(id: ["n": 1, "s": "x"]))
        // What only the server adds: a session whose log folder is full.
        messages += messages.filter { $0.kind == .welcome || $0.kind == .state }.prefix(2).map {
            $0.noting(recordingStopped: "not recorded: the \"log\" folder is full")
        }
        return messages
    }

    @Test(arguments: Preset.allCases)
    func everyMessageParsesBackWithFoundation(preset: Preset) throws {
        let messages = Self.messages(preset)
        // The session must have produced every kind of message worth checking.
        #expect(messages.contains { if case .welcome = $0 { true } else { false } })
        #expect(messages.contains { if case .items = $0 { true } else { false } })
        #expect(messages.contains { if case .state = $0 { true } else { false } })
        #expect(messages.contains { if case .event = $0 { true } else { false } })
        #expect(messages.contains { if case .scrollToItem = $0 { true } else { false } })
        for message in messages {
            let parsed = try foundationJSON(message.encoded())
            #expect(parsed.isClose(to: Self.expected(message)), "\(parsed) is not \(message)")
            // Our own reader gets every number exactly.
            #expect(try JSONParser.parse(message.encoded()) == Self.expected(message))
        }
    }

    @Test func commandAndStateAreCompactJSON() {
        let command = ServerMessage.command(name: "scrollToTop").encoded()
        #expect(String(decoding: command, as: UTF8.self) == #"{"type":"command","name":"scrollToTop"}"#)
        let state = StateMessage(
            ack: 3, preset: .offsetObserving, reachedBottom: false, pull: PullState(), refreshing: false,
            loadingNextPage: true,
            hasMore: true, itemCount: 30,
            indicator: IndicatorState(
                topVisible: false, topHeight: 0, topScale: 0.6, topOpacity: 0, bottomVisible: true),
            origin: ScrollPoint(x: -0.5, y: 40))
        #expect(
            String(decoding: ServerMessage.state(state).encoded(), as: UTF8.self)
                == #"{"type":"state","ack":3,"preset":"offsetObserving","reachedBottom":false,"pull":{"distance":0,"progress":0,"eligible":false},"refreshing":false,"loadingNextPage":true,"hasMore":true,"itemCount":30,"indicator":{"top":{"visible":false,"height":0,"scale":0.6,"opacity":0},"bottom":{"visible":true}},"origin":{"x":-0.5,"y":40},"loadFailure":null}"#
        )
    }

    @Test func aFailedPageIsPartOfTheState() {
        var state = SessionLifecycleTests.openingState()
        state.loadFailure = LoadFailureState(
            page: 4, failures: 2, next: .scheduled, retry: 2, retryMax: 5, retryInMs: 1500)
        #expect(
            String(decoding: ServerMessage.state(state).encoded(), as: UTF8.self).hasSuffix(
                #","loadFailure":{"page":4,"failures":2,"next":"scheduled","retry":2,"retryMax":5,"retryInMs":1500}}"#))
        state.loadFailure = LoadFailureState(page: 4, failures: 6, next: .gaveUp, retryMax: 5)
        #expect(
            String(decoding: ServerMessage.state(state).encoded(), as: UTF8.self).hasSuffix(
                #","loadFailure":{"page":4,"failures":6,"next":"gaveUp","retryMax":5}}"#))
    }

    @Test func eventRecordsEncodeAsTheLogFilesHoldThem() throws {
        let record = EventRecord(
            seq: 41, time: "2026-01-02T03:04:05.678Z", session: "s2",
            entry: LogEntry(.loadMoreStarted, geometrySeq: 9, ["page": 2, "trigger": "bottom"]))
        #expect(try foundationJSON(record.encoded()) == Self.expected(record))
        #expect(
            String(decoding: record.encoded(), as: UTF8.self)
                == #"{"seq":41,"time":"2026-01-02T03:04:05.678Z","session":"s2","name":"loadMoreStarted","geometrySeq":9,"data":{"page":2,"trigger":"bottom"}}"#
        )
    }

    @Test func onlyStateMessagesMayBeCoalesced() {
        #expect(ServerMessage.state(SessionLifecycleTests.openingState()).coalescingKey == "state")
        #expect(
            ServerMessage.items(ItemsMessage(op: .append, rev: 2, items: [], total: 0, hasMore: true)).coalescingKey
                == nil)
        #expect(ServerMessage.command(name: "scrollToTop").coalescingKey == nil)
        #expect(ServerMessage.pong(id: 1).coalescingKey == nil)
    }

    /// `JSONValue` and the geometry types also work with Foundation's coders (for tools and tests).
    @Test func valuesWorkWithFoundationCoders() throws {
        let value: JSONValue = ["a": [1, "b", nil, true, ["c": 2.5]]]
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) == value)
        let report = ClientMessageDecodingTests.geometry
        let encoded = try JSONEncoder().encode(report)
        #expect(try ClientMessage.decode(Array(encoded)) == .geometry(report))
        #expect(try JSONDecoder().decode(GeometryReport.self, from: encoded) == report)
    }
}

extension ServerMessageEncodingTests {
    /// The server sends an event to its page from the bytes the event log already encoded.
    @Test func anEventMessageFromItsEncodedRecordIsTheEventEncoded() {
        let record = EventRecord(
            seq: 12, time: "2026-11-30T04:12:09.331Z", session: "s3",
            entry: LogEntry(.loadMoreStarted, geometrySeq: 7, ["page": 2, "trigger": "bottom"]))
        #expect(ServerMessage.eventMessage(encodedRecord: record.encoded()) == ServerMessage.event(record).encoded())
    }
}

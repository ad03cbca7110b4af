import Testing

@testable import ScrollCore

/// `ServerMessage.encoded()` writes a `state` directly (StateMessage+DirectEncoding.swift); its bytes must be
/// those of the general writer, `write(to:)`, for every message.
struct StateEncodingTests {
    /// What the general writer writes.
    static func general(_ message: ServerMessage) -> [UInt8] {
        var writer = JSONWriter()
        message.write(to: &writer)
        return writer.bytes
    }

    /// Numbers the direct writer must spell as the general one: integral, fractional, negative, signed zero,
    /// past 1e15, the extremes, and what JSON cannot spell.
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.5, -0.5, 0.6, 1 / 3, 40, 390.25, 1e15, 1e15 - 1, -1e15, 1e16, 123_456_789.125, 1e-7,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan, .infinity, -.infinity,
        9_007_199_254_740_992.0.nextUp,
    ]

    static func randomState(_ generator: inout SeededGenerator) -> StateMessage {
        func number() -> Double {
            Bool.random(using: &generator)
                ? numbers.randomElement(using: &generator)!
                : Double.random(in: -5000...5000, using: &generator)
        }
        func integer() -> Int {
            [0, 1, 7, 30, 1000, Int.max, Int.min, -3].randomElement(using: &generator)!
        }
        func flag() -> Bool { Bool.random(using: &generator) }
        // What only the general writer writes comes in one message out of four.
        func rarely() -> Bool { Int.random(in: 0..<4, using: &generator) == 0 }
        func failure() -> LoadFailureState? {
            !rarely()
                ? nil
                : LoadFailureState(
                    page: integer(), failures: integer(),
                    next: [.manual, .none, .scheduled, .gaveUp].randomElement(using: &generator)!,
                    retry: flag() ? integer() : nil, retryMax: flag() ? integer() : nil,
                    retryInMs: flag() ? integer() : nil)
        }
        return StateMessage(
            ack: flag() ? nil : integer(), preset: Preset.allCases.randomElement(using: &generator)!,
            reachedBottom: flag(), pull: PullState(distance: number(), progress: number(), eligible: flag()),
            refreshing: flag(), loadingNextPage: flag(), hasMore: flag(), itemCount: integer(),
            indicator: IndicatorState(
                topVisible: flag(), topHeight: number(), topScale: number(), topOpacity: number(), bottomVisible: flag()
            ),
            origin: flag() ? ScrollPoint(x: number(), y: number()) : nil,
            loadFailure: failure(),
            topEdge: flag()
                ? TopEdgeState(
                    reachedTop: flag(), hasPrevious: flag(), loadingPreviousPage: flag(), loadFailure: failure())
                : nil,
            window: flag() ? WindowState(start: integer(), count: integer(), limit: integer()) : nil,
            recordingStopped: !rarely()
                ? nil : ["the log folder is full", "quote \" and \\ and \n"].randomElement(using: &generator)!)
    }

    @Test func directStateBytesAreTheGeneralWritersForManyStates() {
        var generator = SeededGenerator(seed: 32)
        var direct = 0
        for _ in 0..<5_000 {
            let state = Self.randomState(&generator)
            let message = ServerMessage.state(state)
            #expect(message.encoded() == Self.general(message), "\(state)")
            if state.encodedDirectly() != nil { direct += 1 }
        }
        // Most of them took the direct path, so the comparison is about it.
        #expect(direct > 2_000)
    }

    @Test func everyNumberIsSpelledAsTheGeneralWriterSpellsIt() {
        for value in Self.numbers {
            let state = StateMessage(
                ack: 1, preset: .offsetObserving, reachedBottom: false, pull: PullState(distance: value),
                refreshing: false,
                loadingNextPage: false, hasMore: true, itemCount: 3,
                indicator: IndicatorState(
                    topVisible: true, topHeight: value, topScale: value, topOpacity: value, bottomVisible: false),
                origin: ScrollPoint(x: value, y: -value))
            #expect(state.encodedDirectly() != nil)
            #expect(ServerMessage.state(state).encoded() == Self.general(.state(state)), "\(value)")
        }
    }

    /// The bytes the direct writer gives `value` (as a `state`'s `pull.distance`).
    static func directlyWritten(_ value: Double) -> String? {
        let state = StateMessage(
            ack: 1, preset: .offsetObserving, reachedBottom: false, pull: PullState(distance: value), refreshing: false,
            loadingNextPage: false, hasMore: true, itemCount: 3, indicator: IndicatorState())
        guard let bytes = state.encodedDirectly() else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.range(of: #""distance":"#), let end = text.range(of: #","progress""#) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// Short decimals (k / 10^d, written without `description`) and their neighbours, near and far from the
    /// range's ends, with either sign: each is spelled exactly as `Double.description` spells it.
    @Test func shortDecimalsAreSpelledAsDescriptionSpellsThem() {
        var values: [Double] = [
            0.6, 0.1 + 0.2, 1 / 3, 0.0001, 0.00011, 0.00009999, 0.0001.nextDown, 0.0001.nextUp, 999_999_999.9999,
            999_999_999.99995, 1e9.nextDown, 1e9 - 0.5, 123_456_789.0001, 0.0625, 0.03125, 1_073_741_824.5, 2.5e-5,
            4.35, 0.07, 1.005, 1234.5678, 98_765.4321,
        ]
        var scale = 1.0
        for digits in 1...6 {
            scale *= 10
            var units = Array(1...2_000) + [9_999, 10_001, 99_999, 123_457, 4_503_599_627_370_495]
            let top = Int(1e9 * scale)
            units += Array(top - 40...top + 2)
            for unit in units {
                let value = Double(unit) / scale
                values += [value, -value, value.nextUp, value.nextDown]
            }
        }
        var generator = SeededGenerator(seed: 10)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...5, using: &generator)
            let whole = Double.random(in: -2e5...2e5, using: &generator)
            let factor = [10.0, 100, 1_000, 10_000, 100_000][digits - 1]
            values += [(whole * factor).rounded() / factor, Double.random(in: -1e9...1e9, using: &generator)]
        }
        var short = 0
        for value in values where value != value.rounded(.towardZero) {
            #expect(Self.directlyWritten(value) == value.description, "\(value)")
            if value.shortDecimal != nil { short += 1 }
        }
        // Most took the short path, so the comparison is about it.
        #expect(short > values.count / 3)
        #expect(0.6.shortDecimal == ShortDecimal(negative: false, units: 6, fractionDigits: 1))
        #expect((-12.25).shortDecimal == ShortDecimal(negative: true, units: 1225, fractionDigits: 2))
        #expect(0.0625.shortDecimal == ShortDecimal(negative: false, units: 625, fractionDigits: 4))
        #expect(0.03125.shortDecimal == nil)
        #expect((0.1 + 0.2).shortDecimal == nil)
        #expect(1e9.nextDown.shortDecimal == nil)
    }

    /// Every kind of message: `encoded()` gives the general writer's bytes.
    @Test func everyMessageKindEncodesAsTheGeneralWriter() {
        var generator = SeededGenerator(seed: 7)
        let record = EventRecord(
            seq: 41, time: "2026-01-02T03:04:05.678Z", session: "s2",
            entry: LogEntry(.loadMoreStarted, geometrySeq: 9, ["page": 2, "trigger": "bottom"]))
        let messages: [ServerMessage] = [
            .welcome(session: "s1", resume: "r", config: ScrollConfig()),
            .welcome(session: "s1", resume: "r", config: ScrollConfig(), recordingStopped: "full"),
            .items(ItemsMessage(op: .append, rev: 2, items: [FeedItem(id: "1", title: "t1")], total: 1, hasMore: true)),
            .state(Self.randomState(&generator)),
            .event(record),
            .command(name: "scrollToTop"),
            .scrollToItem(id: "i9", anchor: .top),
            .error(ProtocolError(.badMessage, "field \"seq\" must be a number", ref: 3, field: "seq")),
            .pong(id: 5),
        ]
        #expect(Set(messages.map(\.kind)) == Set(ServerMessage.Kind.allCases))
        for message in messages {
            #expect(message.encoded() == Self.general(message), "\(message.kind)")
        }
    }

    /// An item is written as its JSON tree is, with and without each optional member and extra fields.
    @Test func itemsAreWrittenAsTheirJSONTrees() {
        var items: [FeedItem] = []
        for subtitle in [nil, "sub \"quoted\"", ""] as [String?] {
            for height in [nil, 0, 44, 390.25, -1e-7, .nan] as [Double?] {
                items.append(
                    FeedItem(id: "item-\(items.count)", title: "Title é\n", subtitle: subtitle, height: height))
            }
        }
        items.append(
            FeedItem(id: "x", title: "t", subtitle: "s", height: 3, extra: ["a": 1, "zz": "last", "id": "not"]))
        for item in items {
            var direct = JSONWriter()
            item.write(to: &direct)
            var tree = JSONWriter()
            tree.value(item.json)
            #expect(direct.bytes == tree.bytes, "\(item)")
        }
    }
}

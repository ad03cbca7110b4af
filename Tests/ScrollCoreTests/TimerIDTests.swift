import Testing

@testable import ScrollCore

/// A timer's name in a trace and its parse are one table (`TimerID.Kind`): every kind round-trips, and a name
/// no timer has is refused rather than read as another.
struct TimerIDTests {
    /// One timer of every kind (a token where the kind has one).
    static let everyKind: [TimerID] = TimerID.Kind.allCases.map { kind in
        TimerID(kind, token: kind.hasToken ? 7 : nil)!
    }

    @Test func everyKindRoundTripsThroughItsName() {
        #expect(Self.everyKind.count == TimerID.Kind.allCases.count)
        for timer in Self.everyKind {
            #expect(TimerID(timer.description) == timer, "\(timer)")
            #expect(timer.kind.rawValue == timer.description.split(separator: "-").first.map(String.init))
        }
        for token in [0, 1, 42, 1_000_000] {
            #expect(TimerID("pageLoad-\(token)") == .pageLoad(token))
            #expect(TimerID("jump-\(token)") == .jump(token))
        }
    }

    @Test func theNamesAreTheOnesTracesHold() {
        #expect(
            Self.everyKind.map(\.description) == [
                "pageLoad-7", "refresh-7", "refreshHold", "originFlush", "loadRetry-7", "previousLoad-7",
                "previousRetry-7", "newMessage", "jump-7",
            ])
    }

    @Test func aNameNoTimerHasIsRefused() {
        for name in [
            "", "pageLoad", "pageLoad-", "pageLoad-x", "refreshHold-3", "newMessage-1", "tick", "-3", "jump-3-4",
        ] {
            #expect(TimerID(name) == nil, "\(name)")
        }
    }

    @Test func everyRuntimeTimerHasTheSessionsName() {
        // The runtime's timers come back as the same session timer they were named as.
        for timer in Self.everyKind {
            if let role = timer.role { #expect(TimerID(role) == timer) }
        }
        #expect(Self.everyKind.filter { $0.role == nil } == [.originFlush, .newMessage, .jump(7)])
    }
}

import Testing

@testable import ScrollCore

/// `offsetObserving`: publishes `origin = -contentOffset` and logs `offsetChanged` at most 10 times a second.
struct OffsetObservingPresetTests {
    @Test func originIsTheNegatedOffset() {
        var h = Harness(["preset": "offsetObserving"])
        let opened = h.lastState
        #expect(opened.origin == .zero)
        #expect(
            h.scroll(y: 250, x: 10) == [
                .log(LogEntry(.offsetChanged, geometrySeq: 1, ["origin": ["x": -10, "y": -250]])),
                .send(
                    .state(
                        opened.with {
                            $0.ack = 1
                            $0.origin = ScrollPoint(x: -10, y: -250)
                        })),
            ])
        h.advance(by: 100)
        // Pulled past the top: the origin is below zero's other side.
        #expect(h.scroll(y: -40).logs == [LogEntry(.offsetChanged, geometrySeq: 2, ["origin": ["x": 0, "y": 40]])])
        #expect(h.lastState.origin == ScrollPoint(x: 0, y: 40))
        // An unchanged origin logs nothing.
        h.advance(by: 100)
        #expect(h.scroll(y: -40).names == [])
    }

    @Test func horizontalAxisPublishesTheSameOrigin() {
        var h = Harness(["preset": "offsetObserving", "axis": "horizontal"])
        h.scroll(y: 5, x: 300)
        #expect(h.lastState.origin == ScrollPoint(x: -300, y: -5))
    }

    @Test func offsetChangedAtMostTenTimesPerSecondOfClockTime() {
        var h = Harness(["preset": "offsetObserving"])
        // Two seconds of 60 fps scrolling, then the finger stops.
        var y = 0.0
        while h.now < 2000 {
            y += 3
            h.scroll(y: y)
            h.advance(by: 16)
        }
        h.advance(by: 500)
        let times = h.logged.filter { $0.entry.name == .offsetChanged }.map(\.time)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= 100)
        }
        for start in times {
            #expect(times.filter { $0 >= start && $0 < start + 1000 }.count <= 10, "window from \(start) ms")
        }
        // It does log at that rate, not less, and the final position is not lost.
        #expect(times.filter { $0 < 1000 }.count == 10)
        #expect(h.logged.last?.entry.data["origin"] == ["x": 0, "y": .number(-y)])
    }

    @Test func heldBackOriginIsLoggedWhenTheThrottleEnds() {
        var h = Harness(["preset": "offsetObserving"])
        h.scroll(y: 10)
        h.advance(by: 30)
        let logged = h.lastState
        // 30 ms after the last log: held back, and a flush is due when the 100 ms are up.
        #expect(
            h.scroll(y: 20) == [
                .schedule(.originFlush, afterMilliseconds: 70),
                .send(
                    .state(
                        logged.with {
                            $0.ack = 2
                            $0.origin = ScrollPoint(x: 0, y: -20)
                        })),
            ])
        h.advance(by: 30)
        // Only one flush is scheduled however many frames arrive meanwhile.
        #expect(h.scroll(y: 30).names == [])
        #expect(h.timers.map(\.id) == [.originFlush])
        #expect(h.advance(by: 40) == [.log(LogEntry(.offsetChanged, geometrySeq: 3, ["origin": ["x": 0, "y": -30]]))])
    }
}

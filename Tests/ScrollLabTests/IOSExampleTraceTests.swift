import Foundation
import ScrollCore
import ScrollLab
import Testing

/// The `ios-*` traces in Examples/traces: scripted scenarios where the iPhone's scrolling changes a design's
/// decision. Each test runs its scenario under both physics, checks the decision that differs, and requires
/// the committed trace to be exactly what the scenario records (`WRITE_EXAMPLE_TRACES=1` rewrites them).
struct IOSExampleTraceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/traces").standardized

    /// The decisions' names, in order.
    static func decisions(_ run: CheckRun) -> [EventName] {
        (run.session.trace()?.lines ?? []).compactMap { line in
            if case .decision(_, let entry) = line { entry.name } else { nil }
        }
    }

    static func run(_ scenario: Scenario, _ physics: ScrollPhysics) -> CheckRun {
        var scenario = scenario
        scenario.settings["physics"] = .string(physics.rawValue)
        return CheckRun(scenario, record: true)
    }

    /// Checks the committed trace against the iOS run (or writes it).
    static func expectTrace(_ name: String, _ run: CheckRun) throws {
        var trace = run.session.trace(session: name)!
        trace.lines.append(.closed(t: run.session.now, code: 1000, resumable: false))
        trace.lines.append(
            .decision(t: run.session.now, LogEntry(.sessionClosed, ["code": .int(1000), "resumable": .bool(false)])))
        let file = directory.appendingPathComponent("\(name).jsonl")
        if ProcessInfo.processInfo.environment["WRITE_EXAMPLE_TRACES"] == "1" {
            try Data(trace.jsonLines.utf8).write(to: file)
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(
            committed == trace.jsonLines,
            "\(name).jsonl is stale: WRITE_EXAMPLE_TRACES=1 swift test --filter IOSExampleTraceTests")
    }

    @Test func aBouncePastTheEndFiresCustomScrollViewsRule() throws {
        // The browser stops 0.4 px short of the end (zoom): `contentSize <= offset + container` never holds and
        // nothing loads. On an iPhone the fling's bounce carries the offset past the end, and it holds.
        var layout = PageLayout()
        layout.endShortfall = 0.4
        let scenario = Scenario(
            settings: ["preset": "customScrollView", "loadLatencyMs": 300], layout: layout, steps: [.fling(150)])
        let browser = Self.run(scenario, .browser)
        let ios = Self.run(scenario, .ios)
        #expect(!Self.decisions(browser).contains(.loadMoreStarted))
        #expect(Self.decisions(ios).contains(.loadMoreStarted))
        try Self.expectTrace("ios-bounce-past-the-end", ios)
    }

    @Test func aFlingIntoTheTopOvershootsRefreshOffsetObservablesThreshold() throws {
        // The design refreshes whenever `contentOffset.y < -100`. A browser's fling stops at 0; an iPhone's
        // fling into the top bounces past it, well beyond 100 pt, with no finger on the glass.
        let scenario = Scenario(
            settings: ["preset": "refreshOffsetObservable"], steps: [.toEnd, .fling(-150)])
        let browser = Self.run(scenario, .browser)
        let ios = Self.run(scenario, .ios)
        #expect(!Self.decisions(browser).contains(.refreshStarted))
        #expect(Self.decisions(ios).contains(.refreshStarted))
        try Self.expectTrace("ios-fling-overshoot-refreshes", ios)
    }

    @Test func theRubberBandHalvesAPullUnderRefreshOffsetObservable() throws {
        // 150 px of finger travel past the top: the browser's page shows all of it (past −100: a refresh), the
        // rubber band shows 75 pt (no refresh); the design needs 206 pt of finger travel on an iPhone.
        let scenario = Scenario(settings: ["preset": "refreshOffsetObservable"], steps: [.pull(150)])
        let browser = Self.run(scenario, .browser)
        let ios = Self.run(scenario, .ios)
        #expect(Self.decisions(browser).contains(.refreshStarted))
        #expect(!Self.decisions(ios).contains(.refreshStarted))
        let longer = Self.run(Scenario(settings: ["preset": "refreshOffsetObservable"], steps: [.pull(216)]), .ios)
        #expect(Self.decisions(longer).contains(.refreshStarted))
        try Self.expectTrace("ios-rubber-band-pull", ios)
    }

    @Test func aLazyStacksEstimateMovesRefreshableLegacysPrefetch() throws {
        // A 1,000 px prefetch distance is measured against the reported content size. Under `lazyEstimate`
        // the rows below the viewport count at the mean of those realized, and the size changes as they
        // realize, so the level rule turns true at other moments than with exact rows.
        let scenario = Scenario(
            settings: [
                "preset": "refreshableLegacy", "bottomThreshold": 1000, "loadLatencyMs": 300, "pageSize": 10,
                "initialCount": 20,
            ],
            steps: [.drag(6, frames: 300)])
        func starts(_ contentSize: ContentSizeModel) -> (CheckRun, [Int64]) {
            var sized = scenario
            sized.settings["contentSize"] = .string(contentSize.rawValue)
            let run = Self.run(sized, .ios)
            let times = (run.session.trace()?.lines ?? []).compactMap { line -> Int64? in
                if case .decision(let t, let entry) = line, entry.name == .loadMoreStarted { t } else { nil }
            }
            return (run, times)
        }
        let (exactRun, exact) = starts(.exact)
        let (lazy, estimated) = starts(.lazyEstimate)
        #expect(exact == [96, 2400, 5008])
        #expect(estimated == [272, 2640, 5056])
        // Exact rows report a new content size only when a page lands; the estimate moves in between.
        func sizes(_ run: CheckRun) -> Set<Double> {
            Set(
                (run.session.trace()?.lines ?? []).compactMap { line -> Double? in
                    guard case .input(_, let text) = line, case .geometry(let report)? = try? ClientMessage.decode(text)
                    else { return nil }
                    return report.geometry.contentSize.height
                })
        }
        #expect(sizes(exactRun).count == 4)
        #expect(sizes(lazy).count > 10)
        try Self.expectTrace("ios-lazy-estimate-prefetch", lazy)
    }
}

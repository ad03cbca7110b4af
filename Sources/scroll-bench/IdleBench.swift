import CommandLineOptions
import LWSClient
import SystemCalls

/// `scroll-bench idle`: holds N sessions open (connected, said hello, got their first page) without
/// scrolling, and reports the server's resident memory per session.
enum IdleBench {
    /// What `idle` is told.
    struct Settings: BenchSettings {
        var sessions = 10_000
        var hold = 5.0
        var runs = 1
        var preset: String?
        var common = Arguments()
    }

    static let mode = BenchMode(
        "idle", summary: "N sessions connected and idle; server RSS per session", defaults: Settings(),
        own: [
            .integer("sessions", help: "sessions held open", \.sessions, in: 1...60_000),
            .number("hold", "S", help: "seconds they are held", \.hold, in: 0.5...3600, unit: "seconds"),
            .integer("runs", "K", help: "runs; each starts a fresh server unless --url", \.runs, in: 1...100),
            .text("preset", "NAME", help: "the preset every session asks for (default: the server's)", \.preset),
        ],
        shared: Arguments.remote + Arguments.spawn + Arguments.output,
        run: run)

    static func run(_ settings: Settings) throws -> [RunReport] {
        var reports: [RunReport] = []
        for run in 1...settings.runs {
            if settings.runs > 1 { StandardError.write("scroll-bench idle: run \(run) of \(settings.runs)…\n") }
            reports.append(
                try once(settings.common, sessions: settings.sessions, hold: settings.hold, preset: settings.preset))
        }
        return reports
    }

    private static func once(_ arguments: Arguments, sessions: Int, hold: Double, preset: String?) throws -> RunReport {
        try ensureFileLimit(for: sessions)
        let machineLoad = loadAverage()
        let target = try Target.resolve(arguments, sessions: sessions)
        defer { target.process?.terminate() }
        // A moment for the freshly started server to settle before its baseline is read.
        if target.process != nil { Monotonic.sleep(seconds: 0.5) }
        let baseline = target.pid.flatMap { ProcessSample(pid: $0) }

        let pool = try SessionPool(count: sessions, preset: preset, expectedSamples: 0)
        let receiver = pool.receiver
        let timeout = 60 + Double(sessions) / 50
        let connectSeconds = pool.connectAll(to: target, timeoutSeconds: timeout)
        let ready = receiver.ready.load(ordering: .relaxed)
        guard ready > 0 else {
            pool.closeAll(waitSeconds: 1)
            throw pool.noSessionReady(at: target, timeoutSeconds: timeout)
        }
        // Held idle: the first sample after the welcome/items/state burst has been written.
        Monotonic.sleep(seconds: 1)
        let heldStart = target.pid.flatMap { ProcessSample(pid: $0) }
        Monotonic.sleep(seconds: hold)
        let held = target.pid.flatMap { ProcessSample(pid: $0) }
        let stillOpen = (0..<sessions).count { pool.board.status($0) == .ready }
        let bench = ProcessSample(pid: Syscall.processID)
        pool.closeAll()

        var report = RunReport(
            mode: "idle",
            title: "scroll-bench idle: \(grouped(sessions)) sessions held open for \(decimal(hold, significant: 2)) s"
                + (preset.map { ", preset \($0)" } ?? ""))
        report.notes = [
            target.description,
            "each session connected, said hello and received welcome, its first page of items and state; then nothing",
            "per session = (server RSS held − server RSS before connecting) ÷ sessions; load average at start \(decimal(machineLoad, significant: 2))",
        ]
        report.add("sessions", "sessions held", .count, Double(ready))
        report.add("stillOpen", "still open at the end of the hold", .count, Double(stillOpen))
        report.add("connectSeconds", "time to connect them all", .seconds, connectSeconds)
        report.add("connectRate", "sessions opened per second", .perSecond, Double(ready) / connectSeconds)
        report.add(
            "serverBaselineMiB", "server RSS before connecting", .mebibytes, baseline.map { Double($0.rssKiB) / 1024 })
        report.add("serverHeldMiB", "server RSS while held", .mebibytes, held.map { Double($0.rssKiB) / 1024 })
        report.add(
            "rssPerSessionKiB", "server RSS per session", .kibibytes,
            baseline.flatMap { before in held.map { Double($0.rssKiB - before.rssKiB) / Double(max(1, ready)) } })
        report.add("serverPeakRSSMiB", "server peak RSS", .mebibytes, held.map { Double($0.peakRSSKiB) / 1024 })
        report.add(
            "serverIdleCPUPercent", "server CPU while held (% of one core)", .percent,
            heldStart.flatMap { before in held.map { ($0.cpuSeconds - before.cpuSeconds) / hold * 100 } })
        report.add("benchRSSMiB", "bench RSS while held", .mebibytes, bench.map { Double($0.rssKiB) / 1024 })
        report.add(
            "connectFailures", "connections failed", .count, Double(receiver.connectFailures.values.reduce(0, +)))
        report.add("errors", "error messages received", .count, Double(receiver.errorCodes.values.reduce(0, +)))
        report.details["connectFailureReasons"] = .object(receiver.connectFailures.mapValues { .int($0) })
        report.details["errorCodes"] = .object(receiver.errorCodes.mapValues { .int($0) })
        return report
    }
}

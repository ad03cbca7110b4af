import LWSTransport

#if canImport(Glibc)
    import Glibc
#endif

/// `scroll-bench idle`: holds N sessions open (connected, said hello, got their first page) without
/// scrolling, and reports the server's resident memory per session.
enum IdleBench {
    static let flags: Set<String> = ["sessions", "hold", "runs", "url", "server-pid", "server", "preset", "json"]

    static func run(_ arguments: Arguments) throws -> [RunReport] {
        let sessions = try arguments.integer("sessions", default: 10_000, in: 1...60_000)
        let hold = try arguments.number("hold", default: 5, in: 0.5...3600)
        let runs = try arguments.integer("runs", default: 1, in: 1...100)
        var reports: [RunReport] = []
        for run in 1...runs {
            if runs > 1 { StandardError.write("scroll-bench idle: run \(run) of \(runs)…\n") }
            reports.append(try once(arguments, sessions: sessions, hold: hold, preset: arguments.string("preset")))
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
        let connectSeconds = pool.connectAll(to: target, timeoutSeconds: 60 + Double(sessions) / 50)
        let ready = receiver.ready.load(ordering: .relaxed)
        // Held idle: the first sample after the welcome/items/state burst has been written.
        Monotonic.sleep(seconds: 1)
        let heldStart = target.pid.flatMap { ProcessSample(pid: $0) }
        Monotonic.sleep(seconds: hold)
        let held = target.pid.flatMap { ProcessSample(pid: $0) }
        let stillOpen = (0..<sessions).count { pool.board.status($0) == .ready }
        let bench = ProcessSample(pid: getpid())
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
        report.add("serverBaselineMiB", "server RSS before connecting", .mebibytes, baseline.map { Double($0.rssKiB) / 1024 })
        report.add("serverHeldMiB", "server RSS while held", .mebibytes, held.map { Double($0.rssKiB) / 1024 })
        report.add(
            "rssPerSessionKiB", "server RSS per session", .kibibytes,
            baseline.flatMap { before in held.map { Double($0.rssKiB - before.rssKiB) / Double(max(1, ready)) } })
        report.add("serverPeakRSSMiB", "server peak RSS", .mebibytes, held.map { Double($0.peakRSSKiB) / 1024 })
        report.add(
            "serverIdleCPUPercent", "server CPU while held (% of one core)", .percent,
            heldStart.flatMap { before in held.map { ($0.cpuSeconds - before.cpuSeconds) / hold * 100 } })
        report.add("benchRSSMiB", "bench RSS while held", .mebibytes, bench.map { Double($0.rssKiB) / 1024 })
        report.add("connectFailures", "connections failed", .count, Double(receiver.connectFailures.values.reduce(0, +)))
        report.add("errors", "error messages received", .count, Double(receiver.errorCodes.values.reduce(0, +)))
        report.details["connectFailureReasons"] = .object(receiver.connectFailures.mapValues { .int($0) })
        report.details["errorCodes"] = .object(receiver.errorCodes.mapValues { .int($0) })
        return report
    }
}

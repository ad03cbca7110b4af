import CommandLineOptions
import LWSClient
import LWSTransport
import ScrollCore
import SystemCalls

/// `scroll-bench load`: N sessions each playing the gesture loop at R Hz against one server; measures
/// geometry → state round trips (matched by `ack`) and ping → pong, throughput, errors and closes,
/// and the server's CPU and memory.
enum LoadBench {
    /// What `load` is told.
    struct Settings: BenchSettings {
        var sessions = 100
        var rate = 60.0
        var duration = 10.0
        var warmup = 3.0
        var runs = 1
        var preset: String?
        var common = Arguments()
    }

    static let mode = BenchMode(
        "load",
        summary: "N sessions each playing a gesture loop (fling down, reach the bottom, scroll up, pull and release) "
            + "at R Hz; geometry → state and ping → pong latency, throughput, errors, server CPU and memory",
        defaults: Settings(),
        own: [
            .integer("sessions", help: "sessions, each its own WebSocket", \.sessions, in: 1...60_000),
            .number("rate", "HZ", help: "geometry messages a session sends per second", \.rate, in: 0.1...1000),
            .number("duration", "S", help: "seconds measured", \.duration, in: 0.5...3600, unit: "seconds"),
            .number("warmup", "S", help: "seconds played before measuring", \.warmup, in: 0...600, unit: "seconds"),
            .integer("runs", "K", help: "runs; each starts a fresh server unless --url", \.runs, in: 1...100),
            .text("preset", "NAME", help: "the preset every session asks for (default: the server's)", \.preset),
        ],
        shared: Arguments.remote + Arguments.spawn + Arguments.output,
        run: run)

    static func run(_ settings: Settings) throws -> [RunReport] {
        let runs = settings.runs
        if settings.common.url != nil, runs > 1 {
            StandardError.write(
                "scroll-bench: note: with --url every run uses the same server (and its sessions' state)\n")
        }
        var reports: [RunReport] = []
        for run in 1...runs {
            if runs > 1 { StandardError.write("scroll-bench load: run \(run) of \(runs)…\n") }
            reports.append(
                try once(
                    settings.common, sessions: settings.sessions, rate: settings.rate, duration: settings.duration,
                    warmup: settings.warmup, preset: settings.preset))
        }
        return reports
    }

    private static func once(
        _ arguments: Arguments, sessions: Int, rate: Double, duration: Double, warmup: Double, preset: String?
    ) throws -> RunReport {
        try ensureFileLimit(for: sessions)
        let target = try Target.resolve(arguments, sessions: sessions)
        defer { target.process?.terminate() }
        return try measure(target, sessions: sessions, rate: rate, duration: duration, warmup: warmup, preset: preset)
    }

    /// One run against `target` (which the caller stops).
    static func measure(
        _ target: Target, sessions: Int, rate: Double, duration: Double, warmup: Double, preset: String?
    ) throws -> RunReport {
        try ensureFileLimit(for: sessions)
        let machineLoad = loadAverage()
        let expected = Int(Double(sessions) * rate * duration * 1.05) + 1024
        let pool = try SessionPool(count: sessions, preset: preset, expectedSamples: expected)
        let receiver = pool.receiver
        let timeout = 30 + Double(sessions) / 100
        let connectSeconds = pool.connectAll(to: target, timeoutSeconds: timeout)
        let ready = receiver.ready.load(ordering: .relaxed)
        guard ready > 0 else {
            pool.closeAll(waitSeconds: 1)
            throw pool.noSessionReady(at: target, timeoutSeconds: timeout)
        }

        let origin = Monotonic.now()
        let start = origin + 20_000_000
        let windowStart = start + UInt64(warmup * 1e9)
        let windowEnd = windowStart + UInt64(duration * 1e9)
        receiver.windowStart.store(windowStart, ordering: .relaxed)
        receiver.windowEnd.store(windowEnd, ordering: .relaxed)
        let driver = Driver(
            board: pool.board, client: pool.client, connections: pool.connections, rate: rate, origin: origin)
        let driving = ServiceThread { driver.run(start: start, end: windowEnd, window: windowStart..<windowEnd) }

        Monotonic.sleep(until: windowStart)
        let before = CPUWindow.Sample(server: target.pid)
        Monotonic.sleep(until: windowEnd)
        let cpu = CPUWindow(before: before, after: CPUWindow.Sample(server: target.pid), duration: duration)
        driving.join()
        // Answers to the window's last frames are still on their way.
        let drainDeadline = Monotonic.now() + 3_000_000_000
        while receiver.answered.load(ordering: .relaxed) < driver.geometrySent, Monotonic.now() < drainDeadline {
            Monotonic.sleep(seconds: 0.01)
        }
        receiver.graceOver.store(true, ordering: .relaxed)
        let serverEnd = target.pid.flatMap { ProcessSample(pid: $0) }
        pool.closeAll()

        // The client's thread has been joined: the receiver's tallies are final.
        let unanswered = max(0, driver.geometrySent - receiver.roundTrips.count)
        // Unanswered geometry counts as slower than every answer: a percentile among them shows "> 3 s".
        let roundTrips = Percentiles(receiver.roundTrips, censored: unanswered)
        let pongs = Percentiles(receiver.pongTimes, censored: driver.pingsSent - receiver.pongTimes.count)
        let received = receiver.receivedByKind.reduce(0, +)

        var report = RunReport(
            mode: "load",
            title: "scroll-bench load: \(grouped(sessions)) sessions × \(decimal(rate, significant: 2)) Hz, "
                + "\(decimal(duration, significant: 2)) s measured after \(decimal(warmup, significant: 2)) s warm-up"
                + (preset.map { ", preset \($0)" } ?? ""))
        report.notes = [
            target.description,
            "bench and server share this machine (\(cpuCount()) cores); load average at start \(decimal(machineLoad, significant: 2))",
            "round trip = geometry sent → state with that ack received (a state acking a later seq answers earlier ones too)",
        ]
        if unanswered > 0 {
            report.warnings.append(
                "geometry went unanswered for over 3 s (see \"geometry without a state\"): server and bench did not keep "
                    + "up; it ranks above every answer, so a percentile that falls among it shows \"> 3 s\"")
        }
        if receiver.unexpectedCloses.values.reduce(0, +) + receiver.connectFailures.values.reduce(0, +) > 0 {
            report.warnings.append("connections failed or closed early (see the counts and, in --json, their codes)")
        }
        report.add("sessions", "sessions connected", .count, Double(ready))
        report.add("connectSeconds", "time to connect them all", .seconds, connectSeconds)
        report.add("geometryPerSecond", "geometry messages out", .perSecond, Double(driver.geometrySent) / duration)
        report.add("pingsPerSecond", "ping messages out", .perSecond, Double(driver.pingsSent) / duration)
        report.add(
            "messagesOutPerSecond", "messages out (all)", .perSecond,
            Double(driver.geometrySent + driver.pingsSent) / duration)
        report.add("messagesInPerSecond", "messages in (all)", .perSecond, Double(received) / duration)
        report.add(
            "statesPerSecond", "  of which state", .perSecond,
            Double(receiver.receivedByKind[MessageScanner.Kind.state.rawValue]) / duration)
        report.add(
            "eventsPerSecond", "  of which event", .perSecond,
            Double(receiver.receivedByKind[MessageScanner.Kind.event.rawValue]) / duration)
        report.add("roundTrips", "round trips measured", .count, Double(roundTrips.count))
        report.add(
            "roundTripP50Ms", "geometry → state p50", .milliseconds, roundTrips.milliseconds(50), beyond: "> 3 s")
        report.add(
            "roundTripP90Ms", "geometry → state p90", .milliseconds, roundTrips.milliseconds(90), beyond: "> 3 s")
        report.add(
            "roundTripP99Ms", "geometry → state p99", .milliseconds, roundTrips.milliseconds(99), beyond: "> 3 s")
        report.add(
            "roundTripP999Ms", "geometry → state p99.9", .milliseconds, roundTrips.milliseconds(99.9), beyond: "> 3 s")
        report.add(
            "roundTripMaxMs", "geometry → state max", .milliseconds, roundTrips.milliseconds(100), beyond: "> 3 s")
        report.add("pongP50Ms", "ping → pong p50", .milliseconds, pongs.milliseconds(50), beyond: "> 3 s")
        report.add("pongP99Ms", "ping → pong p99", .milliseconds, pongs.milliseconds(99), beyond: "> 3 s")
        report.add("pongMaxMs", "ping → pong max", .milliseconds, pongs.milliseconds(100), beyond: "> 3 s")
        report.add("unanswered", "geometry without a state (3 s grace)", .count, Double(unanswered))
        report.add("superseded", "answered by a later state only", .count, Double(receiver.superseded))
        report.add("skippedLate", "frames dropped (driver > 1 frame late)", .count, Double(driver.skippedLate))
        report.add("skippedBacklog", "frames held (120 unanswered)", .count, Double(driver.skippedBacklog))
        report.add("driverMaxLagMs", "driver's worst lateness", .milliseconds, Double(driver.maxLag) / 1e6)
        report.add("errors", "error messages received", .count, Double(receiver.errorCodes.values.reduce(0, +)))
        report.add(
            "connectFailures", "connections failed", .count, Double(receiver.connectFailures.values.reduce(0, +)))
        report.add(
            "unexpectedCloses", "connections closed early", .count,
            Double(receiver.unexpectedCloses.values.reduce(0, +)))
        report.add("serverRSSMiB", "server RSS at the end", .mebibytes, serverEnd.map { Double($0.rssKiB) / 1024 })
        report.add("serverPeakRSSMiB", "server peak RSS", .mebibytes, serverEnd.map { Double($0.peakRSSKiB) / 1024 })
        cpu.addFigures(to: &report, messages: driver.geometrySent, noun: "geometry message")
        report.details["errorCodes"] = .object(receiver.errorCodes.mapValues { .int($0) })
        report.details["connectFailureReasons"] = .object(receiver.connectFailures.mapValues { .int($0) })
        report.details["unexpectedCloseCodes"] = .object(receiver.unexpectedCloses.mapValues { .int($0) })
        report.details["loadAverageAtStart"] = .number(machineLoad)
        report.details["serverTerminalBytes"] = .int(target.process?.terminalOutputBytes ?? 0)
        return report
    }
}

/// Online CPUs.
func cpuCount() -> Int {
    Syscall.processorCount
}

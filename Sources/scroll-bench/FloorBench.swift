import CommandLineOptions
import LWSTransport
import SystemCalls

/// `scroll-bench floor`: what one message must cost at least on this machine, now. A loopback TCP pair
/// of processes: this bench's connections send geometry-sized frames, and its server side
/// (`FloorServer`, this executable re-run) does only `epoll_wait`, `recv` and `send` to echo them. At the
/// sessions and rate `load` uses, the server batches as the playground's would; `--rate 0` is the closed
/// loop (with `--sessions 1`, one ping-pong pair). Reports the same figures, by the same keys, as `load`.
enum FloorBench {
    /// What `floor` is told.
    struct Settings: BenchSettings {
        var sessions = 100
        var rate = 60.0
        var duration = 10.0
        var warmup = 3.0
        var runs = 1
        var common = Arguments()
    }

    static let mode = BenchMode(
        "floor",
        summary: "the least one message costs here: N loopback connections at R Hz (0: each sends its next frame "
            + "when its answer is back) to a server doing only epoll_wait + recv + send of a geometry-sized "
            + "frame; server CPU per message (user, kernel), round trips",
        defaults: Settings(),
        own: [
            .integer("sessions", help: "connections", \.sessions, in: 1...60_000),
            .number("rate", "HZ", help: "frames a connection sends per second; 0: closed loop", \.rate, in: 0...1000),
            .number("duration", "S", help: "seconds measured", \.duration, in: 0.5...3600, unit: "seconds"),
            .number("warmup", "S", help: "seconds played before measuring", \.warmup, in: 0...600, unit: "seconds"),
            .integer("runs", "K", help: "runs; each starts a fresh floor server", \.runs, in: 1...100),
        ],
        shared: Arguments.output,
        run: run)

    static func run(_ settings: Settings) throws -> [RunReport] {
        var reports: [RunReport] = []
        for run in 1...settings.runs {
            if settings.runs > 1 { StandardError.write("scroll-bench floor: run \(run) of \(settings.runs)…\n") }
            reports.append(
                try once(
                    sessions: settings.sessions, rate: settings.rate, duration: settings.duration,
                    warmup: settings.warmup))
        }
        return reports
    }

    /// Starts the floor's server side (this executable as `floor-server`).
    static func startServer() throws -> ServerProcess {
        guard let executable = ServerProcess.selfExecutable else {
            throw BenchError("cannot find this executable (/proc/self/exe) to start the floor's server side")
        }
        return try ServerProcess(command: [executable, FloorServer.modeName], announcement: FloorServer.announcement)
    }

    /// One run against a fresh floor server.
    static func once(sessions: Int, rate: Double, duration: Double, warmup: Double) throws -> RunReport {
        try ensureFileLimit(for: sessions)
        let machineLoad = loadAverage()
        let server = try startServer()
        defer { server.terminate() }
        let closedLoop = rate == 0
        let expected = closedLoop ? 1 << 20 : Int(Double(sessions) * rate * duration * 1.05) + 1024
        let client: FloorClient
        do {
            client = try FloorClient(count: sessions, port: server.port, expectedSamples: expected)
        } catch {
            throw BenchError("floor: cannot connect to its server: \(error)")
        }
        let origin = Monotonic.now()
        let start = origin + 20_000_000
        let windowStart = start + UInt64(warmup * 1e9)
        let windowEnd = windowStart + UInt64(duration * 1e9)
        let window = windowStart..<windowEnd
        client.windowStart.store(windowStart, ordering: .relaxed)
        client.windowEnd.store(windowEnd, ordering: .relaxed)
        let sender = client.sender
        var driving: ServiceThread?
        if closedLoop {
            // One frame in flight per connection; the reader sends each next one.
            for index in 0..<sessions { sender.send(index, window: window) }
        } else {
            driving = ServiceThread { sender.drive(rate: rate, start: start, end: windowEnd, window: window) }
        }
        let reading = ServiceThread { client.read(closedLoop: closedLoop) }

        Monotonic.sleep(until: windowStart)
        let before = CPUWindow.Sample(server: server.pid)
        Monotonic.sleep(until: windowEnd)
        let cpu = CPUWindow(before: before, after: CPUWindow.Sample(server: server.pid), duration: duration)
        driving?.join()
        let drainDeadline = Monotonic.now() + 3_000_000_000
        while client.answered.load(ordering: .relaxed) < sender.sent.load(ordering: .relaxed),
            Monotonic.now() < drainDeadline
        {
            Monotonic.sleep(seconds: 0.01)
        }
        client.stop()
        reading.join()
        client.closeAll()

        // Reader and driver are joined: the tallies are final.
        let sent = sender.sent.load(ordering: .relaxed)
        let unanswered = max(0, sent - client.roundTrips.count)
        let roundTrips = Percentiles(client.roundTrips, censored: unanswered)
        let shape =
            closedLoop
            ? "closed loop (each sends its next frame when its answer is back)"
            : "× \(decimal(rate, significant: 2)) Hz"
        var report = RunReport(
            mode: "floor",
            title: "scroll-bench floor: \(grouped(sessions)) connection\(sessions == 1 ? "" : "s") \(shape), "
                + "\(decimal(duration, significant: 2)) s measured after \(decimal(warmup, significant: 2)) s warm-up")
        report.notes = [
            "server: this executable as `\(FloorServer.modeName)` (pid \(server.pid)): one thread, epoll_wait + recv + "
                + "send of each read, nothing else",
            "frame: a geometry message in a masked WebSocket text frame, \(FloorFrame.bytes.count) bytes, echoed",
            "bench and server share this machine (\(cpuCount()) cores); load average at start \(decimal(machineLoad, significant: 2))",
        ]
        if unanswered > 0 {
            report.warnings.append("frames went unanswered for over 3 s: the pair did not keep up")
        }
        report.add("sessions", "connections", .count, Double(sessions - client.closed))
        report.add("geometryPerSecond", "frames out", .perSecond, Double(sent) / duration)
        report.add("statesPerSecond", "answers in", .perSecond, Double(client.answersInWindow) / duration)
        report.add("roundTrips", "round trips measured", .count, Double(roundTrips.count))
        report.add("roundTripP50Ms", "frame → echo p50", .milliseconds, roundTrips.milliseconds(50), beyond: "> 3 s")
        report.add("roundTripP90Ms", "frame → echo p90", .milliseconds, roundTrips.milliseconds(90), beyond: "> 3 s")
        report.add("roundTripP99Ms", "frame → echo p99", .milliseconds, roundTrips.milliseconds(99), beyond: "> 3 s")
        report.add("roundTripMaxMs", "frame → echo max", .milliseconds, roundTrips.milliseconds(100), beyond: "> 3 s")
        report.add("unanswered", "frames without an echo (3 s grace)", .count, Double(unanswered))
        report.add("skippedLate", "frames dropped (driver > 1 frame late)", .count, Double(sender.skippedLate))
        report.add("skippedBacklog", "frames held (120 unanswered)", .count, Double(sender.skippedBacklog))
        report.add("errors", "sends failed", .count, Double(sender.failed))
        report.add("unexpectedCloses", "connections closed early", .count, Double(client.closed))
        cpu.addFigures(to: &report, messages: sent)
        return report
    }
}

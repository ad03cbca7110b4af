import CommandLineOptions
import ScrollCore
import SystemCalls

/// `scroll-bench compare`: the floor, this server and the reference peers (shared/peers: goref in Go,
/// pyref in Python), measured alternately in one run at each session count, so that every figure can be
/// read as a ratio to the others measured on the same machine at the same time. Prints one table.
enum CompareBench {
    /// What `compare` is told.
    struct Settings: BenchSettings {
        var sessions = "20,100,300"
        var rate = 60.0
        var duration = 8.0
        var warmup = 2.0
        var runs = 3
        var goref: String?
        var pyref: String?
        var python: String?
        var common = Arguments()
    }

    static let mode = BenchMode(
        "compare",
        summary: "the floor, scroll-playground and the reference peers, alternately at each session count; one "
            + "table of CPU per message and its ratio to the floor, round trips, states/s, errors, steal",
        defaults: Settings(),
        own: [
            .text("sessions", "N,N,…", help: "session counts, each measured for every server", \.sessions),
            .number("rate", "HZ", help: "geometry messages a session sends per second", \.rate, in: 0.1...1000),
            .number(
                "duration", "S", help: "seconds measured per server and count", \.duration, in: 0.5...3600,
                unit: "seconds"),
            .number("warmup", "S", help: "seconds played before measuring", \.warmup, in: 0...600, unit: "seconds"),
            .integer(
                "runs", "K", help: "rounds over every server and count; the table shows medians", \.runs, in: 1...100),
            .text("goref", "PATH", help: "the Go peer's executable (built by Scripts/bench-peers.sh)", \.goref),
            .text("pyref", "PATH", help: "the Python peer's server.py (shared/peers/pyref)", \.pyref),
            .text(
                "python", "PATH", help: "with --pyref: a Python with `websockets` (Scripts/bench-peers.sh's venv)",
                \.python),
        ],
        shared: Arguments.spawn,
        run: run)

    /// A server the comparison measures: its name, and one run of it at a session count.
    struct Contestant {
        let name: String
        let measure: (_ sessions: Int) throws -> RunReport
    }

    /// `"20,100,300"` → `[20, 100, 300]`.
    static func sessionCounts(_ text: String) throws(UsageError) -> [Int] {
        let counts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: " "))
        }
        guard !counts.isEmpty, counts.allSatisfy({ $0.map { (1...60_000).contains($0) } ?? false }) else {
            throw UsageError("compare: --sessions expects counts in 1…60000 separated by commas, got '\(text)'")
        }
        return counts.compactMap { $0 }
    }

    static func run(_ settings: Settings) throws -> [RunReport] {
        let counts = try sessionCounts(settings.sessions)
        let contestants = try self.contestants(settings)
        let perRun = settings.duration + settings.warmup + 2
        let minutes = Double(settings.runs) * perRun * Double(1 + counts.count * contestants.count) / 60
        StandardError.write(
            "scroll-bench compare: \(contestants.map(\.name).joined(separator: ", ")) at \(counts.map(String.init).joined(separator: ", ")) "
                + "sessions, \(settings.runs) round\(settings.runs == 1 ? "" : "s"): about \(decimal(minutes, significant: 2)) min\n"
        )
        let machineLoad = loadAverage()
        let pingPong = Contestant(name: ComparisonTable.floor) { _ in
            try FloorBench.once(sessions: 1, rate: 0, duration: settings.duration, warmup: min(1, settings.warmup))
        }
        // Every (server, count) pair's reports, and the last failure of each.
        var reports: [String: [RunReport]] = [:]
        var failures: [String: String] = [:]
        func key(_ name: String, _ sessions: Int, pingPong: Bool = false) -> String {
            pingPong ? "\(name) ping-pong" : "\(name) \(sessions)"
        }
        func measure(_ contestant: Contestant, _ sessions: Int, pingPong: Bool = false, round: Int) {
            StandardError.write(
                "  round \(round): \(contestant.name) at \(pingPong ? "1 (ping-pong)" : String(sessions)) sessions…\n")
            let slot = key(contestant.name, sessions, pingPong: pingPong)
            do {
                reports[slot, default: []].append(try contestant.measure(sessions))
            } catch {
                failures[slot] = "\(error)"
                StandardError.write("    failed: \(error)\n")
            }
        }
        for round in 1...settings.runs {
            measure(pingPong, 1, pingPong: true, round: round)
            for sessions in counts {
                // Rotated each round, so that no server always runs first after a change of count.
                let shift = (round - 1) % contestants.count
                for contestant in contestants[shift...] + contestants[..<shift] {
                    measure(contestant, sessions, round: round)
                }
            }
        }

        var cells = [
            cell(
                ComparisonTable.floor, 1, pingPong: true, reports[key(ComparisonTable.floor, 1, pingPong: true)] ?? [],
                failures[key(ComparisonTable.floor, 1, pingPong: true)])
        ]
        for sessions in counts {
            for contestant in contestants {
                let slot = key(contestant.name, sessions)
                cells.append(cell(contestant.name, sessions, reports[slot] ?? [], failures[slot]))
            }
        }
        let table = ComparisonTable(rate: settings.rate, cells: cells)
        print(
            "scroll-bench compare: \(counts.map(String.init).joined(separator: ", ")) sessions × \(decimal(settings.rate, significant: 2)) Hz, "
                + "\(decimal(settings.duration, significant: 2)) s measured after \(decimal(settings.warmup, significant: 2)) s warm-up, "
                + "median of \(settings.runs) round\(settings.runs == 1 ? "" : "s") (servers alternating)")
        print(
            "  \(cpuCount()) cores; load average at start \(decimal(machineLoad, significant: 2)); steal and others: % of all cores and of one core"
        )
        print(
            "  CPU/message: server CPU in the window ÷ geometry messages (floor: frames) sent in it; × floor: over the floor at the same count"
        )
        print("")
        for line in table.lines { print(line) }
        return []
    }

    /// The contestants in table order: the floor, this server, then the peers that were given.
    private static func contestants(_ settings: Settings) throws -> [Contestant] {
        let rate = settings.rate
        let duration = settings.duration
        let warmup = settings.warmup
        func load(_ target: Target, _ sessions: Int) throws -> RunReport {
            try LoadBench.measure(
                target, sessions: sessions, rate: rate, duration: duration, warmup: warmup, preset: nil)
        }
        var contestants = [
            Contestant(name: ComparisonTable.floor) { sessions in
                try FloorBench.once(sessions: sessions, rate: rate, duration: duration, warmup: warmup)
            },
            Contestant(name: ComparisonTable.subject) { sessions in
                try ensureFileLimit(for: sessions)
                let target = try Target.resolve(settings.common, sessions: sessions)
                defer { target.process?.terminate() }
                return try load(target, sessions)
            },
        ]
        if let goref = settings.goref {
            guard Syscall.isExecutable(goref) else {
                throw UsageError("compare: --goref \(goref) is not an executable")
            }
            contestants.append(
                Contestant(name: ComparisonTable.goPeer) { sessions in
                    let process = try ServerProcess(command: [goref, "--port", "0"], announcement: "goref on ")
                    defer { process.terminate() }
                    return try load(Target.started(process, name: "goref \(goref)"), sessions)
                })
        }
        if let pyref = settings.pyref {
            guard let python = settings.python else {
                throw UsageError("compare: --pyref needs --python PATH (a Python with `websockets`)")
            }
            guard Syscall.isReadable(pyref) else { throw UsageError("compare: --pyref \(pyref) cannot be read") }
            guard Syscall.isExecutable(python) else {
                throw UsageError("compare: --python \(python) is not an executable")
            }
            contestants.append(
                Contestant(name: "pyref") { sessions in
                    // pyref would print port 0 for --port 0: it is given a free port instead.
                    let port = try Syscall.freeLoopbackPort()
                    let process = try ServerProcess(
                        command: [python, pyref, "--port", String(port)], announcement: "pyref on ")
                    defer { process.terminate() }
                    return try load(Target.started(process, name: "pyref \(python) \(pyref)"), sessions)
                })
        }
        return contestants
    }

    /// Medians of the runs that worked.
    private static func cell(
        _ server: String, _ sessions: Int, pingPong: Bool = false, _ runs: [RunReport], _ failure: String?
    ) -> ComparisonTable.Cell {
        var cell = ComparisonTable.Cell(server: server, sessions: sessions, pingPong: pingPong, runs: runs.count)
        guard !runs.isEmpty else {
            cell.failure = failure ?? "not run"
            return cell
        }
        func median(_ keys: String...) -> Double? {
            let values = runs.compactMap { run -> Double? in
                let found = keys.compactMap { key in run.metrics.first { $0.key == key }?.summarizable }
                return found.isEmpty ? nil : found.reduce(0, +)
            }
            return Summary(values)?.median
        }
        cell.cpuPerMessageUs = median("serverCPUPerGeometryUs")
        cell.userPerMessageUs = median("serverUserCPUPerGeometryUs")
        cell.kernelPerMessageUs = median("serverSystemCPUPerGeometryUs")
        cell.p50Ms = median("roundTripP50Ms")
        cell.p99Ms = median("roundTripP99Ms")
        cell.statesPerSecond = median("statesPerSecond")
        cell.errors = median("errors", "connectFailures", "unexpectedCloses")
        cell.unanswered = median("unanswered")
        cell.stealPercent = median("stealPercent")
        cell.othersPercent = median("othersCPUPercent")
        cell.notSent = median("skippedLate", "skippedBacklog")
        for run in runs {
            for detail in ["errorCodes", "connectFailureReasons", "unexpectedCloseCodes"] {
                guard case .object(let codes)? = run.details[detail] else { continue }
                for (code, count) in codes {
                    guard case .number(let count) = count, let whole = Int(exactly: count), whole > 0 else { continue }
                    cell.errorCodes[detail == "unexpectedCloseCodes" ? "closed \(code)" : code, default: 0] += whole
                }
            }
        }
        return cell
    }
}

extension Target {
    /// A server the bench started itself (a peer), measured by its pid.
    static func started(_ process: ServerProcess, name: String) -> Target {
        Target(
            host: "127.0.0.1", port: process.port, path: "/ws", process: process, pid: process.pid,
            description: "server: \(name) (pid \(process.pid))")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return text
    }
}

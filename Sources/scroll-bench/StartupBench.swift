import LWSTransport

/// `scroll-bench startup`: from spawning `scroll-playground` to the first `GET /` answered 200.
enum StartupBench {
    static let flags: Set<String> = ["runs", "server", "json"]

    static func run(_ arguments: Arguments) throws -> [RunReport] {
        let runs = try arguments.integer("runs", default: 5, in: 1...100)
        let executable = arguments.string("server") ?? ServerProcess.defaultExecutable
        var reports: [RunReport] = []
        for _ in 1...runs {
            let machineLoad = loadAverage()
            let process = try ServerProcess(executable: executable, arguments: arguments.serverArguments)
            var status = 0
            var attempts = 0
            let deadline = Monotonic.now() + 10_000_000_000
            // The listening socket is bound before the start line is printed; retry only in case it is not.
            while status != 200, Monotonic.now() < deadline {
                attempts += 1
                status = (try? HTTPProbe.get(port: process.port, path: "/", timeout: .seconds(5)))?.status ?? 0
                if status != 200 { Monotonic.sleep(seconds: 0.001) }
            }
            let served = Monotonic.now()
            process.terminate()
            guard status == 200 else { throw BenchError("GET / never answered 200 (last status \(status))") }
            var report = RunReport(mode: "startup", title: "scroll-bench startup: spawn scroll-playground → first GET / answered 200")
            report.notes = [
                "\(executable) --port 0 --log-format json \(arguments.serverArguments.joined(separator: " "))",
                "the clock starts just before posix_spawn; load average at start \(decimal(machineLoad, significant: 2))",
            ]
            report.add("startToListeningMs", "start → \"Scroll Playground on …\" line", .milliseconds,
                       Double(process.announcedAt - process.spawnedAt) / 1e6)
            report.add("startToFirstPageMs", "start → first page served (200)", .milliseconds,
                       Double(served - process.spawnedAt) / 1e6)
            report.add("attempts", "GET attempts", .count, Double(attempts))
            reports.append(report)
        }
        return reports
    }
}

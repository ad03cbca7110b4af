import CommandLineOptions
import LWSClient

/// `scroll-bench startup`: from spawning `scroll-playground` to the first `GET /` answered 200.
enum StartupBench {
    /// What `startup` is told.
    struct Settings: BenchSettings {
        var runs = 5
        var common = Arguments()
    }

    static let mode = BenchMode(
        "startup", summary: "spawn the server, time to the first GET / answered 200", defaults: Settings(),
        own: [.integer("runs", "K", help: "servers started one after the other", \.runs, in: 1...100)],
        shared: Arguments.spawn + Arguments.output,
        run: run)

    static func run(_ settings: Settings) throws -> [RunReport] {
        let runs = settings.runs
        let arguments = settings.common
        let executable = arguments.server ?? ServerProcess.defaultExecutable
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
            var report = RunReport(
                mode: "startup", title: "scroll-bench startup: spawn scroll-playground → first GET / answered 200")
            report.notes = [
                "\(executable) --port 0 --log-format json \(arguments.serverArguments.joined(separator: " "))",
                "the clock starts just before posix_spawn; load average at start \(decimal(machineLoad, significant: 2))",
            ]
            report.add(
                "startToListeningMs", "start → \"Scroll Playground on …\" line", .milliseconds,
                Double(process.announcedAt - process.spawnedAt) / 1e6)
            report.add(
                "startToFirstPageMs", "start → first page served (200)", .milliseconds,
                Double(served - process.spawnedAt) / 1e6)
            report.add("attempts", "GET attempts", .count, Double(attempts))
            reports.append(report)
        }
        return reports
    }
}

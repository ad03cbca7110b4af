import CommandLineOptions
import SystemCalls

// scroll-bench: measures the playground. `codec` runs the hot path in process; `load` drives a server
// with many simulated pages over real WebSockets; `idle` holds sessions open and weighs them;
// `startup` times a fresh server to its first page; `floor` measures what a message costs at least here, and
// `compare` runs the floor, the playground and reference peers side by side. Numbers are measured, never asserted in tests.

let all = CommandLine.arguments.dropFirst()
let name = all.first ?? "help"
if name == FloorServer.modeName { FloorServer.run() }
if ["help", "--help", "-h"].contains(name) {
    print(BenchMode.usage)
    Syscall.exit(0)
}
guard let mode = BenchMode.all.first(where: { $0.name == name }) else {
    fail("unknown mode '\(name)' (see scroll-bench --help)", code: 2)
}
do {
    let job: BenchMode.Job
    do {
        guard let read = try mode.job(all.dropFirst()) else {
            print(BenchMode.usage)
            Syscall.exit(0)
        }
        job = read
    } catch {
        fail(UsageError(error, prefix: "\(mode.name): ", seeAlso: "scroll-bench --help").description, code: 2)
    }
    let reports = try job.run()
    if job.json {
        ReportPrinter.printJSON(reports)
    } else {
        ReportPrinter.printTable(reports)
    }
} catch let error as UsageError {
    fail("\(error.description) (see scroll-bench --help)", code: 2)
} catch {
    fail("\(error)")
}

#if canImport(Glibc)
    import Glibc
#endif

// scroll-bench: measures the playground. `codec` runs the hot path in process; `load` drives a server
// with many simulated pages over real WebSockets; `idle` holds sessions open and weighs them;
// `startup` times a fresh server to its first page. Numbers are measured, never asserted in tests.

let usage = """
    Usage: scroll-bench MODE [options] [-- server options]

    Modes:
      load      N sessions each playing a gesture loop (fling down, reach the bottom, scroll up,
                pull and release) at R Hz; geometry → state and ping → pong latency, throughput,
                errors, server CPU and memory
                  --sessions N (100)  --rate HZ (60)  --duration S (10)  --warmup S (3)  --runs K (1)
                  --preset NAME (the server's default)
      idle      N sessions connected and idle; server RSS per session
                  --sessions N (10000)  --hold S (5)  --runs K (1)  --preset NAME
      startup   spawn the server, time to the first GET / answered 200
                  --runs K (5)
      codec     in-process decode + reduce + encode per geometry message, vs Foundation
                  --messages N (50000)  --runs K (7)  --foundation no (skip the Foundation pass)

    The server: by default the bench starts the scroll-playground next to it (.build/<config>/)
    with --port 0 --log-format json (plus --max-sessions to fit, plus anything after --), reads
    its CPU and memory from /proc and stops it afterwards. Or:
      --url ws://HOST:PORT/PATH   any server speaking the playground protocol (SPEC §5)
      --server-pid PID            with --url: whose CPU and memory to read from /proc
      --server PATH               another scroll-playground executable to start
    Output: a table; --json prints one JSON object instead. With --runs K > 1 the table shows the
    median and the min – max of the K runs.
    """

let all = CommandLine.arguments.dropFirst()
let mode = all.first ?? "help"
let modes: [String: (flags: Set<String>, run: (Arguments) throws -> [RunReport])] = [
    "load": (LoadBench.flags, LoadBench.run),
    "idle": (IdleBench.flags, IdleBench.run),
    "startup": (StartupBench.flags, StartupBench.run),
    "codec": (CodecBench.flags, CodecBench.run),
]
if ["help", "--help", "-h"].contains(mode) {
    print(usage)
    exit(0)
}
guard let chosen = modes[mode] else {
    fail("unknown mode '\(mode)' (see scroll-bench --help)", code: 2)
}
do {
    let arguments: Arguments
    do {
        arguments = try Arguments(all.dropFirst(), allowed: chosen.flags)
    } catch {
        fail("\(error.description) (see scroll-bench --help)", code: 2)
    }
    let reports = try chosen.run(arguments)
    if arguments.flag("json") {
        ReportPrinter.printJSON(reports)
    } else {
        ReportPrinter.printTable(reports)
    }
} catch let error as UsageError {
    fail("\(error.description) (see scroll-bench --help)", code: 2)
} catch {
    fail("\(error)")
}

import Dispatch
import Foundation
import PlaygroundServer
import Synchronization
import SystemCalls

/// The page's folder when `--public` is not given: `./Public`, else the `Public` folder of the package
/// this executable was built in (it lives in `.build/<config>/`).
func locatePublic() -> String? {
    let fileManager = FileManager.default
    var candidates = [fileManager.currentDirectoryPath + "/Public"]
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<5 {
        candidates.append(directory.appendingPathComponent("Public").path)
        directory.deleteLastPathComponent()
    }
    return candidates.first { fileManager.fileExists(atPath: $0 + "/index.html") }
}

func fail(_ message: String) -> Never {
    StandardStreams.writeError("scroll-playground: \(message)\n")
    Syscall.exit(2)
}

// Before any file opens: a closed standard descriptor would otherwise be reused by the event log.
StandardStreams.reserveClosedDescriptors()

let command: PlaygroundCommand
do {
    command = try PlaygroundCommand.parse(Array(CommandLine.arguments.dropFirst()), locatePublic: locatePublic)
} catch {
    fail(error.description)
}

/// Serves until SIGINT, SIGTERM or SIGHUP (its terminal closed), then exits 0.
///
/// A free function, not top-level code: top-level code is main-actor isolated, and the signal handler
/// runs on a Dispatch queue.
func serve(_ options: PlaygroundOptions) -> Never {
    let server: PlaygroundServer
    do {
        server = try PlaygroundServer(options: options)
    } catch {
        fail("\(error)")
    }
    // Signals are watched on a queue rather than handled in C, so stopping can take its time on the
    // service thread: sessions close with 1001 and the logs are flushed before exit. A second signal
    // means "now": the process exits at once.
    var sources: [DispatchSourceSignal] = []
    let signalQueue = DispatchQueue(label: "signals")
    let stopping = Atomic<Bool>(false)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
        Syscall.ignore(signalNumber)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
        source.setEventHandler {
            if stopping.exchange(true, ordering: .relaxed) { Syscall.exitImmediately(128 + signalNumber) }
            server.stop()
        }
        source.resume()
        sources.append(source)
    }
    // A terminal or pipe that went away must not kill the server; writes to it just fail.
    Syscall.ignore(SIGPIPE)
    // A file-size limit (`ulimit -f`) refuses a write like a full disk does; it must not kill the server.
    Syscall.ignore(SIGXFSZ)
    if !["127.0.0.1", "localhost", "::1"].contains(options.host) {
        StandardStreams.writeError("warning: listening on \(options.host): the playground has no authentication\n")
    }
    // Written unbuffered: scripts and tests wait for this line to learn the address.
    // A failed write (stdout closed, its reader gone) loses the line and nothing else.
    StandardStreams.writeOutput("Scroll Playground on \(server.url)\n")
    server.run()
    withExtendedLifetime(sources) {}
    Syscall.exit(0)
}

switch command {
case .help(let text):
    print(text)
case .serve(let options):
    serve(options)
case .replay(let replay):
    do {
        let report = try replay.run()
        if !report.isEmpty { print(report) }
    } catch {
        fail(error.description)
    }
case .simulate(let simulate):
    do {
        print(try simulate.run())
    } catch {
        fail(error.description)
    }
case .check(let check):
    do {
        let outcome = try check.run()
        print(outcome.report)
    } catch {
        fail(error.description)
    }
}

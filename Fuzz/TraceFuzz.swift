#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer entry point over the trace reader and a fork's rebuild, compiled together with
/// every `.swift` under `Sources/ScrollCore` into one module by `Fuzz/fuzz.sh trace` (a second binary beside
/// `ScrollCoreFuzz.swift`'s decoder and reducer target). A fork's parent is whatever a client uploads, so every
/// input is read as a trace the way the server reads one:
/// 1. `Trace.parse` must answer (a trace or an error naming a line), never trap;
/// 2. every line it read writes back (`Trace.Line.json`) to a line that reads back the same;
/// 3. held to the server's limits (`Trace.Header.hold`), it is rebuilt at its first, middle and last moment:
///    the session never holds more than the cap or a repeated id, and the fork's trace (its header, the lines
///    up to the moment and their decisions) replays to exactly the decisions it records.
/// A violated property stops the process (libFuzzer saves the input).
@_cdecl("LLVMFuzzerTestOneInput")
public func traceFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    TraceFuzz.check(bytes)
    return 0
}

enum TraceFuzz {
    /// The limits the fuzzed forks are held to: smaller than the server's defaults, so runs stay fast.
    static let itemCap = 2_000
    static let maxMessageBytes = 64 * 1024
    /// Like `--max-fork-lines`: longer inputs are not read.
    static let maxLines = 2_000

    static func check(_ bytes: [UInt8]) {
        guard bytes.count(where: { $0 == 0x0A }) <= maxLines else { return }
        guard var trace = try? Trace.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        checkLinesReadBack(trace)
        trace.header.hold(toItemCap: itemCap, maxMessageBytes: maxMessageBytes)
        _ = Replay().run(trace)
        let times = trace.lines.map(\.t)
        guard let first = times.first, let last = times.last else { return }
        for moment in Set([first, times[times.count / 2], last]) {
            checkFork(of: trace, at: moment)
        }
    }

    static func checkLinesReadBack(_ trace: Trace) {
        let header = trace.header.json.jsonString
        for line in trace.lines {
            let text = header + "\n" + line.json.jsonString + "\n"
            guard let again = try? Trace.parse(text), again.lines == [line] else {
                fatalError("a line does not read back as written: \(line) → \(line.json.jsonString)")
            }
        }
    }

    static func checkFork(of parent: Trace, at moment: Int64) {
        let rebuilt = Replay.rebuild(parent, through: moment, id: "f1", resumeToken: "fuzz")
        let state = rebuilt.state
        guard state.window.items.count <= itemCap else {
            fatalError("a fork at \(moment) holds \(state.window.items.count) items, past the cap of \(itemCap)")
        }
        var ids = Set<String>()
        for item in state.window.items where !ids.insert(item.id).inserted { fatalError("duplicate item id \(item.id)") }
        guard state.lifecycle == .open else { return }
        // The fork's trace as the server writes it, read back and replayed.
        var header = parent.header
        header.session = "f1"
        header.fork = Trace.Fork(parent: "p.jsonl", parentSession: parent.header.session, at: moment)
        let text = ([header.json] + rebuilt.traceLines.map(\.json)).map(\.jsonString).joined(separator: "\n") + "\n"
        let fork: Trace
        do {
            fork = try Trace.parse(text)
        } catch {
            fatalError("a fork's trace does not read back: \(error)")
        }
        let recorded = fork.recordedDecisions.map(\.entry)
        let replayed = Replay().run(fork).map(\.entry)
        guard recorded == replayed else {
            fatalError("a fork's trace replays differently: recorded \(recorded), replayed \(replayed)")
        }
    }
}

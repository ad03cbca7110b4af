#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer entry point over a `tryHand` end to end, compiled with `Sources/ScrollRules`, `Sources/ScrollCore`
/// and `Sources/ScrollLab` into one module by `Fuzz/fuzz.sh hand`. An input is what a client sends: its first
/// line is the `tryHand` message (its `preset` and `settings`), the rest the trace uploaded before it. It runs
/// the server's own code path (`HandTrial.run`: the settings' check, the trace reader, the hand's extraction,
/// the simulation), under smaller limits than the server's so runs stay fast:
/// 1. it answers (a `handResult` or an error), never traps;
/// 2. a trial's items stay within its limit, and its simulated seconds within its own;
/// 3. a trial told to stop stops at the frame it is told, answering ``HandTrial/abandoned``.
/// A violated property stops the process (libFuzzer saves the input).
@_cdecl("LLVMFuzzerTestOneInput")
public func handTrialFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    HandTrialFuzz.check(bytes)
    return 0
}

enum HandTrialFuzz {
    static let limits = HandTrial.Limits(maxLines: 2_000, maxItems: 500, maxSeconds: 10)

    static func check(_ bytes: [UInt8]) {
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let request = Array(bytes[..<newline])
        let upload = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
        switch HandTrial.run(upload: upload, request: request, limits: limits) {
        case .success(let outcome):
            let items = outcome.answer["report"]?["items"]?.number ?? 0
            guard items <= Double(limits.maxItems) else { fatalError("a trial held \(items) items") }
            let seconds = outcome.answer["seconds"]?.number ?? 0
            guard seconds <= limits.maxSeconds else { fatalError("a trial ran \(seconds) simulated seconds") }
            // Stopped half-way, the same trial ends at that frame.
            let stopAt = Int64(seconds * 500)
            var last: Int64 = 0
            let stopped = HandTrial.run(upload: upload, request: request, limits: limits) { t in
                last = t
                return t >= stopAt && t > 0
            }
            guard case .failure(let error) = stopped, error == HandTrial.abandoned || stopAt == 0 else {
                if stopAt > 0 { fatalError("a trial told to stop at \(stopAt) ms answered") }
                return
            }
            guard stopAt == 0 || last - stopAt <= 100 else { fatalError("a trial ran on to \(last) ms") }
        case .failure:
            return
        }
    }
}

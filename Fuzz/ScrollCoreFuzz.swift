#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer entry point over ScrollCore, compiled together with every `.swift` under `Sources/ScrollCore`
/// into one module by `Fuzz/fuzz.sh` (outside SwiftPM, which cannot link a `-sanitize=fuzzer` target).
///
/// Every input is used twice:
/// 1. as one text frame for ``ClientMessage/decode(_:)``, checking that the geometry fast paths (the
///    fixed-shape reader and the any-order one) and the general path agree wherever a fast path answers;
/// 2. as a session script, one line per step, driven through ``SessionState/handle(_:now:maxMessageBytes:)``
///    on a virtual clock the way `SessionHost` drives it, checking the session's invariants after each step.
///
/// Script lines: a JSON message (decoded as the server would); `!N` advances the clock by N ms and fires
/// the timers due; `~N` drops the connection and resumes it with `lastRev` N (`~` alone: no lastRev);
/// `#` an oversized frame, `&` a binary frame, `%` geometry coalesced by the rate limit. A violated invariant
/// stops the process (libFuzzer saves the input).
@_cdecl("LLVMFuzzerTestOneInput")
public func scrollCoreFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzDecoder.check(bytes)
    FuzzNumbers.check(bytes)
    if !decoderOnly {
        var session = FuzzSession()
        session.run(bytes)
    }
    return 0
}

/// `SCROLL_FUZZ_DECODER_ONLY=1` skips the session scripts: many more frames a second for the decoder.
let decoderOnly = getenv("SCROLL_FUZZ_DECODER_ONLY").map { String(cString: $0) == "1" } ?? false

/// Decoder checks on one frame.
enum FuzzDecoder {
    static func check(_ bytes: [UInt8]) {
        let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(bytes) }
        // The fixed-shape reader, where it answers, answers as the general decoder (same value, bit for bit);
        // where it does not, the other readers decide.
        if let fixed = bytes.withUnsafeBufferPointer(JSONParser.parseFixedGeometryMessage) {
            let general = Result { () throws(ProtocolError) in try ClientMessage.decodeGenerally(bytes) }
            guard case .success(.geometry(let report)) = general, report == fixed, bits(report) == bits(fixed) else {
                fatalError("fixed-shape geometry reader reads \(fixed), the general decoder \(general)")
            }
            guard case .success(.geometry(fixed)) = decoded else {
                fatalError("decode disagrees with the fixed-shape geometry reader: \(decoded) vs \(fixed)")
            }
        }
        guard let fast = bytes.withUnsafeBufferPointer(JSONParser.parseGeometryMessage) else { return }
        guard case .success(.geometry(fast)) = decoded else {
            fatalError("decode disagrees with the geometry fast path: \(decoded) vs \(fast)")
        }
        // The fast path may only accept what the general path accepts, and must read it the same way.
        // An unknown member makes the fast path bail, so the re-encoded message takes the general path.
        guard case .object(var members)? = try? JSONParser.parse(bytes) else {
            fatalError("geometry fast path accepted a frame the JSON parser refuses")
        }
        members["fuzzUnknownMember"] = .null
        let general = Result { () throws(ProtocolError) in try ClientMessage.decode(JSONValue.object(members).jsonBytes) }
        guard case .success(.geometry(let report)) = general, report == fast else {
            fatalError("general path reads \(general), fast path \(fast)")
        }
    }
}

extension FuzzDecoder {
    /// Every double of a report bit for bit, so even the sign of zero must agree.
    static func bits(_ report: GeometryReport) -> [UInt64] {
        let g = report.geometry
        return [
            report.t, g.contentOffset.x, g.contentOffset.y, g.contentSize.width, g.contentSize.height,
            g.containerSize.width, g.containerSize.height, g.contentInsets.top, g.contentInsets.leading,
            g.contentInsets.bottom, g.contentInsets.trailing, report.anchor?.offset ?? 0,
        ].map(\.bitPattern)
    }
}

/// The direct `state` writer spells its numbers (a short decimal by its own digits, `Double.shortDecimal`) as
/// the general writer does (`Double.description`): checked for each eight bytes of the input read as a double,
/// and as a decimal (its first six bytes the units, the next the count of fraction digits).
enum FuzzNumbers {
    static func check(_ bytes: [UInt8]) {
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes[index..<index + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let units = Double(Int64(bitPattern: word >> 16) % 1_000_000_000_000_000)
            let scale = [1.0, 10, 100, 1_000, 10_000, 100_000][Int((word >> 8) & 0xFF) % 6]
            for value in [Double(bitPattern: word), units / scale, -units / scale] {
                let state = StateMessage(
                    ack: 1, preset: .refreshable, reachedBottom: false, pull: PullState(distance: value),
                    refreshing: false, loadingNextPage: false, hasMore: true, itemCount: 1,
                    indicator: IndicatorState(
                        topVisible: true, topHeight: value, topScale: value, topOpacity: value, bottomVisible: false))
                let message = ServerMessage.state(state)
                var general = JSONWriter()
                message.write(to: &general)
                guard message.encoded() == general.bytes else {
                    fatalError("the direct writer spells \(value) unlike description")
                }
            }
            index += 8
        }
    }
}

/// One session driven by a script, on a virtual clock.
struct FuzzSession {
    var state = SessionState(id: "s1", resumeToken: "fuzz", config: ScrollConfig(), source: .synthetic)
    var now: Int64 = 0
    /// Timers the core scheduled: due time, scheduling order (ties), id.
    var pending: [(due: Int64, order: Int, timer: TimerID)] = []
    var scheduled = 0
    /// The last items `rev` sent.
    var lastRev = 0

    /// Most timers a session can have at once: a page load, a refresh, the hold, the origin flush.
    static let maxPendingTimers = 4
    /// Messages per input, so one input cannot run for long.
    static let maxSteps = 400
    /// Timers fired once the script ends: what is in flight lands, and a recurring timer (a chat's new
    /// messages, which reschedule themselves forever) stops there.
    static let maxFinalTimers = 1000

    mutating func run(_ bytes: [UInt8]) {
        for line in bytes.split(separator: UInt8(ascii: "\n")).prefix(Self.maxSteps) {
            step(Array(line))
            checkInvariants()
        }
        fireDue(before: .max, most: Self.maxFinalTimers)
        checkInvariants()
    }

    mutating func step(_ line: [UInt8]) {
        switch line.first {
        case UInt8(ascii: "!"):
            now += Int64(Self.number(line.dropFirst()) ?? 0)
            fireDue(before: now)
        case UInt8(ascii: "~"):
            guard state.lifecycle == .open else { return }
            now += 16
            fireDue(before: now)
            apply(state.handle(.closed(code: nil, resumable: true), now: now, maxMessageBytes: 65_536), resuming: false)
            let hello = Hello(resume: "fuzz", lastRev: Self.number(line.dropFirst()))
            apply(state.handle(.message(.success(.hello(hello))), now: now, maxMessageBytes: 65_536), resuming: true)
        case UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "%"):
            guard state.lifecycle == .open else { return }
            let kind: InboundViolationKind =
                switch line.first {
                case UInt8(ascii: "#"): .tooLarge
                case UInt8(ascii: "&"): .binary
                default: .rateLimited
                }
            apply(state.handle(.violation(kind), now: now, maxMessageBytes: 65_536), resuming: false)
        default:
            now += 16
            fireDue(before: now)
            let decoded = Result { () throws(ProtocolError) in try ClientMessage.decode(line) }
            // Before hello the server answers everything but hello and ping itself (`not_ready`).
            if state.lifecycle != .open {
                guard case .success(.hello) = decoded else { return }
            }
            var resuming = false
            if case .success(.hello(let hello)) = decoded, hello.resume != nil, state.lifecycle == .open { resuming = true }
            apply(state.handle(.message(decoded), now: now, maxMessageBytes: 65_536), resuming: resuming)
        }
    }

    /// Fires every timer due at or before `t`, earliest first, as the server's loop would (at most `most`).
    mutating func fireDue(before t: Int64, most: Int = .max) {
        var fired = 0
        while fired < most, let next = pending.min(by: { ($0.due, $0.order) < ($1.due, $1.order) }), next.due <= t {
            fired += 1
            pending.removeAll { $0.timer == next.timer }
            let at = max(now, next.due)
            apply(state.reduce(.timerFired(next.timer), now: at), resuming: false)
        }
    }

    mutating func apply(_ effects: [SessionEffect], resuming: Bool) {
        for effect in effects {
            switch effect {
            case .send(let message):
                check(message, resuming: resuming)
            case .schedule(let timer, let delay):
                guard delay >= 0 else { fatalError("timer \(timer) scheduled \(delay) ms in the past") }
                pending.removeAll { $0.timer == timer }
                pending.append((now + Int64(delay), scheduled, timer))
                scheduled += 1
            case .cancel(let timer):
                pending.removeAll { $0.timer == timer }
            case .log(let entry):
                let record = EventRecord(seq: 1, time: "2026-01-01T00:00:00.000Z", session: state.id, entry: entry)
                Self.requireValidJSON(ServerMessage.event(record).encoded(), "event \(entry.name)")
            }
        }
    }

    mutating func check(_ message: ServerMessage, resuming: Bool) {
        let encoded = message.encoded()
        Self.requireValidJSON(encoded, "\(message)")
        // `encoded()` writes a `state` directly when it can: the bytes must be the general writer's.
        var general = JSONWriter()
        message.write(to: &general)
        guard encoded == general.bytes else {
            fatalError("encoded() and the general writer differ for \(message)")
        }
        switch message {
        case .items(let items):
            // A resume replays history (older revs); anything else moves rev on by exactly one.
            if !resuming, items.rev != lastRev + 1 {
                fatalError("items rev \(items.rev) after \(lastRev)")
            }
            lastRev = max(lastRev, items.rev)
        case .state(let sent):
            let numbers = [
                sent.pull.distance, sent.pull.progress, sent.indicator.topHeight, sent.indicator.topScale,
                sent.indicator.topOpacity, sent.origin?.x ?? 0, sent.origin?.y ?? 0,
            ]
            guard numbers.allSatisfy(\.isFinite) else { fatalError("non-finite number in state: \(sent)") }
            guard (0...1).contains(sent.pull.progress) else { fatalError("pull progress \(sent.pull.progress)") }
            guard sent.itemCount == state.window.items.count else {
                fatalError("state.itemCount \(sent.itemCount) but \(state.window.items.count) items")
            }
        default:
            break
        }
    }

    func checkInvariants() {
        var ids = Set<String>()
        for item in state.window.items where !ids.insert(item.id).inserted {
            fatalError("duplicate item id \(item.id)")
        }
        guard pending.count <= Self.maxPendingTimers else { fatalError("\(pending.count) timers pending: \(pending)") }
        guard !state.loadingNextPage || !state.controller.refresh.isInFlight
            || !state.config.rules.preset.behavior.cancelsLoadOnRefresh
        else {
            fatalError("\(state.config.rules.preset): a page load and a refresh in flight together")
        }
    }

    static func requireValidJSON(_ bytes: [UInt8], _ what: @autoclosure () -> String) {
        guard (try? JSONParser.parse(bytes)) != nil else {
            fatalError("invalid JSON written for \(what()): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}

/// The table `scroll-bench compare` prints: per session count, each server's CPU per message and its ratio
/// to the floor measured in the same run, latency, throughput and errors; then the targets of
/// BENCHMARKS.md as ratios. Pure: it formats figures it is given (medians over runs), so a test can check it.
struct ComparisonTable {
    /// The figures of one server at one session count (medians of its runs); nil: not measured.
    struct Cell: Equatable {
        var server: String
        /// Sessions; `pingPong` marks the floor's closed-loop pair.
        var sessions: Int
        var pingPong = false
        var runs = 1
        var cpuPerMessageUs: Double?
        var userPerMessageUs: Double?
        var kernelPerMessageUs: Double?
        var p50Ms: Double?
        var p99Ms: Double?
        var statesPerSecond: Double?
        var errors: Double?
        var unanswered: Double?
        var stealPercent: Double?
        var othersPercent: Double?
        /// Frames the bench did not send (driver over a frame late, or 120 unanswered): the load it offered
        /// fell short of sessions × rate.
        var notSent: Double?
        /// Error messages and early closes by code, summed over the runs (what "errors" counts).
        var errorCodes: [String: Int] = [:]
        /// Why it has no figures (the server did not start, …).
        var failure: String?
    }

    /// The names the table gives the floor and the server it judges.
    static let floor = "floor"
    static let subject = "scroll-playground"
    /// The Go peer the targets compare against.
    static let goPeer = "goref"
    /// "Saturation": the most states/s answered with p99 under this.
    static let saturationP99Ms = 10.0

    var rate: Double
    var cells: [Cell]

    /// The floor's closed-loop pair: messages one core-second of its server answers.
    var floorMessagesPerCoreSecond: Double? {
        cells.first { $0.server == Self.floor && $0.pingPong }?.cpuPerMessageUs.map { 1e6 / $0 }
    }

    func cell(_ server: String, sessions: Int) -> Cell? {
        cells.first { $0.server == server && $0.sessions == sessions && !$0.pingPong }
    }

    /// `server`'s CPU per message over `reference`'s at the same session count.
    func ratio(_ server: String, to reference: String, sessions: Int) -> Double? {
        guard let value = cell(server, sessions: sessions)?.cpuPerMessageUs,
            let base = cell(reference, sessions: sessions)?.cpuPerMessageUs, base > 0
        else { return nil }
        return value / base
    }

    /// One target: a ratio of CPU per message at a session count, met when at most `limit`.
    struct Target: Equatable {
        let label: String
        let ratio: Double?
        let limit: Double?
    }

    /// BENCHMARKS.md's targets, each from this table's cells.
    var targets: [Target] {
        let hz = decimal(rate, significant: 2)
        var targets = [
            Target(
                label: "\(Self.subject) CPU/message ≤ 1.2 × the floor's at 100 × \(hz) Hz",
                ratio: ratio(Self.subject, to: Self.floor, sessions: 100), limit: 1.2)
        ]
        for sessions in [100, 300] {
            targets.append(
                Target(
                    label: "\(Self.subject) CPU/message ≤ 0.7 × \(Self.goPeer)'s at \(sessions) × \(hz) Hz",
                    ratio: ratio(Self.subject, to: Self.goPeer, sessions: sessions), limit: 0.7))
        }
        let best = cells.filter {
            $0.server == Self.subject && !$0.pingPong && ($0.p99Ms ?? .infinity) < Self.saturationP99Ms
        }
        .compactMap(\.statesPerSecond).max()
        targets.append(
            Target(
                label:
                    "saturation: \(Self.subject)'s most states/s at p99 < \(Int(Self.saturationP99Ms)) ms among these "
                    + "counts ÷ the floor's messages per core-second (ping-pong); a lower bound",
                ratio: best.flatMap { states in floorMessagesPerCoreSecond.map { states / $0 } }, limit: nil))
        return targets
    }

    /// The table in Markdown, so it can be pasted into BENCHMARKS.md as it is.
    var lines: [String] {
        var lines = [
            "| sessions × Hz | server | CPU/message (user + kernel) | × floor | round trip p50 / p99 | states/s | errors | unanswered | steal | others |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for cell in cells {
            let shape = cell.pingPong ? "1, ping-pong" : "\(grouped(cell.sessions)) × \(decimal(rate, significant: 2))"
            if let failure = cell.failure {
                lines.append("| \(shape) | \(cell.server) | failed: \(failure) | | | | | | | |")
                continue
            }
            let floorBase =
                cell.pingPong ? cell.cpuPerMessageUs : self.cell(Self.floor, sessions: cell.sessions)?.cpuPerMessageUs
            let times = cell.cpuPerMessageUs.flatMap { value in floorBase.map { value / $0 } }
            let cpu =
                Self.micro(cell.cpuPerMessageUs) + " (" + Self.micro(cell.userPerMessageUs, unit: false) + " + "
                + Self.micro(cell.kernelPerMessageUs, unit: false) + ")"
            let columns: [String] = [
                shape, cell.server, cpu, Self.times(times), Self.milli(cell.p50Ms) + " / " + Self.milli(cell.p99Ms),
                Self.count(cell.statesPerSecond), Self.count(cell.errors), Self.count(cell.unanswered),
                Self.percent(cell.stealPercent), Self.percent(cell.othersPercent),
            ]
            lines.append("| " + columns.joined(separator: " | ") + " |")
        }
        let explained = cells.filter { !$0.errorCodes.isEmpty }.map { cell in
            let codes = cell.errorCodes.sorted { $0.key < $1.key }.map { "\($0.key) × \(grouped($0.value))" }
            return "\(cell.server) at \(grouped(cell.sessions)): " + codes.joined(separator: ", ")
        }
        if !explained.isEmpty {
            lines += ["", "Errors (all rounds): " + explained.joined(separator: "; ") + "."]
        }
        let short = cells.filter { ($0.notSent ?? 0) >= 0.5 }.map { cell in
            "\(cell.server) at \(grouped(cell.sessions)): \(Self.count(cell.notSent))"
        }
        if !short.isEmpty {
            lines += [
                "",
                "Frames not sent (the bench's driver over a frame late, or 120 unanswered; median of the rounds): "
                    + short.joined(separator: "; ") + ".",
            ]
        }
        lines += ["", "| target | measured | |", "|---|---|---|"]
        for target in targets {
            let measured = target.ratio == nil ? "not measured" : Self.times(target.ratio)
            let verdict: String
            if let ratio = target.ratio, let limit = target.limit {
                verdict = ratio <= limit ? "met" : "missed"
            } else {
                verdict = ""
            }
            lines.append("| \(target.label) | \(measured) | \(verdict) |")
        }
        if let perCore = floorMessagesPerCoreSecond {
            lines.append("")
            lines.append(
                "The floor's ping-pong pair: \(grouped(Int(perCore.rounded()))) messages per core-second of its server."
            )
        }
        return lines
    }

    private static func times(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        return decimal(value, significant: 3) + "×"
    }

    private static func count(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        return grouped(Int(value.rounded()))
    }

    private static func percent(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        return decimal(value, significant: 2) + " %"
    }

    private static func micro(_ value: Double?, unit: Bool = true) -> String {
        guard let value, value.isFinite else { return "—" }
        return decimal(value, significant: 3) + (unit ? " µs" : "")
    }

    private static func milli(_ value: Double?) -> String {
        guard let value else { return "—" }
        guard value.isFinite else { return "> 3 s" }
        return decimal(value, significant: 3) + " ms"
    }
}

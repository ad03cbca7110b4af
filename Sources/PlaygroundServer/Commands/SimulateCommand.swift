import CommandLineOptions
import Dispatch
import Foundation
import ScrollCore
import ScrollLab

/// `scroll-playground simulate`: a simulated user on a simulated page, once or over a sweep of settings.
public struct SimulateCommand: Sendable {
    public var simulation = Simulation()
    public var axes: [SweepAxis] = []
    public var runs = 1
    public var format = LabOutputFormat.text
    public var plot: String?
    public var metric = "stallP95Ms"
    /// Threads for a sweep; nil uses every core.
    public var threads: Int?
    public var timing = false
    /// `--shard K/N`: run one slice of the sweep and print it as a shard file.
    public var shard: (k: Int, n: Int)?
    /// `simulate merge FILES…`: join shard files instead of running.
    public var mergeFiles: [String]?

    public init() {}

    /// The hand of the trace at `path` on its own recording's page and settings.
    static func simulation(handOf path: String, maxTraceBytes: Int) throws(UsageError) -> Simulation {
        let data = try TraceInput.read(path, maxBytes: maxTraceBytes, command: "simulate: --gesture")
        do {
            var hand = try RecordedHand(trace: Trace.parse(bytes: data))
            hand.name = URL(fileURLWithPath: path).lastPathComponent
            return Simulation(hand: hand)
        } catch let error as TraceError {
            throw UsageError("simulate: --gesture trace:\(path): \(error)")
        } catch {
            throw UsageError("simulate: --gesture trace:\(path): \(error)")
        }
    }

    /// A simulation key's value as `--help` shows it.
    func value(of key: String) -> String? {
        switch key {
        case "gesture": simulation.gesture.rawValue
        case "seconds": LabFormat.number(simulation.seconds)
        case "preset": simulation.config.rules.preset.rawValue
        case "seed": String(simulation.config.seed)
        default: nil
        }
    }

    /// Runs it and renders the report; a plot goes to its file.
    public func run() throws(UsageError) -> String {
        if let mergeFiles { return try merge(mergeFiles) }
        let started = DispatchTime.now()
        let output: String
        let workers = threads ?? ProcessInfo.processInfo.activeProcessorCount
        var points = 1
        if axes.isEmpty {
            guard plot == nil else { throw UsageError("simulate: --plot needs --sweep") }
            var reports = (0..<runs).map { run -> SimulationReport in
                var simulation = simulation
                simulation.config.seed &+= UInt64(run)
                return simulation.run()
            }
            if runs > 1 {
                // Several runs of one point: the same table as a sweep over nothing.
                let row = SweepResult.Row(values: [], runs: reports)
                reports = []
                output = render(SweepResult(keys: [], rows: [row]))
            } else {
                output = render(reports[0])
            }
        } else {
            let sweep: Sweep
            do {
                sweep = try Sweep(base: simulation, axes: axes, runs: runs)
            } catch {
                throw UsageError("simulate: \(error)")
            }
            points = sweep.points.count
            if let shard {
                let slice = sweep.run(shard: shard.k, of: shard.n, threads: workers)
                points = slice.rows.count
                output = slice.json.jsonString
            } else {
                let result = sweep.run(threads: workers)
                try drawPlot(result)
                output = render(result)
            }
        }
        if timing {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            StandardError.writeLine(
                "simulate: \(points) point(s) × \(runs) run(s) of \(LabFormat.number(simulation.seconds)) s at "
                    + "\(LabFormat.number(simulation.hz)) Hz in \(LabFormat.number((elapsed * 10).rounded() / 10)) ms "
                    + "on \(axes.isEmpty ? 1 : workers) thread(s)")
        }
        return output
    }

    /// Joins shard files into the table, JSON or CSV (and plot) of one run of the whole sweep.
    private func merge(_ files: [String]) throws(UsageError) -> String {
        var shards: [SweepShard] = []
        for file in files {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw UsageError("simulate merge: cannot read \(file): \(error.localizedDescription)")
            }
            do {
                shards.append(try SweepShard(parsing: try JSONParser.parse(text)))
            } catch let error as LabError {
                throw UsageError("simulate merge: \(file): \(error)")
            } catch {
                throw UsageError("simulate merge: \(file): not JSON: \(error)")
            }
        }
        let result: SweepResult
        do {
            result = try SweepShard.merge(shards)
        } catch {
            throw UsageError("simulate \(error)")
        }
        try drawPlot(result)
        return render(result)
    }

    private func drawPlot(_ result: SweepResult) throws(UsageError) {
        guard let plot else { return }
        do {
            let svg = try SweepPlot(result: result, metric: metric).svg()
            try Data(svg.utf8).write(to: URL(fileURLWithPath: plot))
        } catch let error as LabError {
            throw UsageError("simulate: \(error)")
        } catch {
            throw UsageError("simulate: cannot write \(plot): \(error.localizedDescription)")
        }
    }

    private func render(_ report: SimulationReport) -> String {
        switch format {
        case .text: report.text()
        case .json: report.json().jsonString
        case .csv: report.csv()
        }
    }

    private func render(_ result: SweepResult) -> String {
        switch format {
        case .text: result.table()
        case .json: result.json().jsonString
        case .csv: result.csv()
        }
    }
}

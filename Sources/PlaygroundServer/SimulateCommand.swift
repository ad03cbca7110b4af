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

    public init() {}

    /// A simulation key's value as `--help` shows it.
    func value(of key: String) -> String? {
        switch key {
        case "gesture": simulation.gesture.rawValue
        case "seconds": LabFormat.number(simulation.seconds)
        case "preset": simulation.config.preset.rawValue
        case "seed": String(simulation.config.seed)
        default: nil
        }
    }

    /// Runs it and renders the report; a plot goes to its file.
    public func run() throws(UsageError) -> String {
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
            let result = sweep.run(threads: workers)
            if let plot {
                do {
                    let svg = try SweepPlot(result: result, metric: metric).svg()
                    try Data(svg.utf8).write(to: URL(fileURLWithPath: plot))
                } catch let error as LabError {
                    throw UsageError("simulate: \(error)")
                } catch {
                    throw UsageError("simulate: cannot write \(plot): \(error.localizedDescription)")
                }
            }
            output = render(result)
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

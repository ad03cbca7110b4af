import ScrollCore

/// Draws one metric of a sweep as a self-contained SVG: a heat map over two keys, a line over one.
public struct SweepPlot: Sendable {
    public var result: SweepResult
    /// The metric drawn (a ``SimulationReport/metrics`` name).
    public var metric: String

    public init(result: SweepResult, metric: String) throws(LabError) {
        guard result.keys.count == 1 || result.keys.count == 2 else {
            throw .plotNeedsOneOrTwoKeys(result.keys.count)
        }
        let names = SimulationReport().metrics.map(\.name)
        guard names.contains(metric) else { throw .unknownKey(metric, accepted: names) }
        self.result = result
        self.metric = metric
    }

    /// The SVG document.
    public func svg() -> String {
        result.keys.count == 2 ? heatMap() : lines()
    }

    private var values: [Double] { result.rows.map { $0.metric(metric) ?? 0 } }

    private func heatMap() -> String {
        let columns = unique(0)
        let rows = unique(1)
        let cell = (width: 64.0, height: 28.0)
        let left = 110.0
        let top = 60.0
        let width = left + Double(columns.count) * cell.width + 120
        let height = top + Double(rows.count) * cell.height + 60
        let high = max(values.max() ?? 0, 1)
        var body = header(width: width, height: height)
        body += text(
            left, 28, "\(metric) by \(result.keys[0]) (across) and \(result.keys[1]) (down)", size: 15, anchor: "start")
        let keys = result.keys
        for (value, point) in zip(values, result.rows) {
            guard let x = columns.firstIndex(of: point.values[0]), let y = rows.firstIndex(of: point.values[1]) else {
                continue
            }
            let originX = left + Double(x) * cell.width
            let originY = top + Double(y) * cell.height
            body +=
                "<rect x=\"\(f(originX))\" y=\"\(f(originY))\" width=\"\(f(cell.width))\" height=\"\(f(cell.height))\" fill=\"\(color(value / high))\" stroke=\"#fff\"><title>\(keys[0])=\(point.values[0]) \(keys[1])=\(point.values[1]): \(LabFormat.number(value))</title></rect>\n"
            body += text(
                originX + cell.width / 2, originY + cell.height / 2 + 4, LabFormat.number(value.rounded()), size: 11)
        }
        for (index, value) in columns.enumerated() {
            body += text(left + (Double(index) + 0.5) * cell.width, top - 8, value, size: 11)
        }
        for (index, value) in rows.enumerated() {
            body += text(left - 8, top + (Double(index) + 0.5) * cell.height + 4, value, size: 11, anchor: "end")
        }
        body += text(left + Double(columns.count) * cell.width / 2, height - 20, result.keys[0], size: 13)
        body += text(20, top - 8, result.keys[1], size: 13, anchor: "start")
        body += legend(x: left + Double(columns.count) * cell.width + 24, y: top, high: high)
        return body + "</svg>\n"
    }

    private func lines() -> String {
        let width = 640.0
        let height = 400.0
        let plot = (left: 80.0, top: 50.0, right: width - 30, bottom: height - 60)
        let xs = result.rows.map { Double($0.values[0]) }
        let numeric = xs.allSatisfy { $0 != nil }
        let positions: [Double] = numeric ? xs.map { $0! } : result.rows.indices.map(Double.init)
        let low = positions.min() ?? 0
        let span = max((positions.max() ?? 1) - low, 1e-9)
        let high = max(values.max() ?? 0, 1)
        func x(_ value: Double) -> Double { plot.left + (value - low) / span * (plot.right - plot.left) }
        func y(_ value: Double) -> Double { plot.bottom - value / high * (plot.bottom - plot.top) }
        var body = header(width: width, height: height)
        body += text(plot.left, 28, "\(metric) by \(result.keys[0])", size: 15, anchor: "start")
        body +=
            "<path d=\"M\(f(plot.left)) \(f(plot.top))V\(f(plot.bottom))H\(f(plot.right))\" fill=\"none\" stroke=\"#444\"/>\n"
        for fraction in [0.0, 0.5, 1.0] {
            body += text(
                plot.left - 8, y(high * fraction) + 4, LabFormat.number((high * fraction).rounded()), size: 11,
                anchor: "end")
        }
        let points = zip(positions, values).map { "\(f(x($0))),\(f(y($1)))" }
        body +=
            "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n"
        for (index, (position, value)) in zip(positions, values).enumerated() {
            body +=
                "<circle cx=\"\(f(x(position)))\" cy=\"\(f(y(value)))\" r=\"3\" fill=\"#c0392b\"><title>\(result.keys[0])=\(result.rows[index].values[0]): \(LabFormat.number(value))</title></circle>\n"
            body += text(x(position), plot.bottom + 18, result.rows[index].values[0], size: 11)
        }
        body += text((plot.left + plot.right) / 2, height - 16, result.keys[0], size: 13)
        return body + "</svg>\n"
    }

    private func unique(_ key: Int) -> [String] {
        var seen: [String] = []
        for row in result.rows where !seen.contains(row.values[key]) { seen.append(row.values[key]) }
        return seen
    }

    private func header(width: Double, height: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" font-family=\"sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    }

    private func legend(x: Double, y: Double, high: Double) -> String {
        var body = ""
        let steps = 10
        for step in 0..<steps {
            let fraction = 1 - Double(step) / Double(steps - 1)
            body +=
                "<rect x=\"\(f(x))\" y=\"\(f(y + Double(step) * 14))\" width=\"18\" height=\"14\" fill=\"\(color(fraction))\"/>\n"
        }
        body += text(x + 24, y + 10, LabFormat.number(high.rounded()), size: 11, anchor: "start")
        body += text(x + 24, y + Double(steps) * 14, "0", size: 11, anchor: "start")
        return body
    }

    /// Green (0) through yellow to red (the highest value).
    private func color(_ fraction: Double) -> String {
        let t = min(max(fraction, 0), 1)
        let red = t < 0.5 ? Int(46 + t * 2 * (241 - 46)) : Int(241 - (t - 0.5) * 2 * (241 - 192))
        let green = t < 0.5 ? Int(204 + t * 2 * (196 - 204)) : Int(196 - (t - 0.5) * 2 * (196 - 57))
        let blue = t < 0.5 ? Int(113 + t * 2 * (15 - 113)) : Int(15 + (t - 0.5) * 2 * (43 - 15))
        return "rgb(\(red),\(green),\(blue))"
    }

    private func text(_ x: Double, _ y: Double, _ content: String, size: Int, anchor: String = "middle") -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\">\(escape(content))</text>\n"
    }

    private func escape(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    private func f(_ value: Double) -> String { LabFormat.number((value * 10).rounded() / 10) }
}

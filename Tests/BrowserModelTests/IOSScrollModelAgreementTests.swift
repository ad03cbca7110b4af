import Foundation
import Testing

@testable import ScrollCore

/// Debian's chromium, as the browser tests use it.
private let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"

/// The page's model (Public/js/ios-scroll.js, run in Debian's chromium) and the lab's (IOSScrollModel)
/// on the same inputs: the same trajectory within 0.01 pt every frame.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: chromium), "needs chromium (make browser-deps)"))
struct IOSScrollModelAgreementTests {

    /// One input to both models.
    enum Step {
        case down
        case drag(Double)
        case release(Double)
        case advance(Double)
        case bounds(Double, Double)
        case jump(Double)

        var json: String {
            switch self {
            case .down: #"["down"]"#
            case .drag(let delta): #"["drag",\#(delta)]"#
            case .release(let velocity): #"["release",\#(velocity)]"#
            case .advance(let ms): #"["advance",\#(ms)]"#
            case .bounds(let maxOffset, let dimension): #"["bounds",\#(maxOffset),\#(dimension)]"#
            case .jump(let position): #"["jump",\#(position)]"#
            }
        }
    }

    /// Scenarios that reach every branch: momentum, the edge crossing, both springs, catching a bounce, content
    /// that grows under a bounce, the fast rate.
    static let scenarios: [(rate: Double, start: Double, steps: [Step])] = {
        let frame = 1000.0 / 60
        func frames(_ count: Int) -> [Step] { Array(repeating: .advance(frame), count: count) }
        return [
            (
                0.998, 1000,
                [.bounds(10_000, 844), .down] + Array(repeating: .drag(33), count: 5) + [.release(2000)] + frames(240)
            ),
            (0.998, 2600, [.bounds(3000, 844), .release(4000)] + frames(120)),
            (
                0.998, 0,
                [.bounds(3000, 844), .down] + Array(repeating: .drag(-20), count: 10) + [.release(0)] + frames(20) + [
                    .down, .drag(-15), .release(-300),
                ] + frames(80)
            ),
            (0.99, 600, [.bounds(3000, 844), .release(-6000)] + frames(100)),
            (0.998, 2900, [.bounds(3000, 844), .release(3000)] + frames(5) + [.bounds(5000, 844)] + frames(120)),
            (0.998, 3000, [.bounds(3000, 700), .drag(150), .release(-800)] + frames(90) + [.jump(0)] + frames(2)),
        ]
    }()

    /// The Swift model's position after every step.
    static func swiftTrajectory(rate: Double, start: Double, steps: [Step]) -> [Double] {
        var model = IOSScrollModel(position: start, decelerationRate: rate)
        var bounds = IOSScrollModel.Bounds(maxOffset: 0, dimension: 844)
        return steps.map { step in
            switch step {
            case .down: model.touchDown(bounds: bounds)
            case .drag(let delta): model.drag(by: delta, bounds: bounds)
            case .release(let velocity): model.release(velocity: velocity, bounds: bounds)
            case .advance(let ms): model.advance(ms: ms, bounds: bounds)
            case .bounds(let maxOffset, let dimension):
                bounds = IOSScrollModel.Bounds(maxOffset: maxOffset, dimension: dimension)
                model.boundsChanged(bounds)
            case .jump(let position): model.jump(to: position)
            }
            return model.position
        }
    }

    /// The JS model's trajectories, from a page chromium loads and dumps.
    static func javaScriptTrajectories() throws -> [[Double]] {
        let module = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Public/js/ios-scroll.js"
        ).standardized
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ios-scroll-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input =
            "["
            + scenarios.map { scenario in
                #"{"rate":\#(scenario.rate),"start":\#(scenario.start),"steps":[\#(scenario.steps.map(\.json).joined(separator: ","))]}"#
            }.joined(separator: ",") + "]"
        let page = """
            <!doctype html><body><script type="module">
            import { IOSScrollModel, bounds } from "\(module.absoluteString)";
            const out = [];
            for (const scenario of \(input)) {
              const model = new IOSScrollModel(scenario.start, scenario.rate);
              let b = bounds(0, 844);
              out.push(scenario.steps.map(([op, a, c]) => {
                if (op === "down") model.touchDown(b);
                else if (op === "drag") model.drag(a, b);
                else if (op === "release") model.release(a, b);
                else if (op === "advance") model.advance(a, b);
                else if (op === "bounds") { b = bounds(a, c); model.boundsChanged(b); }
                else if (op === "jump") model.jump(a);
                return model.position;
              }));
            }
            document.body.textContent = "RESULT" + JSON.stringify(out) + "END";
            </script></body>
            """
        let file = directory.appendingPathComponent("agreement.html")
        try Data(page.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
            "--user-data-dir=\(directory.path)/profile", "--virtual-time-budget=10000", "--dump-dom",
            file.absoluteString,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let start = text.range(of: "RESULT"),
            let end = text.range(of: "END", range: start.upperBound..<text.endIndex)
        else {
            throw AgreementError(description: "chromium printed no result: \(text.prefix(400))")
        }
        let json = try JSONSerialization.jsonObject(with: Data(text[start.upperBound..<end.lowerBound].utf8))
        guard let trajectories = json as? [[Double]] else { throw AgreementError(description: "not [[number]]") }
        return trajectories
    }

    struct AgreementError: Error, CustomStringConvertible {
        var description: String
    }

    @Test func theJavaScriptModelFollowsTheSwiftModelWithin0_01PointAFrame() throws {
        let javaScript = try Self.javaScriptTrajectories()
        #expect(javaScript.count == Self.scenarios.count)
        for (index, scenario) in Self.scenarios.enumerated() where index < javaScript.count {
            let swift = Self.swiftTrajectory(rate: scenario.rate, start: scenario.start, steps: scenario.steps)
            #expect(javaScript[index].count == swift.count)
            let worst = zip(swift, javaScript[index]).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 0.01, "scenario \(index): worst difference \(worst) pt")
            // The scenario moved: an idle model would agree trivially.
            #expect(Set(swift.map { Int($0) }).count > 10, "scenario \(index) barely moves")
        }
    }
}

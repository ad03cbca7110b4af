import Foundation
import Testing

/// What an app can call is written down in `api/ScrollRules.txt` and `api/ScrollRulesUI.txt`, one line per
/// public symbol (its path and declaration) and per conformance, from `swift-symbolgraph-extract` run on the
/// built modules. The test fails when the API changed and the file did not, so a change to what an app sees
/// is always deliberate: run it with `SCROLL_RULES_UPDATE_API=1` to rewrite the files, and review the diff.
/// (On Linux `ScrollRulesUI`'s SwiftUI modifiers are not compiled, so its file lists the rest.)
struct APIFileTests {
    static let modules = repositoryRoot.appendingPathComponent(".build/debug/Modules")

    static var extractor: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swift-symbolgraph-extract" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var canRun: Bool {
        extractor != nil
            && FileManager.default.fileExists(atPath: modules.appendingPathComponent("ScrollRules.swiftmodule").path)
    }

    /// The public API of `module`, one sorted line per symbol and per conformance.
    static func api(_ module: String) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(module)-\(getpid())")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(extractor))
        process.arguments = [
            "-module-name", module, "-I", modules.path, "-target", "x86_64-unknown-linux-gnu",
            "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", output.path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let data = try Data(contentsOf: output.appendingPathComponent("\(module).symbols.json"))
        let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let symbols = graph["symbols"] as? [[String: Any]] ?? []
        var paths: [String: String] = [:]
        var lines: [String] = []
        for symbol in symbols {
            guard let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                !identifier.contains("::SYNTHESIZED::")
            else { continue }
            let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
            let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            paths[identifier] = path
            lines.append("\(path): \(declaration)")
        }
        for relationship in graph["relationships"] as? [[String: Any]] ?? [] {
            guard relationship["kind"] as? String == "conformsTo",
                let source = relationship["source"] as? String, let path = paths[source]
            else { continue }
            let target = relationship["targetFallback"] as? String ?? relationship["target"] as? String ?? "?"
            lines.append("\(path): conforms to \(target)")
        }
        return lines.sorted().joined(separator: "\n") + "\n"
    }

    @Test(.enabled(if: canRun), arguments: ["ScrollRules", "ScrollRulesUI"])
    func theAPIFileIsTheAPI(module: String) throws {
        let file = repositoryRoot.appendingPathComponent("api/\(module).txt")
        let now = try Self.api(module)
        if ProcessInfo.processInfo.environment["SCROLL_RULES_UPDATE_API"] != nil {
            try now.write(to: file, atomically: true, encoding: .utf8)
        }
        let written = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let old = Set(written.split(separator: "\n").map(String.init))
        let new = Set(now.split(separator: "\n").map(String.init))
        #expect(
            written == now,
            """
            api/\(module).txt is not the API (run the test with SCROLL_RULES_UPDATE_API=1 and review the diff):
            added: \(new.subtracting(old).sorted().prefix(20))
            removed: \(old.subtracting(new).sorted().prefix(20))
            """)
    }
}

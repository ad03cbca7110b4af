import Foundation
import ScrollRules
import Testing

/// What docs/swiftui.md promises of the library an app links: pure Swift, every public symbol documented.
struct PublicAPITests {
    static func sources(_ target: String) throws -> [(name: String, lines: [Substring])] {
        let folder = repositoryRoot.appendingPathComponent("Sources/\(target)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { name in
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                return (name, text.split(separator: "\n", omittingEmptySubsequences: false))
            }
    }

    @Test func scrollRulesImportsNothing() throws {
        for file in try Self.sources("ScrollRules") {
            let imports = file.lines.filter { $0.hasPrefix("import ") || $0.contains("@_exported import") }
            #expect(imports.isEmpty, "\(file.name): \(imports)")
        }
    }

    @Test(arguments: ["ScrollRules", "ScrollRulesUI"])
    func everyPublicSymbolHasADocComment(target: String) throws {
        var undocumented: [String] = []
        for file in try Self.sources(target) {
            for (index, line) in file.lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard code.hasPrefix("public ") || code.hasPrefix("nonisolated public ") else { continue }
                // The comment may stand above attributes (`@available`, `@MainActor`).
                var above = index - 1
                while above >= 0, file.lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
                if above < 0 || !file.lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    undocumented.append("\(file.name):\(index + 1): \(code)")
                }
            }
        }
        #expect(undocumented.isEmpty, "\(undocumented.joined(separator: "\n"))")
    }

    @Test func theVersionIsTheChangelogsNewestAndTheDocsDependOnIt() throws {
        let changelog = try String(contentsOf: repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        #expect(newest == ScrollRulesVersion.current)
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/swiftui.md"), encoding: .utf8)
        #expect(doc.contains("from: \"\(ScrollRulesVersion.current)\")"))
        #expect(!doc.contains("branch: \"main\""))
    }
}

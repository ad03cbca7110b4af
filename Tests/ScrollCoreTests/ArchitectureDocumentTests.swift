import Foundation
import Testing

/// docs/architecture.md is the page a newcomer reads first: a file it names that was moved or removed, or a
/// target added to Package.swift and left out, would send them the wrong way.
struct ArchitectureDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let document = read("docs/architecture.md")

    /// The text of every `` `code` `` span.
    static var codeSpans: [String] {
        document.matches(of: /`([^`\n]+)`/).map { String($0.output.1) }
    }

    /// The spans that name a file or folder of the repository: those under a top-level folder, and any
    /// name with a file extension (so a bare `Name.swift` cannot slip past unchecked).
    static var namedPaths: [String] {
        let folders = ["Sources/", "Tests/", "Public/", "docs/", "Examples/"]
        let extensions = [".swift", ".js", ".md", ".html", ".css", ".py", ".jsonl"]
        return codeSpans.filter { span in
            folders.contains { span.hasPrefix($0) } || extensions.contains { span.hasSuffix($0) }
        }
    }

    @Test func theDocumentExistsAndIsOnePage() {
        #expect(Self.document.hasPrefix("# Architecture"))
        #expect(Self.document.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
    }

    @Test func everyFileItNamesExists() {
        let paths = Self.namedPaths
        #expect(paths.count > 40, "the document names its files as code: \(paths.count) found")
        // `Public/js/NAME.js` is the pattern a new module follows, not a file.
        let missing = paths.filter { path in
            !path.contains("NAME")
                && !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path)
        }
        #expect(missing == [])
        // Named by their path from the repository's root, so each can be checked.
        #expect(paths.filter { !$0.contains("/") && $0 != "Package.swift" } == [])
    }

    @Test func everyTargetOfThePackageIsNamed() {
        let manifest = Self.read("Package.swift")
        let targets = manifest.matches(
            of: /\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/
        )
        .map { String($0.output.1) }
        #expect(targets.count >= 17, "targets read from Package.swift: \(targets)")
        let spans = Set(Self.codeSpans)
        #expect(targets.filter { !spans.contains($0) } == [])
    }

    @Test func theREADMELinksIt() {
        #expect(Self.read("README.md").contains("(docs/architecture.md)"))
    }
}

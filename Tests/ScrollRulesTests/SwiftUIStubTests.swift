import Foundation
import PlaygroundServer
import ScrollRules
import Testing

/// ScrollRulesUI cannot be built on Linux: SwiftUI does not exist here. These tests type-check it (and
/// the Swift that `export` prints, for every preset) against SwiftUIStub/SwiftUI.swift, a module that
/// declares exactly the SwiftUI API it uses with the signatures of Apple's documentation. A typo or a
/// wrong signature fails here; the real SDK is not built against.
@Suite(.serialized, .disabled(if: SanitizerRun.isActive, SanitizerRun.onlyTheToolchain))
struct SwiftUIStubTests {
    static let root = DifferentialTests.root
    /// Under `.build`, made afresh by each run (a run's modules and files are left for a look afterwards).
    static let folder = root.appendingPathComponent(".build/swiftui-stub")

    /// The stub, ScrollRules and ScrollRulesUI as modules in `folder`, emitted once.
    static let modules: Result<URL, Failure> = {
        do {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try emitModule(
                "SwiftUI", [root.appendingPathComponent("Tests/ScrollRulesTests/SwiftUIStub/SwiftUI.swift")])
            try emitModule("ScrollRules", sources("Sources/ScrollRules"))
            try emitModule("ScrollRulesUI", sources("Sources/ScrollRulesUI"))
            return .success(folder)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(output: "\(error)"))
        }
    }()

    struct Failure: Error, CustomStringConvertible {
        var output: String
        var description: String { output }
    }

    static func sources(_ path: String) throws -> [URL] {
        let directory = root.appendingPathComponent(path)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { directory.appendingPathComponent($0) }
    }

    static func emitModule(_ name: String, _ files: [URL]) throws {
        let result = try ConsumerPackageTests.run(
            niced(
                [
                    "swiftc", "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", name,
                    "-I", folder.path, "-emit-module-path", folder.appendingPathComponent("\(name).swiftmodule").path,
                ] + files.map(\.path)), in: folder)
        guard result.status == 0 else { throw Failure(output: "\(name): \(result.output)") }
    }

    /// Type-checks `source` as one file of an app that imports the stub, ScrollRules and ScrollRulesUI.
    static func typeCheck(_ source: String, name: String) async throws -> (status: Int32, output: String) {
        try await onOwnThread {
            let modules = try modules.get()
            let file = modules.appendingPathComponent("\(name).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            return try ConsumerPackageTests.run(
                niced([
                    "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-I", modules.path, file.path,
                ]),
                in: modules)
        }
    }

    @Test func scrollRulesUITypeChecksAgainstTheStub() async throws {
        // Emitting ScrollRulesUI's module type-checked it; a view that uses the modifier checks its surface.
        let result = try await Self.typeCheck(
            """
            import SwiftUI
            import ScrollRules
            import ScrollRulesUI

            struct Feed<Content: View>: View {
                let content: Content
                let indicator: Binding<IndicatorState>
                var body: some View {
                    content.scrollRules(
                        FeedSettings(preset: .chat), indicator: indicator, hasPrevious: true,
                        loadMore: { true }, loadPrevious: { false }, refresh: { 5 }, onAction: { print($0) })
                }
            }

            struct Recorded<Content: View>: View {
                let content: Content
                let recorder: Binding<TraceRecorder>
                var body: some View {
                    content.recordScroll(into: recorder, send: { message in print(message) })
                }
            }

            func converted(_ geometry: SwiftUI.ScrollGeometry, _ phase: SwiftUI.ScrollPhase) -> (FeedGeometry, FeedScrollPhase) {
                (FeedGeometry(geometry), FeedScrollPhase(phase))
            }
            """, name: "Uses")
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aWrongSignatureFails() async throws {
        // SwiftUI's action takes the old and the new value: a one-argument closure is refused.
        let result = try await Self.typeCheck(
            """
            import SwiftUI

            func observe<Content: View>(_ content: Content) -> some View {
                content.onScrollGeometryChange(for: Double.self, of: { $0.contentOffset.y }) { new in print(new) }
            }
            """, name: "Wrong")
        #expect(result.status != 0)
        #expect(result.output.contains("expects 2 arguments"), "\(result.output)")
    }

    @Test(arguments: Preset.allCases)
    func theExportedSnippetTypeChecks(preset: Preset) async throws {
        var arguments = [
            "export", "--preset", preset.rawValue, "--set", "bottomThreshold=1500", "--set", "retryPolicy=none",
        ]
        if preset.detectsPull { arguments += ["--set", "pullThreshold=90"] }
        guard case .help(let snippet) = try PlaygroundCommand.parse(arguments, locatePublic: { nil }) else {
            Issue.record("export did not print")
            return
        }
        // The call the snippet shows for your view, applied to a view, with a model that has the two methods.
        let call = try #require(snippet.split(separator: "\n").last { $0.contains(".scrollRules(") })
            .trimmingCharacters(in: .whitespaces).dropFirst(2).trimmingCharacters(in: .whitespaces)
        let source = """
            import SwiftUI
            \(snippet)

            struct Model {
                func loadMore() async throws -> Bool { true }
                func refresh() async throws -> Int { 0 }
            }

            func view<Content: View>(_ content: Content, model: Model) -> some View {
                content\(call)
            }
            """
        let result = try await Self.typeCheck(source, name: "Snippet_\(preset.rawValue)")
        #expect(result.status == 0, "\(source)\n\(result.output)")
    }
}

import Foundation
import PlaygroundServer
import ScrollRules
import ScrollRulesTestSupport
import Testing

/// Compiles the library as an Apple target, here on Linux: the toolchain's own standard library interfaces
/// (Swift, _Concurrency, _StringProcessing, SwiftOnoneSupport, Observation) rebuilt for iOS and macOS, and
/// AppleStubs' Foundation and SwiftUI, which carry Apple's signatures and availability. For iOS 17.0, iOS 18.0
/// and macOS 14 it emits ScrollRules, ScrollRulesUI, every Swift block of docs/swiftui.md and the snippet
/// `export` prints for every preset, in Swift 6 with complete concurrency checking. An iOS 18 API used
/// without `@available` fails here as it does in Xcode; SwiftUI's behaviour and the real SDK are not checked.
@Suite(.serialized, .disabled(if: SanitizerRun.isActive, SanitizerRun.onlyTheToolchain))
struct AppleTargetTests {
    static let root = DifferentialTests.root
    static let targets = [
        "x86_64-apple-ios17.0-simulator", "x86_64-apple-ios18.0-simulator", "x86_64-apple-macosx14.0",
    ]
    /// The standard library modules, rebuilt in this order (each imports the ones before).
    static let stdlib = ["Swift", "SwiftOnoneSupport", "_Concurrency", "_StringProcessing", "Observation"]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The toolchain's folder (where `swift-frontend` is on PATH) and its version line.
    static let toolchain: (bin: URL, version: String)? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let bin = URL(fileURLWithPath: String(folder))
            guard FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("swift-frontend").path)
            else { continue }
            let version = (try? Self.run(["swiftc", "--version"], in: root).output) ?? ""
            return (bin, version.split(separator: "\n").first.map(String.init) ?? "unknown")
        }
        return nil
    }()

    static var interfaces: URL? {
        guard let bin = toolchain?.bin else { return nil }
        let folder = bin.deletingLastPathComponent().appendingPathComponent("lib/swift/linux")
        let swift = folder.appendingPathComponent("Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface")
        return FileManager.default.fileExists(atPath: swift.path) ? folder : nil
    }

    /// Why the check cannot run here, if it cannot.
    static var missing: String? {
        interfaces == nil ? "the toolchain's lib/swift/linux interfaces are missing: nothing to rebuild for Apple" : nil
    }

    /// The platform the standard library is rebuilt for: iOS at its lowest target serves every later iOS.
    static func platform(_ target: String) -> String {
        target.contains("-ios") ? "x86_64-apple-ios17.0-simulator" : "x86_64-apple-macosx14.0"
    }

    /// `.build/apple-stdlib/<toolchain>/<platform>`, made once per toolchain version.
    static func stdlibFolder(_ platform: String) throws -> URL {
        guard let interfaces, let version = toolchain?.version else { throw Failure(description: missing ?? "") }
        let key = String(version.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" })
        let folder = root.appendingPathComponent(".build/apple-stdlib/\(key)/\(platform)")
        let done = folder.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: done.path) { return folder }
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for module in stdlib {
            let source = interfaces.appendingPathComponent(
                "\(module).swiftmodule/x86_64-unknown-linux-gnu.swiftinterface")
            // The interface's own flags name Linux: they are rewritten for the platform; `@backDeployed` bodies
            // and Glibc are the Linux build's and are dropped.
            let text = try String(contentsOf: source, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("@backDeployed(") && $0 != "import Glibc" }
            .joined(separator: "\n")
            .replacingOccurrences(of: "-target x86_64-unknown-linux-gnu", with: "-target \(platform)")
            // Only type- and isolation-checked against, never linked: unoptimized is a quarter quicker to build.
            .replacingOccurrences(of: " -O ", with: " -Onone ")
            let interface = folder.appendingPathComponent("\(module).swiftinterface")
            try text.write(to: interface, atomically: true, encoding: .utf8)
            let result = try Self.run(
                niced([
                    "swift-frontend", "-compile-module-from-interface", interface.path, "-module-name", module,
                    "-parse-stdlib", "-target", platform, "-I", folder.path, "-disable-availability-checking",
                    "-disable-implicit-concurrency-module-import", "-disable-implicit-string-processing-module-import",
                    "-o", folder.appendingPathComponent("\(module).swiftmodule").path,
                ]), in: folder)
            guard result.status == 0 else { throw Failure(description: "\(module) for \(platform): \(result.output)") }
        }
        try Data().write(to: done)
        return folder
    }

    /// The modules of this package among those emitted.
    static let packageModules: Set<String> = ["ScrollRules", "ScrollRulesUI"]

    /// Emits a module (or a main file's module) from `files` for `target`, against its folder's modules.
    static func emit(
        _ name: String, _ files: [URL], target: String, in folder: URL, stdlib: URL, main: Bool = false
    ) throws -> (status: Int32, output: String) {
        try Self.run(
            niced(
                ["swiftc", "-emit-module", "-target", target, "-swift-version", "6", "-strict-concurrency=complete"]
                    + (main ? [] : ["-parse-as-library"])
                    // The package's own modules share a package name, as SwiftPM compiles them (their `package`
                    // declarations); an app's code (the doc, the snippets) is another package's.
                    + (packageModules.contains(name) ? ["-package-name", "scroll_playground"] : [])
                    + [
                        "-I", stdlib.path, "-I", folder.path, "-module-name", name, "-emit-module-path",
                        folder.appendingPathComponent("\(name).swiftmodule").path,
                    ] + files.map(\.path)), in: folder)
    }

    static func sources(_ path: String) throws -> [URL] {
        let directory = root.appendingPathComponent(path)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { directory.appendingPathComponent($0) }
    }

    /// docs/swiftui.md's Swift blocks: (name, source, is a main file). A block after `<!-- not compiled: … -->`
    /// (a Package.swift fragment) is left out and counted.
    static func docBlocks() throws -> (blocks: [(String, String, Bool)], skipped: Int) {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/swiftui.md"), encoding: .utf8)
        var blocks: [(String, String, Bool)] = []
        var skipped = 0
        var previous = ""
        var rest = Substring(doc)
        while let open = rest.range(of: "```swift\n") {
            let before = rest[..<open.lowerBound]
            let close = try #require(rest[open.upperBound...].range(of: "\n```"))
            let body = String(rest[open.upperBound..<close.lowerBound])
            previous = String(before.suffix(200))
            if previous.contains("<!-- not compiled:") {
                skipped += 1
            } else {
                blocks.append(("Doc\(blocks.count + 1)", body, previous.contains("main.swift -->")))
            }
            rest = rest[close.upperBound...]
        }
        return (blocks, skipped)
    }

    /// The snippet `export` prints for `preset`, applied to a view with the model the doc shows.
    static func snippet(_ preset: Preset) throws -> String {
        var arguments = ["export", "--preset", preset.rawValue, "--set", "bottomThreshold=1500"]
        if preset.detectsPull { arguments += ["--set", "pullThreshold=90"] }
        guard case .help(let snippet) = try PlaygroundCommand.parse(arguments, locatePublic: { nil }) else {
            throw Failure(description: "export did not print")
        }
        // The lines the snippet shows for your view, uncommented, in a view with a store that has the methods.
        let lines = snippet.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.contains("// In your view") })
        // `{ … }` stands for the app's content.
        let view = lines[(start + 1)...].map {
            $0.replacingOccurrences(of: "// ", with: "").replacingOccurrences(of: "{ … }", with: "{ Text(\"…\") }")
        }.joined(separator: "\n")
        return """
            import SwiftUI
            \(lines[..<start].joined(separator: "\n"))

            @MainActor final class Store {
                func loadMore() async throws -> Bool { true }
                func refresh() async throws -> Int { 0 }
            }

            struct SnippetView: View {
                let store: Store
                @State private var feed = FeedModel(settings: .tuned)
                var body: some View {
                    \(view.replacingOccurrences(of: "\n", with: "\n        "))
                }
            }
            """
    }

    /// Everything compiled for `target`: the failures, and a one-line summary.
    static func compileAll(_ target: String) throws -> (failures: [String], summary: String) {
        let stdlib = try stdlibFolder(platform(target))
        let folder = root.appendingPathComponent(".build/apple-target/\(target)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var failures: [String] = []
        func check(_ name: String, _ files: [URL], main: Bool = false) throws {
            let result = try emit(name, files, target: target, in: folder, stdlib: stdlib, main: main)
            if result.status != 0 { failures.append("\(target) \(name):\n\(result.output)") }
        }
        let stubs = root.appendingPathComponent("Tests/ScrollRulesTests/AppleStubs")
        try check("Foundation", [stubs.appendingPathComponent("Foundation.swift")])
        // UIKit exists on iOS only: the library's UIKit code (iOS 17's scroll view probe) compiles there.
        if target.contains("-ios") { try check("UIKit", [stubs.appendingPathComponent("UIKit.swift")]) }
        try check("SwiftUI", [stubs.appendingPathComponent("SwiftUI.swift")])
        try check("ScrollRules", sources("Sources/ScrollRules"))
        try check("ScrollRulesUI", sources("Sources/ScrollRulesUI"))
        let (blocks, skipped) = try docBlocks()
        for (name, source, main) in blocks {
            let file = folder.appendingPathComponent(main ? "main.swift" : "\(name).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            try check(name, [file], main: main)
            if main { try FileManager.default.removeItem(at: file) }
        }
        // The example app (`Examples/FeedApp.swiftpm`): its sources as one module, on iOS (its only platform).
        if target.contains("-ios") { try check("AppModule", sources("Examples/FeedApp.swiftpm/App")) }
        for preset in Preset.allCases {
            let file = folder.appendingPathComponent("Snippet_\(preset.rawValue).swift")
            try snippet(preset).write(to: file, atomically: true, encoding: .utf8)
            try check("Snippet_\(preset.rawValue)", [file])
        }
        let summary =
            "\(target): ScrollRules, ScrollRulesUI, \(blocks.count) docs/swiftui.md blocks (\(skipped) Package.swift "
            + (target.contains("-ios") ? "fragment skipped), the example app, " : "fragment skipped), ")
            + "\(Preset.allCases.count) export snippets: \(failures.isEmpty ? "compiled" : "\(failures.count) failed")"
        return (failures, summary)
    }

    @Test(.timeLimit(.minutes(20)))
    func theLibraryTheDocAndTheSnippetsCompileForIOS17IOS18AndMacOS14() async throws {
        if let missing = Self.missing {
            print("AppleTargetTests skipped: \(missing)")
            return
        }
        // The two platforms' standard libraries are rebuilt side by side (once per toolchain), then each
        // target compiles on its own thread.
        try await withThrowingTaskGroup(of: URL.self) { group in
            for platform in Set(Self.targets.map(Self.platform)) {
                group.addTask { try await onOwnThread { try Self.stdlibFolder(platform) } }
            }
            for try await _ in group {}
        }
        let results = try await withThrowingTaskGroup(of: (String, [String], String).self) { group in
            for target in Self.targets {
                group.addTask {
                    let (failures, summary) = try await onOwnThread { try Self.compileAll(target) }
                    return (target, failures, summary)
                }
            }
            var all: [(String, [String], String)] = []
            for try await result in group { all.append(result) }
            return all.sorted { $0.0 < $1.0 }
        }
        for (_, failures, summary) in results {
            print("AppleTargetTests: \(summary)")
            for failure in failures { Issue.record("\(failure)") }
        }
    }

    @Test(.timeLimit(.minutes(20)))
    func anIOS18APIWithoutAvailabilityFailsAtIOS17() async throws {
        if let missing = Self.missing {
            print("AppleTargetTests skipped: \(missing)")
            return
        }
        // The converter as it was written before it had `@available`.
        let source = """
            import SwiftUI
            import ScrollRules

            extension FeedScrollPhase {
                public init(swiftUI phase: ScrollPhase) {
                    switch phase {
                    case .idle: self = .idle
                    case .tracking: self = .tracking
                    case .interacting: self = .interacting
                    case .decelerating: self = .decelerating
                    case .animating: self = .animating
                    }
                }
            }
            """
        let outcomes = try await onOwnThread {
            try ["x86_64-apple-ios17.0-simulator", "x86_64-apple-ios18.0-simulator"].map { target in
                let stdlib = try Self.stdlibFolder(Self.platform(target))
                let folder = Self.root.appendingPathComponent(".build/apple-target/bites-\(target)")
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let stubs = Self.root.appendingPathComponent("Tests/ScrollRulesTests/AppleStubs")
                for (name, files) in [
                    ("Foundation", [stubs.appendingPathComponent("Foundation.swift")]),
                    ("SwiftUI", [stubs.appendingPathComponent("SwiftUI.swift")]),
                    ("ScrollRules", try Self.sources("Sources/ScrollRules")),
                ] {
                    let result = try Self.emit(name, files, target: target, in: folder, stdlib: stdlib)
                    guard result.status == 0 else { throw Failure(description: "\(name): \(result.output)") }
                }
                let file = folder.appendingPathComponent("Unavailable.swift")
                try source.write(to: file, atomically: true, encoding: .utf8)
                return try Self.emit("Unavailable", [file], target: target, in: folder, stdlib: stdlib)
            }
        }
        #expect(outcomes[0].status != 0)
        #expect(
            outcomes[0].output.contains("'ScrollPhase' is only available in iOS 18.0 or newer"), "\(outcomes[0].output)"
        )
        #expect(outcomes[1].status == 0, "\(outcomes[1].output)")
    }

    /// Runs a command (found on PATH) in `folder`, returning its exit status and its output, stderr merged.
    static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

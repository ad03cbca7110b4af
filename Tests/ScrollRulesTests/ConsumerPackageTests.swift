import Foundation
import ScrollRulesTestSupport
import Testing

/// docs/swiftui.md's example, copied out of the doc into a fresh package that depends on this repository
/// by path, builds and runs on Linux and prints what the doc says it prints. A package that links only
/// `ScrollRules` finds every symbol it needs there: no libm, no Foundation.
struct ConsumerPackageTests {
    static let root = repositoryRoot

    /// The fenced block that follows `<!-- consumer: NAME -->` in the doc.
    static func block(_ name: String, in doc: String) throws -> String {
        let marker = try #require(doc.range(of: "<!-- consumer: \(name) -->"), "docs/swiftui.md has no \(name) block")
        let rest = doc[marker.upperBound...]
        let open = try #require(rest.range(of: "```"))
        let body = try #require(rest[open.upperBound...].range(of: "\n"))
        let close = try #require(rest[body.upperBound...].range(of: "```"))
        return String(rest[body.upperBound..<close.lowerBound])
    }

    @Test(.timeLimit(.minutes(10)), .disabled(if: SanitizerRun.isActive, SanitizerRun.onlyTheToolchain))
    func theDocsExampleBuildsAndPrintsWhatTheDocSays() async throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/swiftui.md"), encoding: .utf8)
        let source = try Self.block("Sources/Demo/main.swift", in: doc)
        let expected = try Self.block("output", in: doc)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scrollrules-consumer-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/Demo"), withIntermediateDirectories: true)
        // A path dependency's identity is its folder's name.
        let identity = Self.root.lastPathComponent
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "Demo",
                dependencies: [.package(path: "\(Self.root.path)")],
                targets: [
                    .executableTarget(
                        name: "Demo", dependencies: [.product(name: "ScrollRules", package: "\(identity)")])
                ]
            )

            """
        try manifest.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try source.write(
            to: folder.appendingPathComponent("Sources/Demo/main.swift"), atomically: true, encoding: .utf8)

        let build = try await onOwnThread {
            try Self.run(niced(["swift", "build", "--product", "Demo", "-j", "1"]), in: folder)
        }
        #expect(build.status == 0, "the consumer package did not build:\n\(build.output)")
        guard build.status == 0 else { return }
        let demo = try await onOwnThread {
            try Self.run([folder.appendingPathComponent(".build/debug/Demo").path], in: folder)
        }
        #expect(demo.status == 0)
        #expect(demo.output == expected)
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

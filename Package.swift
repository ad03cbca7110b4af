// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "scroll-playground",
    // The libraries an app links (ScrollRules, ScrollRulesUI) need SwiftUI's iOS 17 / macOS 14 scroll APIs.
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .executable(name: "scroll-playground", targets: ["scroll-playground"]),
        .library(name: "ScrollRules", targets: ["ScrollRules"]),
        .library(name: "ScrollRulesUI", targets: ["ScrollRulesUI"]),
    ],
    targets: [
        // libwebsockets from Debian's libwebsockets-dev, on libev through lws's libev plugin (LWSEventLoop);
        // only LWSTransport and LWSClient import it, in their LWS* files.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libev-dev", "libwebsockets-evlib-ev"])]
        ),
        // The one command-line parser both executables use: options declared once, help generated. No dependencies.
        .target(name: "CommandLineOptions"),
        // The rules an app links: geometry, presets, the per-feed controller. Pure Swift: no Foundation, no C, no libm.
        .target(name: "ScrollRules"),
        // The SwiftUI side: a view modifier (Apple platforms only) on a driver of plain Swift concurrency.
        .target(name: "ScrollRulesUI", dependencies: ["ScrollRules"]),
        // The playground's session logic on top of ScrollRules: pure values and functions, no C, no Dispatch, no clock.
        .target(name: "ScrollCore", dependencies: ["ScrollRules"]),
        // The lab: simulated users, setting sweeps and property checks on ScrollCore's virtual clock.
        .target(name: "ScrollLab", dependencies: ["ScrollCore"]),
        // What Glibc's Swift module leaves out and SystemCalls needs: epoll and malloc_trim.
        .systemLibrary(name: "CSystemCalls"),
        // The one funnel for system calls on descriptors and processes (`Syscall`, `package` API): the
        // transport, its clients, the server, scroll-bench and the socket tests call the C library only through it.
        .target(name: "SystemCalls", dependencies: ["CSystemCalls"]),
        // HTTP + WebSocket server on libwebsockets; its lws plumbing (loop, inbox, write path) is `package` API.
        .target(name: "LWSTransport", dependencies: ["CLibWebSockets", "SystemCalls"]),
        // WebSocket and raw HTTP clients on the transport's plumbing, for the tests and the bench, not the server.
        .target(name: "LWSClient", dependencies: ["LWSTransport", "CLibWebSockets", "SystemCalls"]),
        // Sessions, event log sinks and the HTTP API, wired between ScrollCore and the transport.
        .target(
            name: "PlaygroundServer",
            dependencies: ["ScrollCore", "ScrollLab", "LWSTransport", "SystemCalls", "CommandLineOptions"]),
        .executableTarget(name: "scroll-playground", dependencies: ["PlaygroundServer", "SystemCalls"]),
        // Benchmarks: measured, never asserted in tests.
        .executableTarget(
            name: "scroll-bench",
            dependencies: ["ScrollCore", "LWSTransport", "LWSClient", "CommandLineOptions", "SystemCalls"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "ScrollCoreTests", dependencies: ["ScrollCore"]),
        // Tests that launch a browser (chromium) live apart, so the core's tests start no other program.
        .testTarget(name: "BrowserModelTests", dependencies: ["ScrollCore"]),
        // The test clock, own-thread runner, draws and sanitizer switch both rules test targets use, once; it
        // links the two products only, so ScrollRulesTests still sees the library as an app does.
        .target(
            name: "ScrollRulesTestSupport", dependencies: ["ScrollRules", "ScrollRulesUI"],
            path: "Tests/ScrollRulesTestSupport"),
        // What an app links, tested as an app sees it: the two products only (and the support above), and a
        // consumer package.
        .testTarget(
            name: "ScrollRulesTests", dependencies: ["ScrollRules", "ScrollRulesUI", "ScrollRulesTestSupport"],
            exclude: ["AppleStubs"]),
        // The app's FeedModel against the playground's session on every trace and the lab's scenarios, and the
        // library (with docs/swiftui.md and the export snippets) compiled for iOS 17, iOS 18 and macOS 14.
        .testTarget(
            name: "ScrollRulesAgreementTests",
            dependencies: [
                "ScrollRules", "ScrollRulesUI", "ScrollRulesTestSupport", "ScrollCore", "ScrollLab",
                "PlaygroundServer",
            ]),
        .testTarget(name: "ScrollLabTests", dependencies: ["ScrollLab", "ScrollCore"]),
        // The raw socket clients the transport's and the server's tests share (a library under Tests/, so no
        // test target keeps its own copy).
        .target(name: "SocketTestSupport", dependencies: ["SystemCalls"], path: "Tests/SocketTestSupport"),
        .testTarget(
            name: "LWSTransportTests", dependencies: ["LWSTransport", "LWSClient", "SystemCalls", "SocketTestSupport"]),
        .testTarget(
            name: "PlaygroundServerTests",
            dependencies: [
                "PlaygroundServer", "LWSTransport", "LWSClient", "SystemCalls", "SocketTestSupport",
                "CommandLineOptions",
                "ScrollRulesUI",
                "scroll-playground", "scroll-bench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "scroll-playground",
    products: [
        .executable(name: "scroll-playground", targets: ["scroll-playground"])
    ],
    targets: [
        // libwebsockets from Debian's libwebsockets-dev, on libev through lws's libev plugin (LWSEventLoop);
        // only LWSTransport imports it.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libev-dev", "libwebsockets-evlib-ev"])]
        ),
        // The one command-line parser both executables use: options declared once, help generated. No dependencies.
        .target(name: "CommandLineOptions"),
        // The authoritative scroll logic: pure values and functions, no C, no Dispatch, no clock.
        .target(name: "ScrollCore"),
        // The lab: simulated users, setting sweeps and property checks on ScrollCore's virtual clock.
        .target(name: "ScrollLab", dependencies: ["ScrollCore"]),
        // HTTP + WebSocket server and client on libwebsockets: the one funnel for lws_* calls.
        .target(name: "LWSTransport", dependencies: ["CLibWebSockets"]),
        // Sessions, event log sinks and the HTTP API, wired between ScrollCore and the transport.
        .target(
            name: "PlaygroundServer", dependencies: ["ScrollCore", "ScrollLab", "LWSTransport", "CommandLineOptions"]),
        .executableTarget(name: "scroll-playground", dependencies: ["PlaygroundServer"]),
        // Benchmarks: measured, never asserted in tests.
        .executableTarget(name: "scroll-bench", dependencies: ["ScrollCore", "LWSTransport", "CommandLineOptions"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "ScrollCoreTests", dependencies: ["ScrollCore"]),
        .testTarget(name: "ScrollLabTests", dependencies: ["ScrollLab", "ScrollCore"]),
        .testTarget(name: "LWSTransportTests", dependencies: ["LWSTransport"]),
        .testTarget(
            name: "PlaygroundServerTests",
            dependencies: [
                "PlaygroundServer", "LWSTransport", "CommandLineOptions", "scroll-playground", "scroll-bench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

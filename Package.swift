// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "scroll-playground",
    products: [
        .executable(name: "scroll-playground", targets: ["scroll-playground"])
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
        // The authoritative scroll logic: pure values and functions, no C, no Dispatch, no clock.
        .target(name: "ScrollCore"),
        // The lab: simulated users, setting sweeps and property checks on ScrollCore's virtual clock.
        .target(name: "ScrollLab", dependencies: ["ScrollCore"]),
        // HTTP + WebSocket server on libwebsockets; its lws plumbing (loop, inbox, write path) is `package` API.
        .target(name: "LWSTransport", dependencies: ["CLibWebSockets"]),
        // WebSocket and raw HTTP clients on the transport's plumbing, for the tests and the bench, not the server.
        .target(name: "LWSClient", dependencies: ["LWSTransport", "CLibWebSockets"]),
        // Sessions, event log sinks and the HTTP API, wired between ScrollCore and the transport.
        .target(
            name: "PlaygroundServer", dependencies: ["ScrollCore", "ScrollLab", "LWSTransport", "CommandLineOptions"]),
        .executableTarget(name: "scroll-playground", dependencies: ["PlaygroundServer"]),
        // epoll for the bench's floor (its Syscall funnel), which Glibc's module does not bring.
        .systemLibrary(name: "CBenchSyscalls"),
        // Benchmarks: measured, never asserted in tests.
        .executableTarget(
            name: "scroll-bench", dependencies: ["ScrollCore", "LWSClient", "CommandLineOptions", "CBenchSyscalls"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "ScrollCoreTests", dependencies: ["ScrollCore"]),
        .testTarget(name: "ScrollLabTests", dependencies: ["ScrollLab", "ScrollCore"]),
        .testTarget(name: "LWSTransportTests", dependencies: ["LWSTransport", "LWSClient"]),
        .testTarget(
            name: "PlaygroundServerTests",
            dependencies: [
                "PlaygroundServer", "LWSTransport", "LWSClient", "CommandLineOptions", "scroll-playground",
                "scroll-bench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

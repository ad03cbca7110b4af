// swift-tools-version: 5.9
// An app package: open this folder in Xcode (or Swift Playgrounds) and run it on a phone or a simulator.
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "FeedApp",
    platforms: [.iOS("17.0")],
    products: [
        .iOSApplication(
            name: "FeedApp",
            targets: ["AppModule"],
            bundleIdentifier: "com.example.scroll-playground.FeedApp",
            displayVersion: "1.0",
            bundleVersion: "1",
            supportedDeviceFamilies: [.pad, .phone],
            supportedInterfaceOrientations: [.portrait, .landscapeRight, .landscapeLeft],
            capabilities: [
                .localNetwork(purposeString: "Streams your scrolling to a Scroll Playground on your network.")
            ]
        )
    ],
    // This repository, two folders up: the libraries an app links.
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "AppModule",
            dependencies: [.product(name: "ScrollRulesUI", package: "scroll-playground")],
            path: "App",
            swiftSettings: [.enableUpcomingFeature("StrictConcurrency")]
        )
    ]
)

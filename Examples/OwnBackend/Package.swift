// swift-tools-version:6.0
// An app's own backend, tested against PushSim's fake hub and push services (see README.md).
import PackageDescription

let package = Package(
    name: "OwnBackend",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "PushSim", path: "../..")],
    targets: [
        // Your backend and your app's logic (MyBackend.swift, MyApp.swift) sit beside their test here;
        // in your own package they would be a target of their own that the test target imports.
        .testTarget(name: "OwnBackendTests", dependencies: [.product(name: "PushSim", package: "PushSim")]),
    ]
)

// swift-tools-version:6.0
// An app's own backend, tested against PushSim's fake hub and push services (see README.md).
import PackageDescription

let package = Package(
    name: "OwnBackend",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "PushSim", path: "../..")],
    targets: [
        .target(name: "OwnBackend", dependencies: [.product(name: "PushSim", package: "PushSim")]),
        .testTarget(name: "OwnBackendTests", dependencies: ["OwnBackend", .product(name: "PushSim", package: "PushSim")]),
    ]
)

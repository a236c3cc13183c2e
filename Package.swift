// swift-tools-version:6.0
// PushSim: a deterministic, in-process simulator of the push-notification ecosystem.
// No package dependencies: Foundation and Dispatch only (customer rule).
import PackageDescription

let package = Package(
    name: "PushSim",
    // The newest APIs the code uses on Apple platforms (String.replacing, Regex-free string
    // work, NSLock.withLock) are those of macOS 13; Linux needs Swift 6.
    platforms: [.macOS(.v13)],
    // The one library users depend on, and the command-line tool. The benchmarks and the fuzzer are
    // executable targets of this package only (`swift run -c release broadcast-bench`): SwiftPM makes
    // them runnable here, and a package that depends on PushSim does not see them.
    products: [
        .library(name: "PushSim", targets: ["PushSim"]),
        .executable(name: "pushsim", targets: ["pushsim"]),
    ],
    targets: [
        // Layer 1: virtual time, event queue, seeded randomness, trace, limits.
        .target(name: "PushSimKernel"),
        // Layer 1 too: our own cryptography (no library may be used): SHA-256, HMAC, HKDF,
        // AES-128-GCM, P-256 ECDH and ECDSA, RSA signature checks, and the key readers.
        .target(name: "PushSimCrypto", dependencies: ["PushSimKernel"]),
        // Layer 2: hosts exchanging HTTP-shaped messages over a simulated network.
        .target(name: "PushSimNetwork", dependencies: ["PushSimKernel", "PushSimCrypto"]),
        // Layer 3: fake APNs, FCM and WNS, and the browsers' Web Push services (whose VAPID tokens
        // are verified with the crypto toolkit).
        .target(name: "PushSimServices", dependencies: ["PushSimNetwork", "PushSimCrypto"]),
        // Layer 4: fake notification hub and the SDK-like client that talks to it.
        .target(name: "PushSimHub", dependencies: ["PushSimNetwork", "PushSimCrypto"]),
        // Layer 5: the tutorial's app backend.
        .target(name: "PushSimBackend", dependencies: ["PushSimHub"]),
        // Layer 3 too: simulated devices: OS side and the app's client logic. Devices and the push
        // services are peers: they meet only over the network and its device channel.
        .target(name: "PushSimDevices", dependencies: ["PushSimNetwork", "PushSimCrypto"]),
        // Layer 7: scenario language, runner, expectations, reports.
        .target(name: "PushSimScenario", dependencies: ["PushSimServices", "PushSimHub", "PushSimBackend", "PushSimDevices"]),
        // Layer 8: the library users import, and the command-line tool.
        .target(name: "PushSim", dependencies: ["PushSimScenario"]),
        // Layer 9: `pushsim serve`: the world behind an HTTP/1.1 server on loopback (sockets live only here).
        .target(name: "PushSimServer", dependencies: ["PushSimScenario"]),
        .executableTarget(name: "pushsim", dependencies: ["PushSim", "PushSimServer"]),
        .executableTarget(name: "kernel-bench", dependencies: ["PushSimKernel"], path: "tools/KernelBench"),
        .executableTarget(name: "crypto-bench", dependencies: ["PushSimCrypto"], path: "tools/CryptoBench"),
        .target(name: "BenchSupport", dependencies: ["PushSim"], path: "tools/BenchSupport"),
        .executableTarget(name: "fanout-bench", dependencies: ["PushSim", "BenchSupport"], path: "tools/FanOutBench"),
        .executableTarget(name: "hub-bench", dependencies: ["PushSim", "BenchSupport"], path: "tools/HubBench"),
        .executableTarget(name: "broadcast-bench", dependencies: ["PushSim", "BenchSupport"], path: "tools/BroadcastBench"),
        .executableTarget(name: "topic-bench", dependencies: ["PushSim", "BenchSupport"], path: "tools/TopicBench"),
        .executableTarget(name: "registration-bench", dependencies: ["PushSim", "BenchSupport"], path: "tools/RegistrationBench"),
        .executableTarget(name: "endpoint-bench", dependencies: ["PushSim", "BenchSupport"], path: "tools/EndpointBench"),
        // The fuzzer: surfaces (shared with the tests that replay its finds) and the tool.
        .target(name: "FuzzSurfaces", dependencies: ["PushSim", "PushSimServer"], path: "tools/FuzzSurfaces"),
        .executableTarget(name: "pushsim-fuzz", dependencies: ["PushSim", "FuzzSurfaces"], path: "tools/Fuzz"),
        .executableTarget(name: "serve-bench", dependencies: ["PushSim", "PushSimServer", "BenchSupport"], path: "tools/ServeBench"),

        .testTarget(name: "PushSimKernelTests", dependencies: ["PushSimKernel"]),
        .testTarget(name: "PushSimCryptoTests", dependencies: ["PushSimCrypto"]),
        .testTarget(name: "PushSimNetworkTests", dependencies: ["PushSimNetwork"]),
        .testTarget(name: "PushSimServicesTests", dependencies: ["PushSimServices", "PushSimCrypto"]),
        .testTarget(name: "PushSimHubTests", dependencies: ["PushSimHub", "PushSimServices"]),
        .testTarget(name: "PushSimBackendTests", dependencies: ["PushSimBackend", "PushSimServices", "PushSimScenario"]),
        .testTarget(name: "PushSimDevicesTests", dependencies: ["PushSimDevices", "PushSimBackend", "PushSimHub", "PushSimScenario"]),
        .testTarget(name: "PushSimScenarioTests", dependencies: ["PushSimScenario", "PushSimDevices", "PushSimBackend", "PushSimServices", "PushSimCrypto"]),
        .testTarget(name: "PushSimTests", dependencies: ["PushSim", "pushsim", "FuzzSurfaces"], exclude: ["Fixtures"]),
        .testTarget(name: "PushSimServerTests", dependencies: ["PushSimServer", "PushSimScenario", "PushSimCrypto"]),
    ]
)

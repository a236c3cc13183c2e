// crypto-bench: the speed of PushSimCrypto's two hot operations, in a release build.
//
//   P-256 scalar multiplication: one ECDH shared secret (d·Q with a variable point Q, then the
//   affine x: one field inversion), what every Web Push message costs its sender and its
//   receiver. Also ECDSA signing (k·G from the base point's table) and verification (k·G and
//   k·Q), per operation.
//   AES-128-GCM: seal throughput over 1 MiB messages and over 4 KiB ones (a Web Push record).
//   RSA-2048: making a key from a seed (what a simulation's service account costs, once per
//   process), and RS256 signing and verification (a Google OAuth assertion), per operation.
//
// Times come from the monotonic clock (this tool is outside the simulation). The inputs are
// fixed byte patterns, so every run does the same work; each figure is the best and the median
// of `--reps` runs.
//
//   swift build -c release --product crypto-bench && .build/release/crypto-bench [--reps N] [--ecdh N] [--megabytes N]
//   [--only ecdh|ecdsa|gcm|rsa]   (one part alone, e.g. for `perf stat -e instructions:u` at two sizes)
import Foundation
import PushSimCrypto

/// The value after `name` on the command line, or `fallback` (like BenchSupport's, which would
/// bring the whole simulator into this small tool's release build).
func argument(_ name: String, _ fallback: String) -> String {
    let args = CommandLine.arguments
    guard let index = args.firstIndex(of: name), index + 1 < args.count else { return fallback }
    return args[index + 1]
}

let reps = max(1, Int(argument("--reps", "5")) ?? 5)
let ecdhCount = max(4, Int(argument("--ecdh", "400")) ?? 400)
let megabytes = max(1, Int(argument("--megabytes", "32")) ?? 32)
let only = argument("--only", "all")

/// Runs `body` `reps` times; the best and median wall seconds.
func measure(_ body: () throws -> Void) rethrows -> (best: Double, median: Double) {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<reps {
        let start = clock.now
        try body()
        let elapsed = start.duration(to: clock.now).components
        times.append(Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
    }
    times.sort()
    return (times[0], times[times.count / 2])
}

/// A fixed byte pattern (AES does not care what it encrypts; a P-256 key needs only to be in range).
func pattern(_ count: Int, _ seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed } }

/// ECDH: d·Q and its affine x, `ecdhCount` times a run.
func benchmarkECDH(_ key: P256PrivateKey, _ peer: P256PublicKey, _ sink: inout UInt8) throws {
    let ecdh = try measure {
        for _ in 0..<ecdhCount { sink ^= try key.sharedSecret(with: peer)[0] }
    }
    let perECDH = { (seconds: Double) in String(format: "%.1f µs", seconds / Double(ecdhCount) * 1e6) }
    print("P-256 ECDH (scalar multiplication d·Q + affine x): best \(perECDH(ecdh.best)), median \(perECDH(ecdh.median)) (goal ≤ 300 µs)")
}

/// ECDSA: a quarter as many signatures (each of a different message) and verifications.
func benchmarkECDSA(_ key: P256PrivateKey, _ sink: inout UInt8) {
    let message = Array("crypto-bench: an APNs provider token's signing input".utf8)
    let signatures = ecdhCount / 4
    let signing = measure {
        for index in 0..<signatures { sink ^= key.signature(for: message + [UInt8(truncatingIfNeeded: index)]).rawRepresentation[0] }
    }
    let signature = key.signature(for: message)
    let verifying = measure {
        for _ in 0..<signatures where key.publicKey.isValidSignature(signature, for: message) { sink &+= 1 }
    }
    print(String(format: "ECDSA P-256 / SHA-256: sign median %.1f µs, verify median %.1f µs",
                 signing.median / Double(signatures) * 1e6, verifying.median / Double(signatures) * 1e6))
}

/// AES-128-GCM: `megabytes` MiB a run, sealed as 1 MiB messages, then as 4 KiB ones.
func benchmarkGCM(_ sink: inout UInt8) throws {
    let gcm = try AES128GCM(key: pattern(16, 0x11))
    let nonce = pattern(12, 0x22)
    for (size, label) in [(1 << 20, "1 MiB"), (4096, "4 KiB")] {
        let plaintext = pattern(size, 0x33)
        let count = megabytes * (1 << 20) / size
        let sealing = try measure {
            for _ in 0..<count { sink ^= try gcm.seal(plaintext, nonce: nonce).tag[0] }
        }
        let total = Double(count * size) / 1e6
        print(String(format: "AES-128-GCM seal, %@ messages: best %.1f MB/s, median %.1f MB/s (goal ≥ 50 MB/s)",
                     label, total / sealing.best, total / sealing.median))
    }
}

/// RSA-2048: one key made from a seed (timed once: it is made once per process), then RS256
/// signatures and verifications of an assertion-sized message.
func benchmarkRSA(_ sink: inout UInt8) throws {
    let clock = ContinuousClock()
    let start = clock.now
    let key = try RSAPrivateKey(derivedFrom: Array("crypto-bench service account".utf8))
    let made = start.duration(to: clock.now).components
    let message = Array(repeating: UInt8(ascii: "a"), count: 400)
    let count = max(4, ecdhCount / 40)
    let signing = measure { for index in 0..<count { sink ^= key.signature(for: message + [UInt8(truncatingIfNeeded: index)])[0] } }
    let signature = key.signature(for: message)
    let verifying = measure { for _ in 0..<count where key.publicKey.isValidSignature(signature, for: message) { sink &+= 1 } }
    print(String(format: "RSA-2048: key from a seed %.2f s; RS256 sign median %.2f ms, verify median %.1f µs",
                 Double(made.seconds) + Double(made.attoseconds) * 1e-18,
                 signing.median / Double(count) * 1e3, verifying.median / Double(count) * 1e6))
}

print("crypto-bench: reps \(reps), \(ecdhCount) ECDH per rep, \(megabytes) MiB of AES-128-GCM per rep")
do {
    let key = try P256PrivateKey(rawRepresentation: pattern(32, 0x5A))
    let peer = try P256PrivateKey(rawRepresentation: pattern(32, 0x3C)).publicKey
    var sink: UInt8 = 0
    _ = try key.sharedSecret(with: peer)   // warm up (and build the base point's table)
    if only == "all" || only == "ecdh" { try benchmarkECDH(key, peer, &sink) }
    if only == "all" || only == "ecdsa" { benchmarkECDSA(key, &sink) }
    if only == "all" || only == "gcm" { try benchmarkGCM(&sink) }
    if only == "all" || only == "rsa" { try benchmarkRSA(&sink) }
    print("(sink \(sink))")
} catch {
    print("crypto-bench: \(error)")
    exit(1)
}

import Foundation
import FuzzSurfaces

// pushsim-fuzz: feeds mutated bytes to every part of PushSim that reads untrusted input (scenario
// files; the hub's REST API; APNs, FCM and WNS; the JSON, XML, Base64, JWT and tag-expression
// codecs; pushsim serve's HTTP parser) and checks that none of them crashes. Seeded and
// deterministic: all randomness comes from SeededRandom, forked per surface from --seed, so the
// same seed gives the same inputs in any process. A crash writes the input that caused it to
// <out>/crash-<surface>-<iteration>.bin from a signal handler on its own stack (stack overflows
// too) and prints the commands that replay it. See FuzzOptions.usage.
//
//   swift build -c release --product pushsim-fuzz && .build/release/pushsim-fuzz --runs 1000000
//   swift run pushsim-fuzz --replay .build/fuzz/crash-hub-1234.bin --surface hub

let options: FuzzOptions
switch FuzzOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let o): options = o
case .failure(let error):
    let message = error.message
    FileHandle.standardError.write(Data(((message.isEmpty ? "" : "pushsim-fuzz: \(message)\n") + FuzzOptions.usage + "\n").utf8))
    exit(message.isEmpty ? 0 : 2)
}

KnownCrashes.skip = options.skipKnown

/// The checkout's root, from this file's path (tools/Fuzz/main.swift): the scenario corpus is there.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

if let file = options.minimize {
    exit(Minimizer.minimize(file, surface: options.surface, options: options))
}

if let file = options.replay {
    guard let data = FileManager.default.contents(atPath: file), let surface = FuzzRegistry.surface(options.surface, repository: repository) else {
        FileHandle.standardError.write(Data("pushsim-fuzz: cannot read \(file)\n".utf8))
        exit(2)
    }
    print("pushsim-fuzz: replay \(file) (\(data.count) bytes) on \(surface.name)")
    fflush(nil)
    print("\(surface.name): outcome \(surface.run([UInt8](data)))")
    exit(0)
}

if options.showCorpus, let surface = FuzzRegistry.surface(options.surface, repository: repository) {
    for (i, input) in surface.corpus.enumerated() { print("\(surface.name) corpus \(i) (\(input.count) bytes): \(surface.run(input))") }
    exit(0)
}

if !options.child {
    print("pushsim-fuzz: seed \(options.seed), \(options.runs) inputs per surface, surfaces \(options.surface), max length \(options.maxLength), crashes to \(options.out)/")
    fflush(nil)
}
if options.surface == "all" { exit(ChildProcess.runEverySurface(options)) }

guard let surface = FuzzRegistry.surface(options.surface, repository: repository) else { exit(2) }
do {
    try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
} catch {
    FileHandle.standardError.write(Data("pushsim-fuzz: cannot create \(options.out): \(error)\n".utf8))
    exit(2)
}
CrashCapture.install()
exit(SurfaceRun.run(surface, options: options))

import Foundation
import FuzzSurfaces
#if canImport(Glibc)
import Glibc
#endif

// pushsim-fuzz: feeds mutated bytes to every part of PushSim that reads untrusted input and
// checks that none of them crashes. Seeded and deterministic: the same --seed gives the same
// inputs, in any process. A crash writes the input that caused it to <out>/crash-<surface>-
// <seed>-<n>.bin (from a signal handler, on its own stack, so stack overflows are caught too)
// and prints the command that replays it.
//
//   swift run -c release pushsim-fuzz [--surface NAME|all] [--runs N] [--seed N] [--max-len BYTES] [--out DIR]
//   swift run pushsim-fuzz --replay FILE --surface NAME

func argument(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

let seed = UInt64(argument("--seed") ?? "1") ?? 1
let runs = Int(argument("--runs") ?? "10000") ?? 10_000
let maxLength = Int(argument("--max-len") ?? "4096") ?? 4_096
let out = argument("--out") ?? ".build/fuzz"
let chosen = argument("--surface") ?? "all"
let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let surfaces = [ScenarioSurface.make(corpusDirectory: repo + "/Scenarios"), WireSurface.make()] + CodecSurfaces.all
let selected = surfaces.filter { chosen == "all" || $0.name == chosen }
guard !selected.isEmpty else {
    FileHandle.standardError.write(Data("pushsim-fuzz: no surface '\(chosen)'; surfaces: \(surfaces.map(\.name).joined(separator: ", "))\n".utf8))
    exit(2)
}

if let replay = argument("--replay") {
    guard let data = FileManager.default.contents(atPath: replay), selected.count == 1 else {
        FileHandle.standardError.write(Data("pushsim-fuzz: --replay needs a readable file and one --surface\n".utf8))
        exit(2)
    }
    print("replay \(replay) on \(selected[0].name): \(selected[0].run([UInt8](data)))")
    exit(0)
}

try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
CrashCapture.install()
print("pushsim-fuzz: seed \(seed), \(runs) inputs per surface, surfaces \(selected.map(\.name).joined(separator: ", "))")
for surface in selected {
    var mutator = Mutator(seed: seed, surface: surface.name, maxLength: maxLength)
    var outcomes: [String: Int] = [:]   // printed sorted
    let start = DispatchTime.now().uptimeNanoseconds
    for n in 0..<runs {
        let input = n < surface.corpus.count ? surface.corpus[n] : mutator.next(surface.corpus)
        CrashCapture.arm(input, path: "\(out)/crash-\(surface.name)-\(seed)-\(n).bin",
                         replay: "swift run pushsim-fuzz --replay \(out)/crash-\(surface.name)-\(seed)-\(n).bin --surface \(surface.name)")
        outcomes[surface.run(input), default: 0] += 1
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let classes = outcomes.sorted { $0.key < $1.key }.prefix(8).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print(String(format: "%@: %d inputs in %.2f s (%.0f/s), no crash; %d outcome classes: %@%@", surface.name, runs, seconds,
                 Double(runs) / max(seconds, 1e-9), outcomes.count, classes, outcomes.count > 8 ? ", …" : ""))
    fflush(nil)
}

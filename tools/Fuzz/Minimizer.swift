import Foundation
import FuzzSurfaces

/// Shrinks a crasher by delta debugging (ddmin over bytes): removes chunks of halving size, and
/// keeps each removal after which the input still crashes the surface, each try in a child
/// process (`--replay`), so that the crash ends only the child. Writes `<file>.min` and prints
/// its size. Deterministic: no randomness at all.
enum Minimizer {
    static func minimize(_ path: String, surface: String, options: FuzzOptions) -> Int32 {
        guard var bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
            FileHandle.standardError.write(Data("pushsim-fuzz: cannot read \(path)\n".utf8))
            return 2
        }
        let scratch = "\(options.out)/minimize-\(surface).bin"
        try? FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
        func crashes(_ candidate: [UInt8]) -> Bool {
            guard FileManager.default.createFile(atPath: scratch, contents: Data(candidate)) else { return false }
            if case .killed = ChildProcess.run(["--replay", scratch, "--surface", surface], quiet: true) { return true }
            return false
        }
        guard crashes(bytes) else {
            print("pushsim-fuzz: \(path) does not crash \(surface); nothing to shrink")
            return 1
        }
        var tries = 0
        var chunk = max(1, bytes.count / 2)
        while chunk >= 1 {
            var start = 0
            var removedAny = false
            while start < bytes.count {
                let candidate = Array(bytes[..<start] + bytes[min(bytes.count, start + chunk)...])
                tries += 1
                if !candidate.isEmpty, crashes(candidate) {
                    bytes = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny || chunk == 1 { chunk /= 2 } else { chunk = max(1, min(chunk, bytes.count / 2)) }
            if chunk == 0 { break }
        }
        try? FileManager.default.removeItem(atPath: scratch)
        let out = path + ".min"
        _ = FileManager.default.createFile(atPath: out, contents: Data(bytes))
        print("pushsim-fuzz: shrunk \(path) to \(bytes.count) bytes in \(tries) tries: \(out)")
        return 0
    }
}

import Foundation
import FuzzSurfaces

/// A command-line mistake (empty for `--help`).
struct UsageError: Error {
    var message: String
}

/// The command line of `pushsim-fuzz`.
struct FuzzOptions {
    /// Seeds every surface's input stream (forked per surface by name).
    var seed: UInt64 = 1
    /// Inputs per surface.
    var runs = 10_000
    /// `all`, or one name from ``FuzzRegistry/names``.
    var surface = "all"
    /// Where crashers are saved.
    var out = ".build/fuzz"
    /// A saved input to run once on ``surface``.
    var replay: String?
    /// A crasher to shrink (delta debugging) while it still crashes ``surface``.
    var minimize: String?
    /// Longest input made, in bytes.
    var maxLength = 4_096
    /// Print each corpus entry's outcome and stop (to check that the seed inputs are valid).
    var showCorpus = false
    /// Print every outcome class seen, with its count, after each surface.
    var listOutcomes = false
    /// An input taking longer than this is saved as slow.
    var slowMilliseconds = 2_000
    /// Do not feed inputs known to hit a crash someone is fixing (``KnownCrashes``).
    var skipKnown = false
    /// Internal: this process runs one chunk of a long run (see ``SurfaceRun``).
    var chunk: Int?
    /// Internal: this process is one surface's run, started by the `all` run.
    var child = false

    static let usage = """
        usage: pushsim-fuzz [--surface NAME|all] [--runs N] [--seed N] [--max-len BYTES] [--out DIR] [--skip-known] [--slow-ms MS] [--outcomes]
               pushsim-fuzz --replay FILE --surface NAME
               pushsim-fuzz --minimize FILE --surface NAME [--out DIR]
               pushsim-fuzz --show-corpus --surface NAME      (each seed input's outcome)
          surfaces: \(FuzzRegistry.names.joined(separator: ", "))
          defaults: --surface all --runs 10000 --seed 1 --max-len 4096 --out .build/fuzz
          --outcomes: list every outcome class seen, with its count (how deep the inputs reach).
          --slow-ms: an input taking longer (default 2000) is saved as <out>/slow-<surface>-<n>.bin.
          --skip-known: leave out inputs that hit crashes being fixed elsewhere (KnownCrashes.swift).
          Every surface runs in its own process: a crash saves <out>/crash-<surface>-<iteration>.bin,
          prints the command that replays it, ends that surface's run, and makes the exit status 1.
        """

    /// Reads `arguments` (without the program name); a usage error message on failure.
    static func parse(_ arguments: [String]) -> Result<FuzzOptions, UsageError> {
        var o = FuzzOptions()
        var i = 0
        func value() -> String? {
            i += 1
            return i < arguments.count ? arguments[i] : nil
        }
        while i < arguments.count {
            let flag = arguments[i]
            switch flag {
            case "--seed":
                guard let v = value().flatMap({ UInt64($0) }) else { return .failure(UsageError(message: "--seed needs a number")) }
                o.seed = v
            case "--runs":
                guard let v = value().flatMap({ Int($0) }), v >= 0 else { return .failure(UsageError(message: "--runs needs a count")) }
                o.runs = v
            case "--max-len":
                guard let v = value().flatMap({ Int($0) }), v >= 16, v <= 1 << 22 else { return .failure(UsageError(message: "--max-len needs 16...4194304")) }
                o.maxLength = v
            case "--surface":
                guard let v = value(), v == "all" || FuzzRegistry.names.contains(v) else {
                    return .failure(UsageError(message: "--surface needs all or one of: \(FuzzRegistry.names.joined(separator: ", "))"))
                }
                o.surface = v
            case "--out":
                guard let v = value() else { return .failure(UsageError(message: "--out needs a directory")) }
                o.out = v
            case "--replay":
                guard let v = value() else { return .failure(UsageError(message: "--replay needs a file")) }
                o.replay = v
            case "--minimize":
                guard let v = value() else { return .failure(UsageError(message: "--minimize needs a file")) }
                o.minimize = v
            case "--child": o.child = true
            case "--chunk":
                guard let v = value().flatMap({ Int($0) }), v >= 0 else { return .failure(UsageError(message: "--chunk needs a number")) }
                o.chunk = v
            case "--show-corpus": o.showCorpus = true
            case "--skip-known": o.skipKnown = true
            case "--outcomes": o.listOutcomes = true
            case "--slow-ms":
                guard let v = value().flatMap({ Int($0) }), v > 0 else { return .failure(UsageError(message: "--slow-ms needs a count")) }
                o.slowMilliseconds = v
            case "--help", "-h": return .failure(UsageError(message: ""))
            default: return .failure(UsageError(message: "unknown argument '\(flag)'"))
            }
            i += 1
        }
        if (o.replay != nil || o.minimize != nil || o.showCorpus) && o.surface == "all" {
            return .failure(UsageError(message: "--replay, --minimize and --show-corpus need one --surface"))
        }
        return .success(o)
    }

    /// The arguments that run `surface` alone with these options (for a child process).
    func childArguments(surface: String) -> [String] {
        ["--surface", surface, "--seed", String(seed), "--runs", String(runs), "--max-len", String(maxLength), "--out", out, "--slow-ms", String(slowMilliseconds), "--child"]
            + (listOutcomes ? ["--outcomes"] : []) + (skipKnown ? ["--skip-known"] : [])
    }
}

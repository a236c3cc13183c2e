import Foundation

/// What the benchmarks under tools/ share: command-line arguments, wall-clock timing,
/// resident memory and a simulation set up for benchmarking (``benchmarkSimulation(seed:)``).
/// The wall clock is read here only, never inside a simulation.

/// The value after `name` on the command line, or `fallback`.
public func argument(_ name: String, _ fallback: String) -> String {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return fallback }
    return args[i + 1]
}

/// The comma-separated values after `name` (or in `fallback`), each read by `parse`; stops the
/// benchmark with the accepted spellings on a value it cannot read (`--platforms ios,android`).
public func listArgument<T>(_ name: String, _ fallback: String, accepted: String, _ parse: (String) -> T?) -> [T] {
    argument(name, fallback).split(separator: ",").map {
        guard let value = parse(String($0)) else { fatalError("unknown value '\($0)' for \(name): use \(accepted)") }
        return value
    }
}

/// A monotonic wall-clock reading in nanoseconds, for ``seconds(since:)``.
public func wallClock() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Wall-clock seconds since `start` (a ``wallClock()`` reading).
public func seconds(since start: UInt64) -> Double { Double(wallClock() - start) / 1e9 }

/// This process's resident memory in KiB (`VmRSS` in /proc/self/status; 0 where there is none).
public func residentKiB() -> Int { procStatusKiB("VmRSS:") }

/// The most resident memory this process has had so far, in KiB (`VmHWM`; 0 where there is none).
public func peakResidentKiB() -> Int { procStatusKiB("VmHWM:") }

private func procStatusKiB(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

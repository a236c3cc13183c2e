import Foundation
import FuzzSurfaces

/// Runs this same executable again as a child process, so that a crash ends only the child: the
/// `all` run starts one child per surface, one after another, and the minimizer one per try.
enum ChildProcess {
    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case killed(Int32)
    }

    /// This executable's path (`/proc/self/exe` resolved), or argv[0].
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs the executable with `arguments`; its output goes to ours unless `quiet`.
    static func run(_ arguments: [String], quiet: Bool = false) -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if quiet {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        do { try process.run() } catch { return .exited(127) }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? .killed(process.terminationStatus) : .exited(process.terminationStatus)
    }

    /// The `all` run: each surface in its own child, in ``FuzzRegistry/names`` order; exit status
    /// 1 if any surface crashed, with the list of them.
    static func runEverySurface(_ options: FuzzOptions) -> Int32 {
        var crashed: [String] = []
        for name in FuzzRegistry.names {
            fflush(nil)
            switch run(options.childArguments(surface: name)) {
            case .exited(0): break
            case .exited(let status): crashed.append("\(name) (exit \(status))")
            case .killed(let signal): crashed.append("\(name) (signal \(signal))")
            }
        }
        if crashed.isEmpty {
            print("pushsim-fuzz: \(FuzzRegistry.names.count) surfaces, \(options.runs) inputs each, seed \(options.seed): no crash")
            return 0
        }
        print("pushsim-fuzz: CRASHED: \(crashed.joined(separator: ", ")); inputs saved under \(options.out)/ (replay commands above)")
        return 1
    }
}

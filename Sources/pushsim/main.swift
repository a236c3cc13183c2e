import Foundation
import PushSim

// The `pushsim` command. Exit codes: 0 every expectation held; 1 an expectation failed or a run
// hit a limit; 2 usage error, unreadable or malformed scenario.

let usage = """
OVERVIEW: PushSim runs push-notification scenarios on virtual time, the same on every run.

USAGE: pushsim run <file-or-folder>... [--seed <n>] [--trace <file>] [--timeline]

ARGUMENTS:
  <file-or-folder>   .scenario files, or folders searched recursively for them

OPTIONS:
  --seed <n>         run with this seed instead of the one in each file
  --trace <file>     write the trace of every run as JSON Lines (one header line per scenario)
  --timeline         print each run's trace as a fixed-column timeline
  -h, --help         show this help

EXIT CODES:
  0  every expectation held
  1  an expectation failed, or a run hit a limit (the replay command is printed)
  2  usage error, or a scenario that cannot be read or parsed (file:line:col is printed)
"""

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pushsim: \(message)\n\nUsage: pushsim run <file-or-folder>... [--seed <n>] [--trace <file>] [--timeline]\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") || arguments.first == "help" {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
}
guard arguments.removeFirst() == "run" else { fail("unknown command '\(CommandLine.arguments[1])'; the command is 'run'") }

var paths: [String] = []
var seed: UInt64?
var tracePath: String?
var timeline = false
while !arguments.isEmpty {
    let arg = arguments.removeFirst()
    switch arg {
    case "--seed":
        guard let value = arguments.first, let n = UInt64(value) else { fail("--seed needs a whole number from 0 to \(UInt64.max)") }
        seed = n
        arguments.removeFirst()
    case "--trace":
        guard let value = arguments.first else { fail("--trace needs a file name") }
        tracePath = value
        arguments.removeFirst()
    case "--timeline":
        timeline = true
    default:
        if arg.hasPrefix("-") { fail("unknown option '\(arg)'") }
        paths.append(arg)
    }
}
if paths.isEmpty { fail("name at least one scenario file or folder") }

let (files, missing) = PushSim.scenarioFiles(in: paths)
if !missing.isEmpty { fail("no such file or folder: \(missing.joined(separator: ", "))") }
if files.isEmpty { fail("no .scenario files in \(paths.joined(separator: ", "))") }

var traceOut = ""
var passed = 0, failed = 0, failedScenarios = 0, brokenScenarios = 0
let started = DispatchTime.now().uptimeNanoseconds   // wall clock for the summary only, never inside a run
for file in files {
    switch PushSim.run(path: file, seed: seed) {
    case .failure(let error):
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        brokenScenarios += 1
    case .success(let report):
        print(report.text(), terminator: "")
        if timeline { print(TraceFormat.timeline(report.trace), terminator: "") }
        passed += report.results.filter(\.passed).count
        failed += report.failedCount
        if !report.passed { failedScenarios += 1 }
        if tracePath != nil {
            var header = "{\"scenario\":"
            appendJSONString(file, to: &header)
            traceOut += header + ",\"seed\":\(report.seed)}\n" + TraceFormat.jsonLines(report.trace)
        }
    }
}
if let tracePath {
    do { try traceOut.write(toFile: tracePath, atomically: true, encoding: .utf8) } catch { fail("cannot write \(tracePath): \(error)") }
}
let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
let unreadable = brokenScenarios > 0 ? ", \(brokenScenarios) could not be read or parsed" : ""
print("\(files.count) scenario(s): \(failedScenarios) failed\(unreadable); \(String(format: "%.2f", elapsed)) s wall time")
print("expectations: \(passed) passed, \(failed) failed")
exit(brokenScenarios > 0 ? 2 : (failedScenarios > 0 ? 1 : 0))

import Foundation
import PushSim

// The `pushsim` command: see `Options.usage` for commands, options and exit codes.

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let (files, missing) = PushSim.scenarioFiles(in: options.paths)
if !missing.isEmpty { Options.fail("no such file or folder: \(missing.joined(separator: ", "))") }
if files.isEmpty { Options.fail("no .scenario files in \(options.paths.joined(separator: ", "))") }

func writeError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

func write(_ text: String, to path: String) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { Options.fail("cannot write \(path): \(error)") }
}

if options.command == .check {
    var bad = 0
    for file in files {
        switch PushSim.loadScenario(path: file) {
        case .success(let s): print("ok    \(file) \"\(s.name)\": \(s.devices.count) device(s), \(s.actions.count) step(s), \(s.expectations.count) expectation(s)")
        case .failure(let error): writeError("\(error)"); bad += 1
        }
    }
    print("\(files.count) file(s) checked, \(bad) with mistakes")
    exit(bad > 0 ? 2 : 0)
}

if options.command == .explain {
    switch PushSim.run(path: files[0], seed: options.seed) {
    case .failure(let error): writeError("\(error)"); exit(2)
    case .success(let report):
        print(Explanation.narrate(report), terminator: "")
        exit(report.passed ? 0 : 1)
    }
}
if let path = options.diagramPath, files.count > 1, !path.hasSuffix(".md") {
    Options.fail("several scenarios need a Markdown diagram file (one diagram per scenario): name it <something>.md")
}

var reports: [ScenarioReport] = []
var unreadable: [String] = []
var traceOut = ""
var nondeterministic = 0
let started = DispatchTime.now().uptimeNanoseconds   // wall clock for the summary only, never inside a run
for file in files {
    switch PushSim.run(path: file, seed: options.seed) {
    case .failure(let error):
        writeError("\(error)")
        unreadable.append(file)
    case .success(let report):
        reports.append(report)
        if options.format == .text {
            print(report.text(), terminator: "")
            if options.timeline { print(TraceFormat.timeline(report.trace), terminator: "") }
        }
        if options.checkDeterminism, case .success(let again) = PushSim.run(path: file, seed: report.seed) {
            if let d = Reports.firstDifference(report.trace, again.trace) {
                nondeterministic += 1
                print("  NOT DETERMINISTIC: trace line \(d.line) differs between two runs with seed \(report.seed)\n    first:  \(d.first)\n    second: \(d.second)")
            } else if options.format == .text {
                print("  deterministic: two runs gave the same \(report.trace.count)-event trace")
            }
        }
        if options.tracePath != nil {
            var header = "{\"scenario\":"
            appendJSONString(file, to: &header)
            traceOut += header + ",\"seed\":\(report.seed)}\n" + TraceFormat.jsonLines(report.trace)
        }
    }
}
if let path = options.tracePath { write(traceOut, to: path) }
if let path = options.junitPath { write(Reports.junit(reports), to: path) }
if let path = options.diagramPath {
    if path.hasSuffix(".md") {
        write(reports.map { "## \($0.scenario.name)\n\n`\($0.scenario.path)`, seed \($0.seed)\n\n```mermaid\n" + SequenceDiagram.mermaid($0) + "```\n" }
            .joined(separator: "\n"), to: path)
    } else if let report = reports.first {
        write(SequenceDiagram.mermaid(report), to: path)
    }
}

let failedScenarios = reports.filter { !$0.passed }.count
if options.format == .json {
    print(Reports.jsonSummary(reports, unreadable: unreadable), terminator: "")
} else {
    let passed = reports.reduce(0) { $0 + $1.results.filter(\.passed).count }
    let failed = reports.reduce(0) { $0 + $1.failedCount }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let extra = (unreadable.isEmpty ? "" : ", \(unreadable.count) could not be read or parsed")
        + (nondeterministic == 0 ? "" : ", \(nondeterministic) not deterministic")
    print("\(files.count) scenario(s): \(failedScenarios) failed\(extra); \(String(format: "%.2f", elapsed)) s wall time")
    print("expectations: \(passed) passed, \(failed) failed")
}
exit(!unreadable.isEmpty ? 2 : (failedScenarios + nondeterministic > 0 ? 1 : 0))

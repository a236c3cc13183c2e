import Foundation
import PushSim

// The `pushsim` command: see `Options.usage` for commands, options and exit codes.
//
// Nothing a run finds is lost when a later one fails: each scenario's lines are flushed as soon as
// it ends, the `--trace` file grows scenario by scenario and `--junit` is rewritten after each
// one. Should PushSim itself crash, `CrashNotice` says which scenario was running.

if CommandLine.arguments.dropFirst().first == "--version" { print("pushsim \(PushSim.version)"); exit(0) }
// Replay lines name this binary, so that they work from any folder (see ScenarioReport.replayProgram).
ScenarioReport.replayProgram = ProgramName.running
// `pushsim serve` has its own flags and never returns (see ServeCommand).
if CommandLine.arguments.dropFirst().first == "serve" { ServeCommand.run(Array(CommandLine.arguments.dropFirst(2))) }
if CommandLine.arguments.dropFirst().first == "replay" { ReplayCommand.run(Array(CommandLine.arguments.dropFirst(2))) }
// `pushsim explore` likewise.
if CommandLine.arguments.dropFirst().first == "explore" { ExploreCommand.run(Array(CommandLine.arguments.dropFirst(2))) }
let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let (found, missing) = PushSim.scenarioFiles(in: options.paths)
if !missing.isEmpty { Options.fail("no such file or folder: \(missing.joined(separator: ", "))") }
if found.isEmpty { Options.fail("no .scenario files in \(options.paths.joined(separator: ", "))") }
let files = ScenarioSelection.filter(found, by: options.filter)
if files.isEmpty { Options.fail("no scenario's path or name contains '\(options.filter ?? "")'") }
CrashNotice.install()
/// Serves the hub to the user's backend, from the first scenario that has `backend external`.
let externalBackends = ExternalBackendServer(address: options.listen, timeoutSeconds: options.backendTimeout)

/// Prints text that may echo input (scenario strings, payloads from the wire) with its control
/// characters escaped.
func say(_ text: String, terminator: String = "\n") { print(text.escapingControlCharacters, terminator: terminator) }
/// `say` for human-readable lines: each cut at 120 columns unless `--wide`.
func show(_ text: String, wrap: Bool = false, terminator: String = "\n") {
    print(TerminalLines.fit(text.escapingControlCharacters, wide: options.wide, wrap: wrap), terminator: terminator)
}

/// Sends what `print` has buffered to standard output now (before an error line, and after each
/// scenario, so that a crash later loses none of it).
func flushStandardOutput() { fflush(nil) }   // nil: every output stream (reading `stdout` is not concurrency-safe in Swift 6)

func writeError(_ text: String) {
    flushStandardOutput()
    FileHandle.standardError.write(Data((text.escapingControlCharacters + "\n").utf8))
}

func write(_ text: String, to path: String) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { Options.fail("cannot write \(path): \(error)") }
}

if options.command == .check {
    var bad = 0
    for file in files {
        switch PushSim.loadScenario(path: file) {
        case .success(let s): show("ok    \(file) \"\(s.name)\": \(s.devices.count) device(s), \(s.actions.count) step(s), \(s.expectations.count) expectation(s)")
        case .failure(let error): writeError(error.rendered(limit: options.maxErrors)); bad += 1
        }
    }
    say("\(files.count) file(s) checked, \(bad) with mistakes")
    exit(bad > 0 ? 2 : 0)
}

if options.command == .explain {
    CrashNotice.running(files[0], seed: options.seed)
    switch PushSim.run(path: files[0], seed: options.seed, externalBackends: externalBackends) {
    case .failure(let error): writeError(error.rendered(limit: options.maxErrors)); exit(2)
    case .success(let report):
        show(Explanation.narrate(report), wrap: true, terminator: "")
        if let path = options.htmlPath { say("page: " + HTMLPages(path: path, several: false).write(report)) }
        exit(report.passed ? 0 : 1)
    }
}
if let seeds = options.seeds { SeedSweep.run(files, seeds: seeds) }
if let path = options.diagramPath, files.count > 1, !path.hasSuffix(".md") {
    Options.fail("several scenarios need a Markdown diagram file (one diagram per scenario): name it <something>.md")
}

let pages = options.htmlPath.map { HTMLPages(path: $0, several: files.count > 1) }
/// The `--trace` file, opened once and appended to after each scenario.
let traceFile: FileHandle? = options.tracePath.map { path in
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
        Options.fail("cannot write \(path)")
    }
    return handle
}

/// Whether anything asked for reads each run's whole trace; if not, runs do not store it.
let traceWanted = options.tracePath != nil || options.timeline || options.htmlPath != nil || options.diagramPath != nil
    || options.checkDeterminism
var reports: [ScenarioReport] = []
var unreadable: [(path: String, message: String)] = []
var nondeterministic = 0
let started = DispatchTime.now().uptimeNanoseconds   // wall clock for the summary only, never inside a run
for file in files {
    CrashNotice.running(file, seed: options.seed)
    switch PushSim.run(path: file, seed: options.seed, externalBackends: externalBackends, keepingTrace: traceWanted) {
    case .failure(let error):
        writeError(error.rendered(limit: options.maxErrors))
        unreadable.append((file, error.description))
    case .success(let report):
        reports.append(report)
        let quiet = options.onlyFailures && report.passed
        if options.format == .text && !quiet {
            show(report.text(), terminator: "")
            if options.timeline { show(TraceFormat.timeline(report.trace), terminator: "") }
        }
        if let pages { let page = pages.write(report); if options.format == .text && !quiet { say("  page: \(page)") } }
        if options.checkDeterminism, case .success(let again) = PushSim.run(path: file, seed: report.seed, externalBackends: externalBackends) {
            if let d = Reports.firstDifference(report.trace, again.trace) {
                nondeterministic += 1
                say("  NOT DETERMINISTIC: trace line \(d.line) differs between two runs with seed \(report.seed)\n    first:  \(d.first)\n    second: \(d.second)")
            } else if options.format == .text && !quiet {
                say("  deterministic: two runs gave the same \(report.trace.count)-event trace")
            }
        }
        if let traceFile {
            var header = "{\"scenario\":"
            appendJSONString(file, to: &header)
            traceFile.write(Data((header + ",\"seed\":\(report.seed)}\n" + TraceFormat.jsonLines(report.trace)).utf8))
        }
    }
    if let path = options.junitPath { write(Reports.junit(reports, unreadable: unreadable), to: path) }
    flushStandardOutput()
}
CrashNotice.running(nil, seed: nil)
try? traceFile?.close()
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
    say(Reports.jsonSummary(reports, unreadable: unreadable.map(\.path)), terminator: "")
} else {
    let passed = reports.reduce(0) { $0 + $1.results.filter(\.passed).count }
    let failed = reports.reduce(0) { $0 + $1.failedCount }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let extra = (unreadable.isEmpty ? "" : ", \(unreadable.count) could not be read or parsed")
        + (nondeterministic == 0 ? "" : ", \(nondeterministic) not deterministic")
    say("\(files.count) scenario(s): \(failedScenarios) failed\(extra); \(String(format: "%.2f", elapsed)) s wall time")
    say("expectations: \(passed) passed, \(failed) failed")
}
flushStandardOutput()
exit(!unreadable.isEmpty ? 2 : (failedScenarios + nondeterministic > 0 ? 1 : 0))

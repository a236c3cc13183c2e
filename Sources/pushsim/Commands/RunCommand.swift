import Foundation
import PushSim

/// `pushsim run FILE-OR-FOLDER...`: runs each scenario and checks its expectations. Prints each
/// report (the failures with the command that replays them) and a summary, or with
/// `--format json` only a JSON summary; writes the trace, JUnit, diagram and pages asked for.
/// `--seeds A..B` sweeps seeds instead (``SeedSweep``). Exit status 0 when every expectation
/// held; 1 when one failed, a run hit a limit or was not deterministic; 2 for a usage error or a
/// scenario that cannot be read or parsed.
///
/// Nothing a run finds is lost when a later one fails: each scenario's lines are flushed as soon as
/// it ends, the `--trace` file grows scenario by scenario and `--junit` is rewritten after each
/// one. Should PushSim itself crash, ``CrashNotice`` says which scenario was running.
struct RunCommand: Command {
    static let name = "run"
    static let summary = "run scenarios and check their expectations"
    static let usage = """
    OVERVIEW: run scenarios and check their expectations; exit 0 when every expectation held.

    USAGE: pushsim run <file-or-folder>... [options]

    OPTIONS:
      --seed <n>           run with this seed instead of the one in each file
      --seeds <a>..<b>     run each scenario once per seed, on all cores, and list the seeds that fail
      --timeline           print each run's trace as a fixed-column timeline
      --trace <file>       write the trace of every run as JSON Lines (one header line per scenario)
      --junit <file>       write JUnit XML, one test case per expectation
      --diagram <file>     write a Mermaid sequence diagram (a .md file holds one per scenario)
      --html <path>        write each run as a self-contained page to step through offline: swim-lanes,
                           the state after every step, verdicts; a defect scenario's page puts its
                           hardened twin beside it. For several scenarios <path> is a folder
      --format text|json   the summary on standard output (default text)
      --check-determinism  run each scenario twice and report the first trace line that differs
      --only-failures      print only the scenarios that fail, then the summary (also --quiet, -q)
      --filter <text>      only the scenarios whose path or name contains <text> (any case)
      --wide               print long lines whole (by default cut at 120 columns, ending in …)
      --max-errors <n>     print at most n mistakes per file, then how many more (default 20)
      --listen <a>:<p>     for `backend external`: where your backend finds the hub (default 127.0.0.1:9310)
      --backend-timeout <s>  wall-clock seconds your backend has to answer one request (default 10)

    EXAMPLES:
      pushsim run Scenarios --only-failures
      pushsim run Scenarios --filter defects --html .build/pages
      pushsim run Scenarios/tutorial/walkthrough.scenario --timeline --wide

    EXIT CODES: 0 every expectation held; 1 one failed, a limit was hit or a run was not deterministic;
                2 usage error or a scenario that cannot be read or parsed
    """

    /// The paths and flags.
    let options: ScenarioOptions

    /// Reads the paths and flags (see ``ScenarioOptions``).
    init(arguments: [String]) { options = ScenarioOptions(arguments: arguments) }

    /// Runs every scenario in path order, one at a time (or sweeps the seeds of `--seeds`).
    func run() -> Int32 {
        let files = options.files()
        CrashNotice.install()
        let output = options.output
        if let seeds = options.seeds { return SeedSweep.run(files, seeds: seeds, output: output) }
        if let path = options.diagramPath, files.count > 1, !path.hasSuffix(".md") {
            PushsimCommand.fail("several scenarios need a Markdown diagram file (one diagram per scenario): name it <something>.md")
        }
        let externalBackends = options.externalBackends()
        let pages = options.htmlPath.map { HTMLPages(path: $0, several: files.count > 1) }
        let traceFile = options.tracePath.map(Self.createTraceFile)
        // Whether anything asked for reads each run's whole trace; if not, runs do not store it.
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
                output.error(error.rendered(limit: options.maxErrors))
                unreadable.append((file, error.description))
            case .success(let report):
                reports.append(report)
                let quiet = options.onlyFailures && report.passed
                if options.format == .text && !quiet {
                    output.show(report.text(), terminator: "")
                    if options.timeline { output.show(TraceFormat.timeline(report.trace), terminator: "") }
                }
                if let pages { let page = pages.write(report); if options.format == .text && !quiet { output.say("  page: \(page)") } }
                if options.checkDeterminism, case .success(let again) = PushSim.run(path: file, seed: report.seed, externalBackends: externalBackends) {
                    if let d = Reports.firstDifference(report.trace, again.trace) {
                        nondeterministic += 1
                        output.say("  NOT DETERMINISTIC: trace line \(d.line) differs between two runs with seed \(report.seed)\n    first:  \(d.first)\n    second: \(d.second)")
                    } else if options.format == .text && !quiet {
                        output.say("  deterministic: two runs gave the same \(report.trace.count)-event trace")
                    }
                }
                if let traceFile {
                    var header = "{\"scenario\":"
                    appendJSONString(file, to: &header)
                    header += ",\"seed\":\(report.seed),\"epoch\":\"\(report.scenario.epoch.iso8601(.zero))\"}\n"
                    traceFile.write(Data((header + TraceFormat.jsonLines(report.trace)).utf8))
                }
            }
            if let path = options.junitPath { Self.write(Reports.junit(reports, unreadable: unreadable), to: path) }
            output.flush()
        }
        CrashNotice.running(nil, seed: nil)
        try? traceFile?.close()
        if let path = options.diagramPath { Self.writeDiagrams(of: reports, to: path) }

        let failedScenarios = reports.filter { !$0.passed }.count
        if options.format == .json {
            output.say(Reports.jsonSummary(reports, unreadable: unreadable.map(\.path)), terminator: "")
        } else {
            let passed = reports.reduce(0) { $0 + $1.results.filter(\.passed).count }
            let failed = reports.reduce(0) { $0 + $1.failedCount }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let extra = (unreadable.isEmpty ? "" : ", \(unreadable.count) could not be read or parsed")
                + (nondeterministic == 0 ? "" : ", \(nondeterministic) not deterministic")
            output.say("\(files.count) scenario(s): \(failedScenarios) failed\(extra); \(String(format: "%.2f", elapsed)) s wall time")
            output.say("expectations: \(passed) passed, \(failed) failed")
        }
        output.flush()
        return !unreadable.isEmpty ? 2 : (failedScenarios + nondeterministic > 0 ? 1 : 0)
    }

    /// The `--trace` file, created empty (or emptied), to be appended to after each scenario.
    private static func createTraceFile(_ path: String) -> FileHandle {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            PushsimCommand.fail("cannot write \(path)")
        }
        return handle
    }

    /// `--diagram`: every report's Mermaid sequence diagram in one Markdown file (`*.md`, a section
    /// per scenario), else the one report's diagram alone.
    private static func writeDiagrams(of reports: [ScenarioReport], to path: String) {
        if path.hasSuffix(".md") {
            write(reports.map { "## \($0.scenario.name)\n\n`\($0.scenario.path)`, seed \($0.seed)\n\n```mermaid\n" + SequenceDiagram.mermaid($0) + "```\n" }
                .joined(separator: "\n"), to: path)
        } else if let report = reports.first {
            write(SequenceDiagram.mermaid(report), to: path)
        }
    }

    /// Writes `text` to the file at `path` (replacing it); a failure is a usage error.
    private static func write(_ text: String, to path: String) {
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { PushsimCommand.fail("cannot write \(path): \(error)") }
    }
}

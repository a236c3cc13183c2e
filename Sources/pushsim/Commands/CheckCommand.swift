import PushSim

/// `pushsim check FILE-OR-FOLDER...`: reads and checks scenario files without running them; prints
/// a line per well-formed file and every mistake of the others as `file:line:col` (at most
/// `--max-errors` per file). Exit status 0 when every file is well-formed, 2 otherwise.
struct CheckCommand: Command {
    static let name = "check"
    static let summary = "only read and check scenario files; report every mistake"
    static let usage = """
    OVERVIEW: read and check scenario files without running them; report every mistake as file:line:col.

    USAGE: pushsim check <file-or-folder>... [--max-errors <n>] [--filter <text>] [--wide]

    OPTIONS:
      --max-errors <n>     print at most n mistakes per file, then how many more (default 20)
      --filter <text>      only the files whose path or scenario name contains <text> (any case)
      --wide               print long lines whole (by default cut at 120 columns, ending in …)

    EXIT CODES: 0 every file is well-formed; 2 a file has mistakes, or a usage error
    """

    /// The paths and flags (those that only run uses are refused by name).
    let options: ScenarioOptions

    /// Reads run's flags (see ``ScenarioOptions``); those that only make sense for a run are a
    /// usage error.
    init(arguments: [String]) {
        options = ScenarioOptions(arguments: arguments)
        if options.seed != nil || options.tracePath != nil || options.junitPath != nil || options.timeline
            || options.diagramPath != nil || options.htmlPath != nil || options.onlyFailures {
            PushsimCommand.fail("check only reads files; --seed, --trace, --junit, --diagram, --html, --only-failures and --timeline belong to run")
        }
    }

    /// Loads each file: `ok` and its counts on standard output, or its mistakes on standard error;
    /// then how many files had mistakes.
    func run() -> Int32 {
        let files = options.files()
        CrashNotice.install()
        let output = options.output
        var bad = 0
        for file in files {
            switch PushSim.loadScenario(path: file) {
            case .success(let s): output.show("ok    \(file) \"\(s.name)\": \(s.devices.count) device(s), \(s.actions.count) step(s), \(s.expectations.count) expectation(s)")
            case .failure(let error): output.error(error.rendered(limit: options.maxErrors)); bad += 1
            }
        }
        output.say("\(files.count) file(s) checked, \(bad) with mistakes")
        return bad > 0 ? 2 : 0
    }
}

import PushSim

/// `pushsim explain FILE`: runs one scenario and narrates it for someone learning how the parts
/// fit, one block per causal chain, prose wrapped at ``TerminalLines/width`` columns unless
/// `--wide`; `--html` writes the run's teaching page too. Exit status 0 when every expectation
/// held, 1 when one failed, 2 for a usage error or a file that cannot be parsed.
struct ExplainCommand: Command {
    static let name = "explain"
    static let summary = "run one scenario and narrate it step by step, for learning how the parts fit"
    static let usage = """
    OVERVIEW: run one scenario and narrate it for someone learning how the parts fit: one block per
    causal chain (a step and everything it caused), each part's doing in a sentence.

    USAGE: pushsim explain <file> [--seed <n>] [--html <file>] [--wide]

    OPTIONS:
      --seed <n>           run with this seed instead of the file's
      --html <file>        also write the run as a page to step through offline (see pushsim run --help)
      --wide               print long lines whole (by default cut at 120 columns, ending in …)

    EXIT CODES: 0 every expectation held; 1 one failed; 2 usage error or a file that cannot be parsed
    """

    /// The one path (a file, or a folder whose first scenario is explained) and the flags.
    let options: ScenarioOptions

    /// Reads run's flags (see ``ScenarioOptions``); `--filter`, several paths or a path ending in
    /// `/` are usage errors.
    init(arguments: [String]) {
        options = ScenarioOptions(arguments: arguments)
        if options.filter != nil { PushsimCommand.fail("explain takes one scenario file; --filter belongs to run and check") }
        if options.paths.count != 1 || options.paths[0].hasSuffix("/") { PushsimCommand.fail("explain takes one scenario file") }
    }

    /// Runs the scenario (with `--seed`, if given) and prints its narration.
    func run() -> Int32 {
        let file = options.files()[0]
        CrashNotice.install()
        let output = options.output
        CrashNotice.running(file, seed: options.seed)
        switch PushSim.run(path: file, seed: options.seed, externalBackends: options.externalBackends()) {
        case .failure(let error): output.error(error.rendered(limit: options.maxErrors)); return 2
        case .success(let report):
            output.show(Explanation.narrate(report), wrap: true, terminator: "")
            if let path = options.htmlPath { output.say("page: " + HTMLPages(path: path, several: false).write(report)) }
            return report.passed ? 0 : 1
        }
    }
}

/// `pushsim run --help`, `pushsim check --help`, `pushsim explain --help`: each command's own
/// options (`pushsim --help` lists them all).
extension Options {
    static func help(_ command: Command) -> String {
        switch command {
        case .run: return """
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
        case .check: return """
            OVERVIEW: read and check scenario files without running them; report every mistake as file:line:col.

            USAGE: pushsim check <file-or-folder>... [--max-errors <n>] [--filter <text>] [--wide]

            OPTIONS:
              --max-errors <n>     print at most n mistakes per file, then how many more (default 20)
              --filter <text>      only the files whose path or scenario name contains <text> (any case)
              --wide               print long lines whole (by default cut at 120 columns, ending in …)

            EXIT CODES: 0 every file is well-formed; 2 a file has mistakes, or a usage error
            """
        case .explain: return """
            OVERVIEW: run one scenario and narrate it for someone learning how the parts fit: one block per
            causal chain (a step and everything it caused), each part's doing in a sentence.

            USAGE: pushsim explain <file> [--seed <n>] [--html <file>] [--wide]

            OPTIONS:
              --seed <n>           run with this seed instead of the file's
              --html <file>        also write the run as a page to step through offline (see pushsim run --help)
              --wide               print long lines whole (by default cut at 120 columns, ending in …)

            EXIT CODES: 0 every expectation held; 1 one failed; 2 usage error or a file that cannot be parsed
            """
        }
    }
}

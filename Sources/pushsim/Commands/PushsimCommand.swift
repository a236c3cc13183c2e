/// The `pushsim` program as a whole, above its commands: the overview that `pushsim --help` prints,
/// and the usage error of the command line itself, which run, check and explain share.
enum PushsimCommand {
    /// The overview: every command with its summary, the options of run, check and explain, and
    /// the exit codes. Printed by `pushsim --help`, `pushsim help`, and (exit status 2) `pushsim`
    /// alone.
    static let usage = """
    OVERVIEW: PushSim runs push-notification scenarios on virtual time, the same on every run.

    USAGE: pushsim run <file-or-folder>... [--seed <n>] [--trace <file>] [--timeline] [--junit <file>]
                                          [--format text|json] [--check-determinism] [--html <file-or-folder>]
                                          [--only-failures] [--filter <text>] [--wide]
                                          [--listen <ipv4>:<port>] [--backend-timeout <s>]   (see pushsim run --help)
           pushsim check <file-or-folder>... [--max-errors <n>] [--filter <text>] [--wide]
           pushsim explain <file> [--seed <n>] [--html <file>] [--wide]
           pushsim explore [--flavour tutorial|hardened] [--seeds <a>..<b>] [--shard <i>/<n>] …  (pushsim explore --help)
           pushsim replay <record-file>   (\(ReplayCommand.summary))
           pushsim serve [--port <n>] [--host <ipv4>] [--seed <n>] [--scenario <file>] [--record <file>]  (… --help)

    COMMANDS:
      run                 \(RunCommand.summary)
      check               \(CheckCommand.summary)
      explain             \(ExplainCommand.summary)
      explore             \(ExploreCommand.summary)
      serve               \(ServeCommand.summary)
      replay              \(ReplayCommand.summary)

    ARGUMENTS:
      <file-or-folder>    .scenario files, or folders searched recursively for them

    OPTIONS:
      --seed <n>          run with this seed instead of the one in each file
      --trace <file>      write the trace of every run as JSON Lines (one header line per scenario)
      --timeline          print each run's trace as a fixed-column timeline
      --junit <file>      write JUnit XML, one test case per expectation
      --diagram <file>    write a Mermaid sequence diagram of the run (a .md file holds one per scenario)
      --html <path>       write each run as a self-contained page to step through in a browser (a folder
                          for several scenarios; a defect scenario's page shows its hardened twin beside it)
      --only-failures     print only the scenarios that fail, then the summary (also --quiet)
      --filter <text>     only the scenarios whose path or name contains <text> (any case)
      --wide              print long lines whole (by default lines are cut at 120 columns, ending in …)
      --format text|json  the summary on standard output (default text)
      --check-determinism run each scenario twice and report the first trace line that differs
      --seeds <a>..<b>    run each scenario once per seed of the range, on all cores, and list the seeds that fail
      --max-errors <n>    print at most n mistakes per file, then how many more (default 20)
      --listen <a>:<p>    for scenarios with `backend external "<url>"`: where your backend finds the hub
                          (default 127.0.0.1:9310; connection string: Endpoint=http://<a>:<p>/;
                          SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=hub-full-key-stand-in,
                          hub notifyusers)
      --backend-timeout <s>  wall-clock seconds your backend has to answer one request (default 10)
      -h, --help          show this help
      --version           print PushSim's version

    EXIT CODES:
      0  every expectation held
      1  an expectation failed, a run hit a limit, or a run was not deterministic (the replay command is printed)
      2  usage error, or a scenario that cannot be read or parsed (file:line:col is printed)
    """

    /// The short usage that follows a usage error of run, check, explain or of the line itself.
    static let shortUsage = "Usage: pushsim run|check <file-or-folder>... (see pushsim --help)"

    /// Ends the process on a usage error: `pushsim: <message>`, a blank line and ``shortUsage`` on
    /// standard error, exit status 2. Also how run and explain end when a file cannot be written
    /// or the hub cannot be served to an external backend.
    static func fail(_ message: String) -> Never { UsageError.end("pushsim: \(message)", usage: shortUsage) }
}

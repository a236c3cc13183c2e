import Foundation

/// The command line, parsed. Usage errors end the process with status 2.
struct Options {
    enum Command: String { case run, check, explain }
    enum Format: String { case text, json }

    var command: Command = .run
    var paths: [String] = []
    var seed: UInt64?
    var tracePath: String?
    var junitPath: String?
    var timeline = false
    var format: Format = .text
    var checkDeterminism = false
    var diagramPath: String?
    /// Diagnostics printed per file before `… and N more` (`--max-errors`, default 20).
    var maxErrors = 20
    /// `run --seeds A..B`: run each scenario once per seed and report the seeds that fail.
    var seeds: ClosedRange<UInt64>?
    /// Where the hub is served to external backends (`--listen`, IPv4:port).
    var listen = ExternalBackendServer.defaultAddress
    /// Wall-clock seconds an external backend has to answer one request (`--backend-timeout`).
    var backendTimeout = 10
    /// `--html <file-or-folder>`: write each run as a teaching page (see `TeachingPage`).
    var htmlPath: String?
    /// `--wide`: print long lines whole instead of eliding them at ``TerminalLines/width`` columns.
    var wide = false
    /// `--only-failures` (or `--quiet`): print only the scenarios that fail, then the summary.
    var onlyFailures = false
    /// `--filter <text>`: only the scenarios whose path or name contains it (any case).
    var filter: String?

    static let usage = """
    OVERVIEW: PushSim runs push-notification scenarios on virtual time, the same on every run.

    USAGE: pushsim run <file-or-folder>... [--seed <n>] [--trace <file>] [--timeline] [--junit <file>]
                                          [--format text|json] [--check-determinism] [--html <file-or-folder>]
                                          [--only-failures] [--filter <text>] [--wide]
                                          [--listen <ipv4>:<port>] [--backend-timeout <s>]   (see pushsim run --help)
           pushsim check <file-or-folder>... [--max-errors <n>] [--filter <text>]
           pushsim explain <file> [--seed <n>] [--html <file>] [--wide]
           pushsim explore [--flavour tutorial|hardened] [--seeds <a>..<b>] [--shard <i>/<n>] …  (pushsim explore --help)
           pushsim replay <record-file>   (re-runs a pushsim serve --record file, reports the first answer that differs)
           pushsim serve [--port <n>] [--host <ipv4>] [--seed <n>] [--scenario <file>] [--record <file>]  (… --help)

    COMMANDS:
      run                 run scenarios and check their expectations
      check               only read and check scenario files; report every mistake
      explain             run one scenario and narrate it step by step, for learning how the parts fit
      explore             generate worlds from seeds, check every run, shrink what fails to a scenario
      serve               serve one simulated world over HTTP/1.1 on loopback for real SDKs (see pushsim serve --help)

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

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("pushsim: \(message)\n\nUsage: pushsim run|check <file-or-folder>... (see pushsim --help)\n".utf8))
        exit(2)
    }

    static func parse(_ raw: [String]) -> Options {
        var arguments = raw
        if arguments.isEmpty { print(usage); exit(2) }
        if arguments.contains("-h") || arguments.contains("--help") || arguments.first == "help" {
            let named = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
            print(named.flatMap { Command(rawValue: $0) }.map(help) ?? usage)
            exit(0)
        }
        var options = Options()
        let name = arguments.removeFirst()
        guard let command = Command(rawValue: name) else { fail("unknown command '\(name)'; the commands are run, check, explain, explore and serve") }
        options.command = command
        var reader = ArgumentReader(arguments, fail: fail)
        while let arg = reader.next() {
            switch arg {
            case "--seed": options.seed = reader.seed(arg)
            case "--seeds": options.seeds = reader.seedRange(arg)
            case "--trace": options.tracePath = reader.value(arg)
            case "--junit": options.junitPath = reader.value(arg)
            case "--diagram": options.diagramPath = reader.value(arg)
            case "--timeline": options.timeline = true
            case "--check-determinism": options.checkDeterminism = true
            case "--max-errors": options.maxErrors = reader.number(arg, in: 1...Int.max)
            case "--listen": options.listen = reader.value(arg)
            case "--backend-timeout": options.backendTimeout = reader.number(arg, in: 1...3_600)
            case "--html": options.htmlPath = reader.value(arg)
            case "--wide": options.wide = true
            case "--only-failures", "--quiet", "-q": options.onlyFailures = true
            case "--filter": options.filter = reader.value(arg)
            case "--format":
                let v = reader.value(arg)
                guard let f = Format(rawValue: v) else { fail("--format takes text or json, not '\(v)'") }
                options.format = f
            default:
                if arg.hasPrefix("-") { fail("unknown option '\(arg)'") }
                options.paths.append(arg)
            }
        }
        if options.paths.isEmpty { fail("name at least one scenario file or folder") }
        if command == .check && (options.seed != nil || options.tracePath != nil || options.junitPath != nil || options.timeline
                                 || options.diagramPath != nil || options.htmlPath != nil || options.onlyFailures) {
            fail("check only reads files; --seed, --trace, --junit, --diagram, --html, --only-failures and --timeline belong to run")
        }
        if command == .explain && options.filter != nil { fail("explain takes one scenario file; --filter belongs to run and check") }
        if command == .explain && (options.paths.count != 1 || options.paths[0].hasSuffix("/")) {
            fail("explain takes one scenario file")
        }
        return options
    }
}

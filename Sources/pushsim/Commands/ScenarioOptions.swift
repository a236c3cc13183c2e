import PushSim

/// The scenario paths and flags that `run`, `check` and `explain` share. One reader serves the
/// three, so each accepts every flag below: the ones a command does not use are ignored, except
/// those it refuses by name (see ``CheckCommand`` and ``ExplainCommand``). Mistakes end the
/// process as usage errors (``PushsimCommand/fail(_:)``, status 2).
struct ScenarioOptions {
    /// `--format`: how the summary is printed on standard output.
    enum Format: String { case text, json }

    /// The `.scenario` files and folders named, as given.
    var paths: [String] = []
    /// `--seed`: run with this seed instead of each file's.
    var seed: UInt64?
    /// `--trace <file>`: the trace of every run as JSON Lines.
    var tracePath: String?
    /// `--junit <file>`: JUnit XML, one test case per expectation.
    var junitPath: String?
    /// `--timeline`: print each run's trace as a fixed-column timeline.
    var timeline = false
    /// `--format text|json` (default text).
    var format: Format = .text
    /// `--check-determinism`: run each scenario twice and compare the traces.
    var checkDeterminism = false
    /// `--diagram <file>`: a Mermaid sequence diagram (a `.md` file holds one per scenario).
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
    /// `--only-failures` (or `--quiet`, `-q`): print only the scenarios that fail, then the summary.
    var onlyFailures = false
    /// `--filter <text>`: only the scenarios whose path or name contains it (any case).
    var filter: String?

    /// Reads `arguments` (the words after the command's name): flags in any order, every other
    /// word a path; at least one path is required.
    init(arguments: [String]) {
        var reader = ArgumentReader(arguments, fail: PushsimCommand.fail)
        while let arg = reader.next() {
            switch arg {
            case "--seed": seed = reader.seed(arg)
            case "--seeds": seeds = reader.seedRange(arg)
            case "--trace": tracePath = reader.value(arg)
            case "--junit": junitPath = reader.value(arg)
            case "--diagram": diagramPath = reader.value(arg)
            case "--timeline": timeline = true
            case "--check-determinism": checkDeterminism = true
            case "--max-errors": maxErrors = reader.number(arg, in: 1...Int.max)
            case "--listen": listen = reader.value(arg)
            case "--backend-timeout": backendTimeout = reader.number(arg, in: 1...3_600)
            case "--html": htmlPath = reader.value(arg)
            case "--wide": wide = true
            case "--only-failures", "--quiet", "-q": onlyFailures = true
            case "--filter": filter = reader.value(arg)
            case "--format":
                let v = reader.value(arg)
                guard let f = Format(rawValue: v) else { PushsimCommand.fail("--format takes text or json, not '\(v)'") }
                format = f
            default:
                if arg.hasPrefix("-") { PushsimCommand.fail("unknown option '\(arg)'") }
                paths.append(arg)
            }
        }
        if paths.isEmpty { PushsimCommand.fail("name at least one scenario file or folder") }
    }

    /// Where the command's text goes, lines cut unless `--wide`.
    var output: Output { Output(wide: wide) }

    /// The scenario files that ``paths`` name (folders searched recursively), narrowed by
    /// `--filter`. A usage error when a path does not exist, when no file is found, or when the
    /// filter keeps none.
    func files() -> [String] {
        let (found, missing) = PushSim.scenarioFiles(in: paths)
        if !missing.isEmpty { PushsimCommand.fail("no such file or folder: \(missing.joined(separator: ", "))") }
        if found.isEmpty { PushsimCommand.fail("no .scenario files in \(paths.joined(separator: ", "))") }
        let files = ScenarioSelection.filter(found, by: filter)
        if files.isEmpty { PushsimCommand.fail("no scenario's path or name contains '\(filter ?? "")'") }
        return files
    }

    /// Serves the hub to the user's backend, started by the first scenario that has
    /// `backend external` (`--listen`, `--backend-timeout`).
    func externalBackends() -> ExternalBackendServer {
        ExternalBackendServer(address: listen, timeoutSeconds: backendTimeout)
    }
}

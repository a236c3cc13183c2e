/// One command of `pushsim`, named by the first word of the command line (`pushsim run …`) and
/// laid out as swift-argument-parser lays out a subcommand: its name, a one-line summary, its help,
/// a parse of the words after its name, and a run. `main.swift` holds the table of commands.
protocol Command {
    /// The word that names the command on the command line (`run`).
    static var name: String { get }

    /// What the command does, in one line (the overview, `pushsim --help`, prints it).
    static var summary: String { get }

    /// The command's help text, printed by `pushsim <name> --help`.
    static var usage: String { get }


    /// The help that `arguments` (the words after the command's name) ask for, or nil when they ask
    /// for a run. By default ``usage`` when `-h` or `--help` is among them, wherever it is.
    static func help(in arguments: [String]) -> String?

    /// Reads `arguments`, the words after the command's name (help already answered, see
    /// ``help(in:)``). A mistake ends the process as a usage error, with status 2.
    init(arguments: [String])

    /// Runs the command; returns the process's exit status (0, 1 or 2, as its help says).
    func run() -> Int32
}

extension Command {
    /// ``usage`` when `-h` or `--help` is among `arguments`, wherever it is; else nil.
    static func help(in arguments: [String]) -> String? {
        arguments.contains("-h") || arguments.contains("--help") ? usage : nil
    }
}

import Foundation
import PushSim

// The `pushsim` command line: `pushsim <command> <its arguments>`, the command one of the table
// below (see `PushsimCommand.usage` for the overview, each command's `usage` for its own).

/// Every command, by the word that names it.
let commands: [any Command.Type] = [
    RunCommand.self, CheckCommand.self, ExplainCommand.self, ExploreCommand.self, ServeCommand.self, ReplayCommand.self,
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--version" { print("pushsim \(PushSim.version)"); exit(0) }
// Replay lines name this binary, so that they work from any folder (see ScenarioReport.replayProgram).
ScenarioReport.replayProgram = ProgramName.running

if let command = commands.first(where: { $0.name == arguments.first }) {
    let rest = Array(arguments.dropFirst())
    if let help = command.help(in: rest) { print(help); exit(0) }
    exit(command.init(arguments: rest).run())
}
// No command first: the overview (with status 2 when the line is empty), a command's help
// (`pushsim help run`), or an unknown command.
if arguments.isEmpty { print(PushsimCommand.usage); exit(2) }
if arguments.first == "help" {
    let topic = arguments.dropFirst().first
    print(commands.first { $0.name == topic }?.usage ?? PushsimCommand.usage)
    exit(0)
}
if arguments.contains("-h") || arguments.contains("--help") { print(PushsimCommand.usage); exit(0) }
PushsimCommand.fail("unknown command '\(arguments[0])'; the commands are \(commands.map { $0.name }.joined(separator: ", "))")

import Foundation

/// How a printed command names this program: the absolute path of the binary that is running
/// (`/home/me/PushSim/.build/debug/pushsim`, quoted if need be), or `pushsim` when it was found on
/// `PATH` under that name, so that a replay line can be pasted in any folder.
enum ProgramName {
    /// The running binary's name, as described above.
    static var running: String {
        let invoked = CommandLine.arguments.first ?? "pushsim"
        if !invoked.contains("/") { return invoked.isEmpty ? "pushsim" : invoked }   // found on PATH
        // Made absolute from the folder it was started in, as invoked (a symlink such as
        // `.build/debug` stays as the user knows it).
        let path = URL(fileURLWithPath: invoked, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            .standardizedFileURL.path
        return path.contains(where: { " '\"$`\\".contains($0) }) ? "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" : path
    }
}

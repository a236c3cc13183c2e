import Foundation

/// Paths of the package, found from this file's location (Tests/PushSimTests/…).
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = root.appendingPathComponent("Scenarios").path
    static let fixtures = root.appendingPathComponent("Tests/PushSimTests/Fixtures").path

    /// The `pushsim` executable built next to the test bundle.
    static var pushsim: String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [here.appendingPathComponent("pushsim"), here.deletingLastPathComponent().appendingPathComponent("pushsim")]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]).path
    }
}

/// Runs the `pushsim` executable as a separate process; returns exit code, stdout and stderr.
func runPushsim(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Repo.pushsim)
    process.arguments = arguments
    process.currentDirectoryURL = Repo.root
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// A fresh temporary file path.
func temporaryPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-tests-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

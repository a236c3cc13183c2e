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
/// The output goes to files, not pipes: reading a pipe to its end in Foundation traps when a
/// signal interrupts the read (`EINTR`, seen under load), and a child that fills the pipe not
/// read first would block forever.
func runPushsim(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Repo.pushsim)
    process.arguments = arguments
    process.currentDirectoryURL = Repo.root
    let outPath = temporaryPath("stdout-\(UUID().uuidString)"), errPath = temporaryPath("stderr-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(atPath: outPath); try? FileManager.default.removeItem(atPath: errPath) }
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath)), err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let outData = try Data(contentsOf: URL(fileURLWithPath: outPath)), errData = try Data(contentsOf: URL(fileURLWithPath: errPath))
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// A fresh temporary file path.
func temporaryPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-tests-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

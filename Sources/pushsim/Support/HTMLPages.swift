import Foundation
import PushSim

/// `--html <path>`: writes each run as a teaching page (`TeachingPage`). One scenario: `path` is
/// the page's file (or a folder to put it in). Several: `path` is a folder, created if need be,
/// and each page is named `<folder>-<file>.html` after the scenario file and the folder it is in
/// (`defects-a-retry-reuses-dead-id.html`). A defect scenario's page holds its hardened twin too.
struct HTMLPages {
    /// `--html`: the page's file, or the folder of the pages.
    let path: String
    /// Whether several scenarios run (then ``path`` is a folder).
    let several: Bool

    /// Pages for `path`; with `several`, the folder is created if need be (a usage error if it
    /// cannot be).
    init(path: String, several: Bool) {
        self.path = path
        self.several = several
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if several && !(exists && isDirectory.boolValue) {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
            catch { PushsimCommand.fail("--html: cannot make the folder \(path) for several pages: \(error)") }
        }
    }

    /// Where `report`'s page goes.
    func destination(for report: ScenarioReport) -> String {
        var isDirectory: ObjCBool = false
        guard several || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) else { return path }
        let parts = report.scenario.path.split(separator: "/").map(String.init)
        let file = (parts.last ?? "scenario").replacingOccurrences(of: ".scenario", with: "")
        let folder = parts.count > 1 ? parts[parts.count - 2] + "-" : ""
        return (path.hasSuffix("/") ? path : path + "/") + folder + file + ".html"
    }

    /// Writes `report`'s page; returns where.
    @discardableResult
    func write(_ report: ScenarioReport) -> String {
        let target = destination(for: report)
        let page = TeachingPage.html(TeachingPage.runs(for: report))
        do { try page.write(toFile: target, atomically: true, encoding: .utf8) } catch { PushsimCommand.fail("cannot write \(target): \(error)") }
        return target
    }
}

import Foundation
import Testing
@testable import PushSimScenario

/// `operator send <format> file "<path>"`: a payload read from a file beside the scenario, and
/// the Simulator's `.apns` format checked as `xcrun simctl push` checks it.
@Suite struct PayloadFileTests {
    /// A scratch folder holding `files`, and the path of a scenario file inside it.
    private func folder(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-payload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir.appendingPathComponent("t.scenario").path
    }

    private func parse(_ action: String, files: [String: String]) throws -> Result<Scenario, ScenarioParseFailure> {
        ScenarioParser.parse("scenario \"t\"\ndevice bob ios user bob\nat 1s " + action, path: try folder(files))
    }

    @Test func aFileIsReadBesideTheScenario() throws {
        let apns = "{\"Simulator Target Bundle\":\"com.pushsim.notifyusers\",\"aps\":{\"alert\":\"Hi\"}}"
        let s = try parse("operator send apple file \"hi.apns\" to \"username:bob\"", files: ["hi.apns": apns]).get()
        #expect(s.actions.first?.kind == .operator(.send(format: "apple", payload: apns, tagExpression: "username:bob")))
        let toast = "<toast><visual><binding template=\"ToastText01\"><text id=\"1\">Hi</text></binding></visual></toast>"
        let w = try parse("operator test-send windows file \"toast.xml\"", files: ["toast.xml": toast]).get()
        #expect(w.actions.first?.kind == .operator(.testSend(format: "windows", payload: toast, tagExpression: nil)))
    }

    @Test func misusedFilesArePositioned() throws {
        let long = "{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 4_100) + "\"}}"
        let cases: [(String, [String: String], Int, String)] = [
            ("operator send apple file \"none.apns\"", [:], 32, "cannot read the payload file \"none.apns\""),
            ("operator send apple file", [:], 31, "expected the payload file's path in double quotes, e.g. file \"goal.apns\", found end of line"),
            ("operator send fcmv1 file \"a.apns\"", ["a.apns": "{\"aps\":{}}"], 32, "the .apns file \"a.apns\" is an APNs payload, sent with fcmv1"),
            ("operator send apple file \"a.apns\"", ["a.apns": "{\"aps\":"], 32, "the .apns file \"a.apns\" is not JSON"),
            ("operator send apple file \"a.apns\"", ["a.apns": "[1]"], 32, "the .apns file \"a.apns\" does not hold a JSON object"),
            ("operator send apple file \"a.apns\"", ["a.apns": "{\"alert\":\"Hi\"}"], 32, "the .apns file \"a.apns\" has no \"aps\" object"),
            ("operator send apple file \"a.apns\"", ["a.apns": long], 32, "the .apns file \"a.apns\" is 4120 bytes"),
            ("operator send apple file \"a.apns\"", ["a.apns": "{\"Simulator Target Bundle\":\"com.other\",\"aps\":{}}"], 32,
             "the .apns file \"a.apns\" targets the app \"com.other\", not the simulated app \"com.pushsim.notifyusers\""),
            ("operator send apple file \"a.apns\"", ["a.apns": "{\"Simulator Target Bundle\":7,\"aps\":{}}"], 32,
             "the .apns file \"a.apns\" has a \"Simulator Target Bundle\" that is not a string"),
        ]
        for (action, files, column, message) in cases {
            guard case .failure(let f) = try parse(action, files: files), let d = f.diagnostics.first else {
                Issue.record("\(action) parsed"); continue
            }
            #expect(d.location.line == 3 && d.location.column == column, "\(action): \(d.location)")
            #expect(d.message.hasPrefix(message), "\(action): \(d.message)")
        }
    }
}

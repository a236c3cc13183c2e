import Foundation
import PushSimNetwork

extension ScenarioParser {
    /// The payload of an operator send read from a file (`operator send apple file "goal.apns"`),
    /// found relative to the scenario file's folder.
    ///
    /// Any format may take its payload from a file; the file must be UTF-8. A file whose name ends
    /// in `.apns` is the Simulator's payload format, and must also be what `xcrun simctl push`
    /// accepts (Citations §1.12; A-XC114, SIMCTL): an `apple` send; a JSON object at the top level; an `aps` key holding an
    /// object; at most 4,096 bytes; and a `Simulator Target Bundle` key, when present, naming the
    /// simulated app's bundle id. The file is sent as it is, that key included: to APNs it is one
    /// more custom key, which the app receives.
    static func payloadFile(_ name: ScenarioToken, format: String, scenarioPath: String,
                            at location: SourceLocation) throws(ScenarioDiagnostic) -> String {
        let folder = URL(fileURLWithPath: scenarioPath).deletingLastPathComponent()
        let url = name.text.hasPrefix("/") ? URL(fileURLWithPath: name.text) : folder.appendingPathComponent(name.text)
        let hint = "the file's path is relative to the scenario file's folder"
        let quoted = "\"\(name.text)\""
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ScenarioDiagnostic(location: location, message: "cannot read the payload file \(quoted)", hint: hint)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioDiagnostic(location: location, message: "the payload file \(quoted) is not UTF-8 text", hint: hint)
        }
        guard name.text.lowercased().hasSuffix(".apns") else { return text }
        try checkSimulatorPayload(text, byteCount: data.count, format: format, quoted: quoted, at: location)
        return text
    }

    /// The bundle id the Simulator delivers a `.apns` file to when the file names one: the
    /// simulated app's (``SimulationIdentity``).
    static let simulatedAppBundleID = SimulationIdentity().app.bundleID

    /// `xcrun simctl push`'s rules for a payload file (§1.12; A-XC114, SIMCTL).
    private static func checkSimulatorPayload(_ text: String, byteCount: Int, format: String, quoted: String,
                                              at location: SourceLocation) throws(ScenarioDiagnostic) {
        func refuse(_ message: String, _ hint: String) -> ScenarioDiagnostic {
            ScenarioDiagnostic(location: location, message: "the .apns file \(quoted) \(message)", hint: hint)
        }
        guard format == "apple" else {
            throw refuse("is an APNs payload, sent with \(format)", "write operator send apple file \(quoted)")
        }
        guard byteCount <= 4_096 else {
            throw refuse("is \(byteCount) bytes", "the Simulator takes a payload of at most 4096 bytes, as APNs does")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch {
            throw refuse("is not JSON: \(error)", "a .apns file is one JSON object, e.g. {\"aps\":{\"alert\":\"Hi\"}}")
        }
        guard json.objectMembers != nil else {
            throw refuse("does not hold a JSON object", "a .apns file is one JSON object, e.g. {\"aps\":{\"alert\":\"Hi\"}}")
        }
        guard json["aps"]?.objectMembers != nil else {
            throw refuse("has no \"aps\" object", "the Simulator needs an \"aps\" key holding the notification, e.g. \"aps\":{\"alert\":\"Hi\"}")
        }
        if let target = json["Simulator Target Bundle"] {
            guard let bundle = target.stringValue else {
                throw refuse("has a \"Simulator Target Bundle\" that is not a string", "write \"Simulator Target Bundle\": \"\(simulatedAppBundleID)\"")
            }
            guard bundle == simulatedAppBundleID else {
                throw refuse("targets the app \"\(bundle)\", not the simulated app \"\(simulatedAppBundleID)\"",
                             "write \"Simulator Target Bundle\": \"\(simulatedAppBundleID)\", or remove the key")
            }
        }
    }
}

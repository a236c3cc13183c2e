import Foundation
import Testing
import PushSim

/// Correlation ids follow a notification from the send step to the device that shows it, across
/// every layer, also when it waited: for the hub's token fetch, in APNs/FCM/WNS offline storage.
@Suite struct CausalityTests {
    @Test(arguments: ScenarioLibraryTests.files)
    func everyShownNotificationBelongsToTheStepThatSentIt(_ path: String) throws {
        let report = try PushSim.run(path: path).get()
        var stepOf: [String: String] = [:]
        for e in report.trace where e.kind.name == "scenario.step" { stepOf[e.correlation] = e[.step]?.description }
        for shown in report.trace where shown.kind.name == "notification.shown" {
            if shown[.service]?.description == "webpush" {
                // A browser's: the step is the application server's push to that browser, or a
                // send through the hub (a device's `via browser`, an operator's template send)
                // that carries the text's message (an operator's template send is labelled without
                // its properties).
                let step = stepOf[shown.correlation] ?? "(no step)"
                let text = shown[.text]?.description ?? ""
                let message = text.range(of: ": ").map { String(text[$0.upperBound...]) } ?? text
                let pushed = step.contains(" push ") && step.contains(" to \(shown.host) ")
                let throughHub = (step.contains(" send ") && step.contains(message)) || step.hasPrefix("operator send template")
                #expect(pushed || throughHub,
                        "\(path): \(shown.host) showed \(text) in chain \(shown.correlation), whose step is \(step)")
                continue
            }
            let text = shown[.text]?.description ?? ""
            guard let colon = text.range(of: ": ") else { continue }
            let message = String(text[colon.upperBound...])
            let step = stepOf[shown.correlation] ?? "(no step)"
            // A send straight to FCM carries a v1 body, which its step does not quote: the chain's
            // step must be that send, to the device's token.
            if step.hasPrefix("operator send fcm to token of ") {
                #expect(step == "operator send fcm to token of \(shown.host)", "\(path): \(shown.host) showed \(text) in the chain of \(step)")
                continue
            }
            var quoted = ""
            appendJSONString(message, to: &quoted)
            #expect(step.contains(" send \(quoted) to ") || (message.isEmpty && step.contains(" send ")),
                    "\(path): \(shown.host) showed \(text) in chain \(shown.correlation), whose step is \(step)")
            // The step's recipient is the device's user, except where a defect routes messages to
            // others on purpose (g: the sender's from: tag; i: an injected username: tag).
            let crossUserOnPurpose = path.hasSuffix("g-sender-tag-or.scenario") || path.hasSuffix("i-tag-injection.scenario")
            if let user = report.scenario.devices.first(where: { $0.name == shown.host })?.user, !crossUserOnPurpose {
                #expect(step.contains(" to \(user) via "), "\(path): \(shown.host) (user \(user)) showed a step of \(step)")
            }
        }
    }

    @Test func storedAPNsNotificationIsDeliveredInItsSendersChain() throws {
        let report = try PushSim.run(path: Repo.scenarios + "/services/apns-offline-keeps-last.scenario").get()
        let shown = try #require(report.trace.first { $0.kind.name == "notification.shown" })
        let step = report.trace.first { $0.kind.name == "scenario.step" && $0.correlation == shown.correlation }
        #expect(step?[.step]?.description.contains("send \"three\"") == true)
        // The delivery happened at the reconnect, an hour later than the send.
        #expect(shown.time > .zero + .minutes(59))
    }
}

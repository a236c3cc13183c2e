import PushSimKernel
import PushSimNetwork
import Testing
@testable import PushSimScenario

/// `fault hub …`: faults of the notification hub itself, said in a scenario and read by
/// ``FaultWords`` as the push services' are, reaching every REST request to the hub (a backend's
/// registration, an operator's send) with the hub's own answers.
@Suite struct HubFaultScenarioTests {
    /// Runs `text`; also hands back the simulation, to read its journal afterwards.
    private func run(_ text: String) throws -> (ScenarioReport, Simulation) {
        let scenario = try ScenarioParser.parse(text, path: "hub-faults.scenario").get()
        var simulation: Simulation?
        let report = try ScenarioRunner.run(scenario) { simulation = $0 }.get()
        return (report, try #require(simulation))
    }

    /// The answers the hub gave, in the order asked.
    private func hubAnswers(_ simulation: Simulation) -> [RequestJournal.Entry] {
        simulation.world.journal.entries.filter { $0.to == "hub" }
    }

    private func failures(_ report: ScenarioReport) -> String {
        report.results.filter { !$0.passed }.map { "\($0)" }.joined(separator: "\n")
    }

    /// A one-second hub outage: Bob's registration through the hardened backend gets the hub's
    /// 503, which the backend reports (`backend.hub-error`) and answers 503 with Retry-After; the
    /// recommended app tries again and gets through once the outage is over. An operator's send
    /// during the outage is refused 503, one after it is accepted and delivered.
    @Test func anOutageRefusesARegistrationAndASendUntilItEnds() throws {
        let (report, simulation) = try run(#"""
            scenario "hub outage"
            seed 5
            backend hardened
            fault hub outage from 1s to 2s

            device bob-iphone ios user bob client recommended

            at 0s     bob-iphone install
            at 1s     bob-iphone login bob password bob
            at 1500ms operator send apple "{\"aps\":{\"alert\":\"During\"}}"
            at 10s    operator send apple "{\"aps\":{\"alert\":\"After\"}}"

            expect operator send status 503
            expect operator send status 201
            expect bob-iphone shows "After" by 11s
            expect bob-iphone never shows "During"
            expect hub has 1 registration
            expect backend-hardened received at least 1 request with status 503 and answer header "Retry-After" "30"
            expect hub received at least 2 requests with status 503

            """#)
        #expect(report.passed, "\(failures(report))")
        let reported = report.trace.filter { $0.kind.name == "backend.hub-error" }
        #expect(!reported.isEmpty)
        #expect(reported.allSatisfy { "\($0[.error] ?? .string(""))".contains("ServerBusyException (503)") }, "\(reported)")
        let refused = hubAnswers(simulation).filter { $0.result?.status == 503 }
        #expect(refused.allSatisfy { $0.sentAt >= .zero + .seconds(1) && $0.sentAt < .zero + .seconds(2) })
        #expect(refused.allSatisfy { $0.injected?.hasPrefix("outage retry-after 30s from 1s to 2s") == true })
        #expect(report.trace.contains { $0.kind.name == "fault.injected" && $0.layer == "hub" })
    }

    /// A throttle is 429 with `Retry-After` and the hub's XML error body; `count` bounds it.
    @Test func aThrottleIs429WithRetryAfterAndItsCountBoundsIt() throws {
        let (report, simulation) = try run(#"""
            scenario "hub throttle"
            seed 6
            fault hub throttle from 0s to 1h retry-after 45s count 1

            at 1s operator send apple "{\"aps\":{\"alert\":\"One\"}}"
            at 2s operator send apple "{\"aps\":{\"alert\":\"Two\"}}"

            expect operator send status 429
            expect operator send status 201
            expect hub received 1 request with status 429 and answer header "Retry-After" "45"

            """#)
        #expect(report.passed, "\(failures(report))")
        let answers = hubAnswers(simulation).compactMap(\.result?.response)
        #expect(answers.map(\.status) == [429, 201])
        let throttled = try #require(answers.first)
        #expect(throttled.headers["Content-Type"] == "application/xml; charset=utf-8")
        let document = try XMLDocumentParser.parse(throttled.body)
        #expect(document.root.name == "Error" && document.root.first("Code")?.text == "429")
        #expect(document.root.first("Detail")?.text.contains(".TrackingId:") == true)
    }

    /// A hub fault is about every request to the hub: a token, device or app is refused where it
    /// is written, naming it; so are the token states of the push services.
    @Test func theHubTakesNoScopeAndNoTokenState() throws {
        for (text, message, column) in [
            ("fault hub outage from 0s to 1h device bob-iphone", "the hub takes no device", 32),
            ("fault hub slow 2s from 0s to 1h token abc", "the hub takes no token", 33),
            ("fault hub internal-error from 0s to 1h app com.pushsim.notifyusers", "the hub takes no app", 40),
            ("fault hub Unregistered from 0s to 1h device bob-iphone", "unknown fault", 11),
        ] {
            guard case .failure(let failure) = ScenarioParser.parse("scenario \"s\"\n" + text + "\n", path: "s.scenario") else {
                Issue.record("\(text) was accepted")
                continue
            }
            let rendered = failure.rendered(limit: 5)
            #expect(rendered.contains(message), "\(rendered)")
            #expect(rendered.contains("s.scenario:2:\(column)"), "\(rendered)")
        }
        var words = FaultWords(service: "hub", kind: "outage")
        #expect(words.problem == nil)
        words.scope = .app("com.pushsim.notifyusers")
        #expect(words.problem?.part == .scope)
        #expect(words.problem?.message.contains("app") == true)
        #expect(FaultWords.services.last == "hub")
        #expect(FaultWords.kinds(for: "hub") == FaultWords.commonKinds)
    }

    /// Every kind the hub takes parses and reaches the hub.
    @Test func everyHubKindReachesTheHub() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "kinds"
            fault hub outage from 0s to 1s retry-after 5s
            fault hub throttle from 0s to 1s probability 1/2
            fault hub internal-error from 0s to 1s count 3
            fault hub slow 2s from 0s to 1s
            fault hub lost-answer from 0s to 1s

            """, path: "kinds.scenario").get()
        let simulation = Simulation(seed: 1)
        #expect(ScenarioRunner.applyNetworkAndFaults(of: scenario, to: simulation).isEmpty)
        #expect(simulation.hub.faults.map(\.effect.name) == ["outage", "throttle", "internal-error", "slow", "lost-answer"])
        #expect(simulation.hub.faults.map(\.label) == [
            "outage retry-after 5s from 0s to 1s", "throttle retry-after 30s from 0s to 1s probability 1/2",
            "internal-error from 0s to 1s count 3", "slow 2s from 0s to 1s", "lost-answer from 0s to 1s",
        ])
        #expect(simulation.apns.faults.isEmpty && simulation.fcm.faults.isEmpty && simulation.wns.faults.isEmpty)
    }
}

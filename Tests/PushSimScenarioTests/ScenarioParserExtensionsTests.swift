import PushSimKernel
import PushSimNetwork
import Testing
@testable import PushSimScenario
import PushSimDevices
import PushSimBackend
import PushSimServices

/// Statements added for the hardened backend and the defect scenarios: accounts, per-device
/// backend and OS version, logout, register with tags, hand-written requests.
@Suite struct ScenarioParserExtensionsTests {
    private func parse(_ body: String) -> Result<Scenario, ScenarioParseFailure> {
        ScenarioParser.parse("scenario \"t\"\ndevice bob-iphone ios user bob\n" + body, path: "t.scenario")
    }

    @Test func accountAndDeviceOptions() throws {
        let s = try parse("""
            account bob password "s3cret pass"
            device alice-pixel android user alice client recommended backend hardened os 14
            device carl-iphone ios os 17 backend tutorial
            """).get()
        #expect(s.settings == [.account(user: "bob", password: "s3cret pass")])
        #expect(s.devices[1].backend == .hardened)
        #expect(s.devices[1].osVersion == 14)
        #expect(s.devices[1].client == .recommended)
        #expect(s.devices[2].osVersion == 17)
        #expect(s.devices[2].backend == .tutorial)
        #expect(s.devices[0].backend == nil && s.devices[0].osVersion == nil)
    }

    @Test func externalBackendsForTheScenarioADeviceAndAPopulation() throws {
        let s = try parse("""
            backend external "http://127.0.0.1:8080/app/"
            device alice-pixel android user alice backend external "http://localhost:9000"
            device carl-iphone ios backend tutorial
            devices fans 2 ios backend external "http://10.0.0.2"
            """).get()
        #expect(s.settings == [.externalBackend(ExternalBackendAddress(host: "127.0.0.1", port: 8080, basePath: "/app"))])
        #expect(s.devices[1].externalBackend == ExternalBackendAddress(host: "localhost", port: 9000))
        #expect(s.devices[1].externalBackend?.ipv4 == "127.0.0.1" && s.devices[1].backend == nil)
        #expect(s.devices[2].backend == .tutorial && s.devices[2].externalBackend == nil)
        #expect(s.devices[3].externalBackend == ExternalBackendAddress(host: "10.0.0.2", port: 80))
        // Which host each device talks to: its own choice, else the scenario's; one host per address.
        let external = ExternalBackends(s)
        #expect(external.addresses.map(\.description) == ["http://127.0.0.1:8080/app", "http://localhost:9000", "http://10.0.0.2:80"])
        #expect(s.devices.map { external.hostName(for: $0) } == ["external-backend", "external-backend-2", nil, "external-backend-3", "external-backend-3"])
    }

    @Test func aLaterBuiltInBackendSettingReplacesAnExternalOne() throws {
        let s = try parse("backend external \"http://127.0.0.1:8080\"\nbackend hardened\n").get()
        #expect(ExternalBackends(s).addresses.isEmpty)
    }

    @Test func logoutRegisterAndRequestActions() throws {
        let s = try parse("""
            at 1s bob-iphone logout
            bob-iphone register
            bob-iphone register with tags username:alice,topic:news
            bob-iphone request POST "/api/register?handle=AB" auth none
            bob-iphone request PUT "/api/register/reg-1" auth basic bob bob body "{\\"Platform\\":\\"apns\\"}"
            bob-iphone request DELETE "/api/register/x" auth header "Bearer abc"
            bob-iphone request GET "/api/nothing"
            expect bob-iphone request status 500
            """).get()
        #expect(s.actions.map(\.kind) == [
            .device(.logout), .device(.register(tags: [])), .device(.register(tags: ["username:alice", "topic:news"])),
            .device(.request(method: "POST", target: "/api/register?handle=AB", authorization: .none, body: nil)),
            .device(.request(method: "PUT", target: "/api/register/reg-1", authorization: .basic(user: "bob", password: "bob"),
                             body: #"{"Platform":"apns"}"#)),
            .device(.request(method: "DELETE", target: "/api/register/x", authorization: .header("Bearer abc"), body: nil)),
            .device(.request(method: "GET", target: "/api/nothing", authorization: .none, body: nil)),
        ])
        #expect(s.expectations.first?.kind == .status(device: "bob-iphone", operation: .request, code: 500))
    }

    /// `register with tags` reads its list as `operator put installation … with tags` does: one
    /// word or string, split at commas, an empty piece kept for the backend or hub to refuse (it
    /// used to glue the words that followed together and drop empty pieces).
    @Test func registerAndPutInstallationReadTagListsAlike() throws {
        let s = try parse("""
            bob-iphone register with tags a,,b
            bob-iphone register with tags "x,y"
            operator put installation of bob-iphone with tags a,,b
            """).get()
        #expect(s.actions.map(\.kind) == [.device(.register(tags: ["a", "", "b"])), .device(.register(tags: ["x", "y"])),
                                          .operator(.installation(device: "bob-iphone", change: .put(tags: ["a", "", "b"], userID: nil)))])
    }

    @Test func mistakesInTheNewStatementsAreLocated() {
        let cases: [(String, Int, Int, String)] = [
            ("device x ios os 0", 3, 17, "OS version 0 is out of range"),
            ("device x ios backend sturdy", 3, 22, "unknown backend \"sturdy\""),
            ("device x ios os 12 os 13", 3, 20, "os is given twice in one device declaration"),
            ("account bob", 3, 12, "expected \"password\", found end of line"),
            ("bob-iphone request FETCH \"/x\"", 3, 20, "unknown HTTP method \"FETCH\""),
            ("bob-iphone request GET \"x\"", 3, 24, "the request path must start with /"),
            ("bob-iphone request GET \"/x\" auth maybe", 3, 34, "expected none, basic or header after auth, found \"maybe\""),
            ("bob-iphone register with tags", 3, 30, "expected a tag after tags, found end of line"),
            // One word of tags, as for an installation: a second word is not glued onto the first.
            ("bob-iphone register with tags news sports", 3, 36, "unexpected \"sports\" after the end of the statement"),
        ]
        for (line, row, column, message) in cases {
            guard case .failure(let f) = parse(line) else { Issue.record("\(line) parsed"); continue }
            #expect(f.diagnostics.count == 1, "\(line)")
            #expect(f.diagnostics.first?.location.line == row, "\(line)")
            #expect(f.diagnostics.first?.location.column == column, "\(line): \(f.diagnostics.first?.description ?? "")")
            #expect(f.diagnostics.first?.message == message, "\(line)")
        }
    }

    @Test func expectationsOnHubJournalInvariantsOrderAndNever() throws {
        let s = try parse("""
            at 1s operator send apple "{}" to "a && b"
            operator send windows "<toast/>"
            expect bob-iphone never shows "x"
            expect bob-iphone shows "a" then "b" then "c"
            expect hub has 2 registrations for "username:bob" by +0s
            expect hub has 1 registration
            expect apns received 3 requests with status 200
            expect backend received 1 request
            expect invariant cross-user-delivery broken
            expect invariant dead-handles holds
            expect operator send status 400
            """).get()
        #expect(s.actions.map(\.kind) == [.operator(.send(format: "apple", payload: "{}", tagExpression: "a && b")),
                                          .operator(.send(format: "windows", payload: "<toast/>", tagExpression: nil))])
        #expect(s.actions.map(\.device) == ["operator", "operator"])
        #expect(s.expectations.map(\.kind) == [
            .neverShows(device: "bob-iphone", text: "x"),
            .showsInOrder(device: "bob-iphone", texts: ["a", "b", "c"]),
            .hubRegistrations(tag: "username:bob", count: 2), .hubRegistrations(tag: nil, count: 1),
            .received(host: "apns", count: 3, conditions: [.status(200)]), .received(host: "backend", count: 1, conditions: []),
            .invariant(id: "cross-user-delivery", holds: false), .invariant(id: "dead-handles", holds: true),
            .status(device: "operator", operation: .send, code: 400),
        ])
        #expect(s.expectations[2].by == .zero + .seconds(1))
    }

    @Test func mistakesInTheNewExpectationsAreLocated() {
        let cases: [(String, Int, String)] = [
            ("expect invariant nonsense holds", 18, "unknown invariant \"nonsense\""),
            ("expect invariant dead-handles maybe", 31, "expected holds or broken, found \"maybe\""),
            ("expect hub has two registrations", 16, "expected a number of registrations or installations, found \"two\""),
            ("expect apns got 3 requests", 13, "expected \"received\", found \"got\""),
            ("operator send mpns \"x\"", 15, "unknown format \"mpns\""),
            ("network loss 1/10 between bob-iphone nowhere", 38, "unknown host \"nowhere\" in a network rule"),
        ]
        for (line, column, message) in cases {
            guard case .failure(let f) = parse(line) else { Issue.record("\(line) parsed"); continue }
            #expect(f.diagnostics.count == 1, "\(line): \(f)")
            #expect(f.diagnostics.first?.location.column == column, "\(line): \(f.diagnostics.first?.description ?? "")")
            #expect(f.diagnostics.first?.message == message, "\(line)")
        }
    }

    @Test func hubStateByATimeIsReadAtThatTime() throws {
        let scenario = try ScenarioParser.parse("""
            scenario "t"
            hub ttl 1d
            device bob-iphone ios user bob
            at 0s bob-iphone install
            at 1s bob-iphone login bob password bob
            expect hub has 1 registration for "username:bob" by 2s
            advance 2d
            expect hub has 0 registrations for "username:bob" by +0s
            expect hub has 0 registrations
            """, path: "t.scenario").get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.results.map(\.passed) == [true, true, true])
        #expect(report.results.allSatisfy { $0.seen.isEmpty })
    }
}

/// Hub credential problems, per-link latency and the report's settings line.
@Suite struct WorldSettingsTests {
    private func run(_ text: String) throws -> ScenarioReport {
        try ScenarioRunner.run(try ScenarioParser.parse(text, path: "t.scenario").get()).get()
    }

    @Test func settingsParse() throws {
        let s = try ScenarioParser.parse("""
            scenario "t"
            hub credentials apns wrong
            hub credentials wns missing
            network latency 1s..2s between hub fcm
            """, path: "t.scenario").get()
        #expect(s.settings == [.hubCredentials(service: "apns", problem: "wrong"), .hubCredentials(service: "wns", problem: "missing"),
                               .linkLatency(min: .seconds(1), max: .seconds(2), between: ["hub", "fcm"])])
        guard case .failure(let f) = ScenarioParser.parse("scenario \"t\"\nhub credentials gcm wrong", path: "t.scenario") else {
            Issue.record("parsed"); return
        }
        #expect(f.diagnostics.first?.message == "unknown push service \"gcm\"")
    }

    @Test func wrongAPNsKeyMeansForbiddenAndADropWithTheReason() throws {
        let report = try run("""
            scenario "t"
            hub credentials apns wrong
            device bob-iphone ios user bob
            device alice-pixel android user alice
            at 0s bob-iphone install
            at 0s alice-pixel install
            at 1s bob-iphone login bob password bob
            at 1s alice-pixel login alice password alice
            at 5s alice-pixel send "x" to bob via apns
            expect bob-iphone shows nothing
            expect apns received 1 request with status 403
            """)
        #expect(report.passed)
        let drop = report.trace.first { $0.kind.name == "notification.dropped" && $0.layer == "hub" }
        #expect(drop?[.reason]?.description == "APNs 403 InvalidProviderToken")
    }

    @Test func missingWNSCredentialsDropWithoutCallingWNS() throws {
        let report = try run("""
            scenario "t"
            hub credentials wns missing
            device carol-surface windows user carol
            device alice-pixel android user alice
            at 0s carol-surface install
            at 0s alice-pixel install
            at 1s carol-surface login carol password carol
            at 1s alice-pixel login alice password alice
            at 5s alice-pixel send "x" to carol via wns
            expect carol-surface shows nothing
            expect wns received 0 requests
            """)
        #expect(report.passed)
        #expect(report.trace.contains { $0.kind.name == "notification.dropped" && $0[.reason]?.description == "the hub has no windows credentials" })
    }

    @Test func linkLatencyAppliesToThatLinkOnly() throws {
        let report = try run("""
            scenario "t"
            network latency 3s between bob-iphone backend
            device bob-iphone ios user bob
            at 0s bob-iphone install
            at 1s bob-iphone login bob password bob
            expect bob-iphone create-id status 200 by 8s
            expect bob-iphone create-id status 200 by 7s
            """)
        // Sent at 1 s, at the backend at 4 s, two hub round trips of 20 ms (default 10 ms each way),
        // back at the phone at 7.04 s: after 7 s, before 8 s.
        #expect(report.results.map(\.passed) == [true, false])
        #expect(report.text().contains("settings: epoch 2026-01-01T00:00:00Z; backend tutorial; latency 3s..3s bob-iphone<->backend; devices: bob-iphone (ios, client tutorial)"))
    }

    @Test func theSettingsNameThreeDevicesOfMoreThanSix() throws {
        let seven = try run("scenario \"t\"\ndevices fans 7 ios,android user fan-{n}\n")
        #expect(seven.text().contains("devices: fans-1 (ios, client tutorial), fans-2 (android, client tutorial), fans-3 (ios, client tutorial), … (7 in all)\n"))
        let six = try run("scenario \"t\"\ndevices fans 6 ios user fan-{n}\n")
        #expect(six.text().contains("devices: fans-1 (ios, client tutorial), fans-2 (ios, client tutorial), fans-3 (ios, client tutorial), "
                                    + "fans-4 (ios, client tutorial), fans-5 (ios, client tutorial), fans-6 (ios, client tutorial)\n"))
    }
}

/// `fault apns|fcm|wns …`: service faults as data.
@Suite struct FaultStatementTests {
    @Test func faultsParseIntoServiceFaults() throws {
        let s = try ScenarioParser.parse("""
            scenario "t"
            fault apns outage from 10s to 40s
            fault fcm throttle from 0s to 1m retry-after 45s probability 1/4
            fault wns internal-error from 1s to 2s
            fault apns slow 3s from 0s to 1h
            """, path: "t.scenario").get()
        #expect(s.settings == [
            .fault(service: "apns", ServiceFault(effect: .outage(retryAfter: .seconds(30)), from: .zero + .seconds(10), to: .zero + .seconds(40))),
            .fault(service: "fcm", ServiceFault(effect: .throttle(retryAfter: .seconds(45)), from: .zero, to: .zero + .minutes(1),
                                                probability: Ratio(1, 4))),
            .fault(service: "wns", ServiceFault(effect: .internalError, from: .zero + .seconds(1), to: .zero + .seconds(2))),
            .fault(service: "apns", ServiceFault(effect: .slow(.seconds(3)), from: .zero, to: .zero + .hours(1))),
        ])
    }

    @Test func faultMistakesAreLocated() {
        let cases: [(String, Int, String)] = [
            ("fault gcm outage from 0s to 1s", 7, "unknown push service \"gcm\""),
            ("fault apns meltdown from 0s to 1s", 12, "unknown fault \"meltdown\""),
            ("fault apns outage from 5s to 5s", 30, "the fault ends at 5s, not after it starts"),
            ("fault apns outage from +1s to 5s", 24, "fault windows are absolute times"),
            ("fault apns outage from 0s to 5s probability 3/2", 45, "ratio \"3/2\" is more than 1"),
        ]
        for (line, column, message) in cases {
            guard case .failure(let f) = ScenarioParser.parse("scenario \"t\"\n" + line, path: "t.scenario") else {
                Issue.record("\(line) parsed"); continue
            }
            #expect(f.diagnostics.count == 1, "\(line): \(f)")
            #expect(f.diagnostics.first?.location.column == column, "\(line): \(f.diagnostics.first?.description ?? "")")
            #expect(f.diagnostics.first?.message == message, "\(line): \(f.diagnostics.first?.message ?? "")")
        }
    }
}

/// Operator scheduled sends, cancels and test sends.
@Suite struct OperatorActionTests {
    @Test func scheduleCancelAndTestSendParse() throws {
        let s = try ScenarioParser.parse("""
            scenario "t"
            at 10s operator schedule apple "{}" at +2h to "username:bob"
            operator schedule fcmv1 "{}" at 5h
            operator cancel scheduled
            operator test-send windows "<toast/>" to "topic:beta"
            expect operator test-send results 10
            """, path: "t.scenario").get()
        let twoHoursAfterTen = VirtualTime.zero + VirtualDuration.seconds(7_210)
        let fiveHours = VirtualTime.zero + VirtualDuration.hours(5)
        let expected: [ScenarioActionKind] = [
            .operator(.schedule(format: "apple", payload: "{}", at: twoHoursAfterTen, tagExpression: "username:bob")),
            .operator(.schedule(format: "fcmv1", payload: "{}", at: fiveHours, tagExpression: nil)),
            .operator(.cancelScheduled),
            .operator(.testSend(format: "windows", payload: "<toast/>", tagExpression: "topic:beta")),
        ]
        #expect(s.actions.map(\.kind) == expected)
        #expect(s.expectations.map(\.kind) == [.testSendResults(count: 10)])
    }

    @Test func operatorMistakesAreLocated() {
        for (line, column, message) in [
            ("operator shout apple \"{}\"", 10, "unknown operator action \"shout\""),
            // `broadcast` is APNs' broadcast on a channel (§1.20): it takes the payload, no format.
            ("operator broadcast apple \"{}\"", 20, "expected the Live Activity payload in double quotes, found \"apple\""),
            ("operator schedule apple \"{}\" in 2h", 30, "expected \"at\", found \"in\""),
            ("operator cancel everything", 17, "expected \"scheduled\", found \"everything\""),
        ] {
            guard case .failure(let f) = ScenarioParser.parse("scenario \"t\"\n" + line, path: "t.scenario") else {
                Issue.record("\(line) parsed"); continue
            }
            #expect(f.diagnostics.first?.location.column == column, "\(line): \(f.diagnostics.first?.description ?? "")")
            #expect(f.diagnostics.first?.message == message, "\(line): \(f.diagnostics.first?.message ?? "")")
        }
    }
}

/// `expect hub notification <n>|"<id>" state <State>`
@Suite struct NotificationStateExpectationTests {
    @Test func parsesAndRefusesUnknownStates() throws {
        let text = "scenario \"t\"\nexpect hub notification \"NH-20260101000005020-377f9f105465547fab4971669a07d002-05\" state Completed\n"
            + "expect hub notification 2 state Cancelled"
        let s = try ScenarioParser.parse(text, path: "t.scenario").get()
        #expect(s.expectations.map(\.kind) == [.notificationState(.id("NH-20260101000005020-377f9f105465547fab4971669a07d002-05"), state: "Completed"),
                                               .notificationState(.number(2), state: "Cancelled")])
        for (line, column) in [("expect hub notification 0 state Completed", 25), ("expect hub notification ntf-000001 state Completed", 25),
                               ("expect hub notification", 1)] {
            guard case .failure(let f) = ScenarioParser.parse("scenario \"t\"\n" + line, path: "t.scenario") else {
                Issue.record("parsed: \(line)"); continue
            }
            #expect(f.diagnostics.first?.message.contains("notification") == true, "\(f.diagnostics)")
            if column > 1 { #expect(f.diagnostics.first?.location.column == column) }
        }
        guard case .failure(let f) = ScenarioParser.parse("scenario \"t\"\nexpect hub notification \"x\" state Done", path: "t.scenario") else {
            Issue.record("parsed"); return
        }
        #expect(f.diagnostics.first?.message == "unknown notification state \"Done\"")
        #expect(f.diagnostics.first?.location.column == 35)
    }
}

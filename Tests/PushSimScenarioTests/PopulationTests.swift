import Testing
import PushSimKernel
import PushSimDevices
import PushSimBackend
@testable import PushSimScenario

/// Populations: many devices declared, driven and checked in one statement each.
@Suite("Populations")
struct PopulationTests {
    private func parse(_ text: String) -> Result<Scenario, ScenarioParseFailure> { ScenarioParser.parse(text, path: "t.scenario") }

    @Test func aPopulationIsNamedMembersOnPlatformsInTurn() throws {
        let s = try parse("scenario \"p\"\ndevices fans 5 ios,android user fan-{n} client recommended backend hardened os 17\n").get()
        #expect(s.devices.map(\.name) == ["fans-1", "fans-2", "fans-3", "fans-4", "fans-5"])
        #expect(s.devices.map(\.platform) == [.ios, .android, .ios, .android, .ios])
        #expect(s.devices.map(\.user) == ["fan-1", "fan-2", "fan-3", "fan-4", "fan-5"])
        #expect(s.devices.allSatisfy { $0.client == .recommended && $0.backend == .hardened && $0.osVersion == 17 })
        #expect(s.devices.allSatisfy { $0.location.line == 2 && $0.location.column == 1 })
        let plain = try parse("scenario \"p\"\ndevices crowd 2 windows\n").get()
        #expect(plain.devices.map(\.user) == ["crowd-1", "crowd-2"])
        #expect(plain.devices.allSatisfy { $0.client == .tutorial && $0.backend == nil && $0.osVersion == nil })
    }

    @Test func listingAPlatformTwiceWeightsIt() throws {
        let s = try parse("scenario \"p\"\ndevices crowd 6 ios,ios,android\n").get()
        #expect(s.devices.map(\.platform) == [.ios, .ios, .android, .ios, .ios, .android])
    }

    @Test func aUserPatternWithoutPlaceholderIsOneUserOnEveryMember() throws {
        let s = try parse("scenario \"p\"\ndevices bobs 3 ios,android,windows user bob\n").get()
        #expect(s.devices.map(\.user) == ["bob", "bob", "bob"])
    }

    @Test func populationsAndDevicesMix() throws {
        let s = try parse("scenario \"p\"\ndevice bob ios\ndevices fans 2 android\ndevices crowd 2 windows\ndevice alice android\n").get()
        #expect(s.devices.map(\.name) == ["bob", "fans-1", "fans-2", "crowd-1", "crowd-2", "alice"])
    }

    @Test func aStepOnAPopulationIsAStepPerMemberInOrder() throws {
        let s = try parse("scenario \"p\"\ndevices fans 3 ios user f{n}\nat 1s fans install\nat 2s fans login\nfans logout\n").get()
        #expect(s.actions.count == 9)
        #expect(s.actions.map(\.device) == ["fans-1", "fans-2", "fans-3", "fans-1", "fans-2", "fans-3", "fans-1", "fans-2", "fans-3"])
        #expect(s.actions.prefix(3).allSatisfy { $0.kind == .device(.install) && $0.time == .zero + .seconds(1) })
        #expect(s.actions[3..<6].map(\.kind) == [.device(.login(user: "f1", password: "f1")), .device(.login(user: "f2", password: "f2")),
                                                 .device(.login(user: "f3", password: "f3"))])
        #expect(s.actions.suffix(3).allSatisfy { $0.kind == .device(.logout) && $0.time == .zero + .seconds(2) })
        #expect(s.actions[3].location == SourceLocation(file: "t.scenario", line: 4, column: 7))
    }

    @Test func placeholdersAreFilledPerMember() throws {
        let s = try parse("""
            scenario "p"
            devices fans 2 android user fan-{n}
            fans login password secret-{n}
            fans login guest-{n} password {user}!
            fans register with tags team:{n},fan:{user}
            fans send "hello from {user}" to bob via fcm
            fans offline
            fans online
            fans launch
            fans refresh-handle
            fans uninstall
            fans request GET "/api/x?n={n}" auth basic {user} pw-{n}
            """).get()
        let first = s.actions.filter { $0.device == "fans-1" }.map(\.kind)
        let second = s.actions.filter { $0.device == "fans-2" }.map(\.kind)
        #expect(first == [.device(.login(user: "fan-1", password: "secret-1")), .device(.login(user: "guest-1", password: "fan-1!")),
                          .device(.register(tags: ["team:1", "fan:fan-1"])), .device(.send(message: "hello from fan-1", to: "bob", via: [.fcm])),
                          .device(.offline), .device(.online), .device(.launch), .device(.refreshHandle), .device(.uninstall),
                          .device(.request(method: "GET", target: "/api/x?n=1", authorization: .basic(user: "fan-1", password: "pw-1"), body: nil))])
        #expect(second[0] == .device(.login(user: "fan-2", password: "secret-2")))
        #expect(second[2] == .device(.register(tags: ["team:2", "fan:fan-2"])))
    }

    @Test func otherBracesInAStepAreLeftAsWritten() throws {
        let s = try parse("scenario \"p\"\ndevices fans 1 ios\nfans send \"{x} {n}\" to bob via apns\n").get()
        #expect(s.actions.map(\.kind) == [.device(.send(message: "{x} 1", to: "bob", via: [.apns]))])
    }

    @Test func aMemberIsAnOrdinaryDevice() throws {
        let s = try parse("""
            scenario "p"
            at 0s fans-2 install
            devices fans 3 ios
            fans-3 login bob password bob
            expect fans-1 shows nothing
            """).get()
        #expect(s.actions.map(\.device) == ["fans-2", "fans-3"])
        #expect(s.expectations.map(\.kind) == [.showsNothing(device: "fans-1")])
    }

    @Test func expectationsParse() throws {
        let s = try parse("""
            scenario "p"
            devices fans 10 ios
            expect every device in fans shows "a" by 5s
            expect no device in fans shows nothing
            expect none of fans show "b"
            expect 3 of fans show 2 notifications
            expect at least 4 of fans shows 1 notification
            expect at most 0 of fans show "c"
            """).get()
        let members = (1...10).map { "fans-\($0)" }
        #expect(s.expectations.map(\.kind) == [
            .population(name: "fans", members: members, quantifier: .every, predicate: .shows("a")),
            .population(name: "fans", members: members, quantifier: .none, predicate: .showsNothing),
            .population(name: "fans", members: members, quantifier: .none, predicate: .shows("b")),
            .population(name: "fans", members: members, quantifier: .exactly(3), predicate: .showsCount(2)),
            .population(name: "fans", members: members, quantifier: .atLeast(4), predicate: .showsCount(1)),
            .population(name: "fans", members: members, quantifier: .atMost(0), predicate: .shows("c")),
        ])
        #expect(s.expectations[0].by == .zero + .seconds(5))
    }

    @Test func aDeviceNamedLikeAQuantifierIsStillADevice() throws {
        let s = try parse("scenario \"p\"\ndevice every ios\ndevice no ios\nexpect every shows nothing\nexpect no shows \"x\"\n").get()
        #expect(s.expectations.map(\.kind) == [.showsNothing(device: "every"), .shows(device: "no", text: "x")])
    }

    /// 30 fans on three platforms; the operator's alert goes to the ten iPhones only.
    private func goalRun(_ expectations: String) throws -> ScenarioReport {
        let scenario = try parse("""
            scenario "p"
            backend hardened
            devices fans 30 ios,android,windows user fan-{n} client recommended
            device outsider android
            at 0s fans install
            at 0s outsider install
            at 5s fans login
            at 10s operator send apple "{\\"aps\\":{\\"alert\\":\\"Goal\\"}}"
            \(expectations)
            """).get()
        return try ScenarioRunner.run(scenario).get()
    }

    @Test func expectationsRangeOverThePopulation() throws {
        let report = try goalRun("""
            expect every device in fans shows "Goal" by 20s
            expect 10 of fans show "Goal"
            expect no device in fans shows "Goal"
            expect no device in fans shows "Offside"
            expect at least 10 of fans show "Goal"
            expect at most 9 of fans show "Goal"
            expect 20 of fans show nothing
            expect every device in fans shows 1 notification
            expect none of fans shows 2 notifications
            expect 10 of fans show "Goal" by 9s
            expect 0 of fans show "Goal" by 9s
            """)
        #expect(report.results.map(\.passed) == [false, true, false, true, true, false, true, false, true, false, true])
        #expect(report.results[0].seen == "10 of 30 devices in fans showed \"Goal\"; not fans-2, fans-3, fans-5, fans-6, fans-8, … (20 in all)")
        #expect(report.results[2].seen == "10 of 30 devices in fans showed \"Goal\"; among them fans-1, fans-4, fans-7, fans-10, fans-13, … (10 in all)")
        #expect(report.results[5].seen.hasPrefix("10 of 30 devices in fans showed \"Goal\"; among them fans-1,"))
        #expect(report.results[7].seen == "10 of 30 devices in fans showed 1 notification; not fans-2 (0 shown), fans-3 (0 shown), fans-5 (0 shown), fans-6 (0 shown), fans-8 (0 shown), … (20 in all)")
        #expect(report.results[9].seen == "0 of 30 devices in fans showed \"Goal\"; not fans-1, fans-2, fans-3, fans-4, fans-5, … (30 in all)")
        #expect(report.invariants.allSatisfy { $0.holds })
    }

    @Test func aFailureNamesAtMostFiveMembers() throws {
        let report = try goalRun("expect 12 of fans show \"Goal\"")
        let seen = report.results[0].seen
        #expect(seen == "10 of 30 devices in fans showed \"Goal\"; not fans-2, fans-3, fans-5, fans-6, fans-8, … (20 in all)")
    }

    @Test func populationRunsAreDeterministic() throws {
        let a = try goalRun("expect 10 of fans show \"Goal\"")
        let b = try goalRun("expect 10 of fans show \"Goal\"")
        #expect(a.trace == b.trace)
        #expect(Set(a.trace.filter { $0.kind.name == "notification.shown" }.map(\.host))
                == Set(stride(from: 1, through: 28, by: 3).map { "fans-\($0)" }))
    }
}

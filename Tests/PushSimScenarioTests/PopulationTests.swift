import Testing
import PushSimKernel
import PushSimDevices
@testable import PushSimScenario

/// Populations: many devices declared, driven and checked in one statement each.
@Suite("Populations")
struct PopulationTests {
    private func parse(_ text: String) -> Result<Scenario, ScenarioParseFailure> { ScenarioParser.parse(text, path: "t.scenario") }
    private func diagnostics(_ text: String) -> [ScenarioDiagnostic] {
        if case .failure(let f) = parse(text) { return f.diagnostics }
        return []
    }

    @Test func aPopulationIsNamedMembersOnPlatformsInTurn() throws {
        let s = try parse("scenario \"p\"\ndevices fans 5 ios,android user fan-{n} client recommended backend hardened\n").get()
        #expect(s.devices.map(\.name) == ["fans-1", "fans-2", "fans-3", "fans-4", "fans-5"])
        #expect(s.devices.map(\.platform) == [.ios, .android, .ios, .android, .ios])
        #expect(s.devices.map(\.user) == ["fan-1", "fan-2", "fan-3", "fan-4", "fan-5"])
        #expect(s.devices.allSatisfy { $0.client == .recommended && $0.backend == .hardened })
        let plain = try parse("scenario \"p\"\ndevices crowd 2 windows\n").get()
        #expect(plain.devices.map(\.user) == ["crowd-1", "crowd-2"])
    }

    @Test func aStepOnAPopulationIsAStepPerMember() throws {
        let s = try parse("scenario \"p\"\ndevices fans 3 ios user f{n}\nat 1s fans install\nat 2s fans login\nfans logout\n").get()
        #expect(s.actions.count == 9)
        #expect(s.actions.filter { $0.time == .zero + .seconds(2) }.prefix(3).map(\.kind)
                == [.login(user: "f1", password: "f1"), .login(user: "f2", password: "f2"), .login(user: "f3", password: "f3")])
        #expect(s.actions.suffix(3).allSatisfy { $0.kind == .logout && $0.time == .zero + .seconds(2) })
    }

    @Test func expectationsRangeOverThePopulation() throws {
        let scenario = try parse("""
        scenario "p"
        backend hardened
        devices fans 30 ios,android,windows client recommended
        device outsider android
        at 0s fans install
        at 0s outsider install
        at 5s fans login
        at 10s operator send apple "{\\"aps\\":{\\"alert\\":\\"Goal\\"}}"
        expect every device in fans shows "Goal" by 20s
        expect 10 of fans show "Goal"
        expect no device in fans shows "Goal"
        expect no device in fans shows "Offside"
        """).get()
        let report = try ScenarioRunner.run(scenario).get()
        #expect(report.results.map(\.passed) == [false, true, false, true])
        #expect(report.results[0].seen.hasPrefix("10 of 30 devices in fans showed it; not shown on fans-2, fans-3, fans-5, fans-6, fans-8, …"))
    }

    @Test(arguments: [
        ("devices fans 0 ios", 3, 14, "a population has 1 to 100000 devices, not 0"),
        ("devices fans 3 iphone", 3, 16, "unknown platform \"iphone\" in \"iphone\""),
        ("device fans-2 ios\ndevices fans 3 ios", 4, 9, "member \"fans-2\" of \"fans\" is already declared on line 3"),
        ("devices fans 3 ios\ndevice fans-2 ios", 4, 8, "device \"fans-2\" is already declared on line 3"),
        ("devices fans 3 ios\ndevices fans 2 ios", 4, 9, "\"fans\" is already declared"),
        ("devices fans 3 ios\nfans send", 4, 6, "unknown population action \"send\""),
        ("expect every device in nobody shows \"x\"", 3, 24, "no population \"nobody\" is declared before this line"),
        ("devices fans 3 ios\nexpect 4 of fans show \"x\"", 4, 8, "\"fans\" has only 3 devices, not 4"),
    ] as [(String, Int, Int, String)])
    func misuseIsPositioned(body: String, line: Int, column: Int, message: String) {
        let d = diagnostics("scenario \"p\"\nseed 1\n" + body + "\n")
        #expect(d.first?.message == message)
        #expect(d.first?.location.line == line && d.first?.location.column == column, "\(d.first?.location.description ?? "no diagnostic")")
    }
}

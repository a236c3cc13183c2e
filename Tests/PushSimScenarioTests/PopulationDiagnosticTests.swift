import Testing
@testable import PushSimScenario

/// Every misuse of a population is reported at its place, with a hint.
@Suite("Population diagnostics")
struct PopulationDiagnosticTests {
    private func diagnostics(_ body: String) -> [ScenarioDiagnostic] {
        if case .failure(let f) = ScenarioParser.parse("scenario \"p\"\nseed 1\n" + body + "\n", path: "t.scenario") { return f.diagnostics }
        return []
    }

    @Test(arguments: [
        // Declarations.
        ("devices fans 0 ios", 3, 14, "a population has 1 to 100000 devices, not 0"),
        ("devices fans 100001 ios", 3, 14, "a population has 1 to 100000 devices, not 100001"),
        ("devices fans three ios", 3, 14, "expected a number of devices such as 1000, found \"three\""),
        ("devices fans 60000 ios\ndevices crowd 50000 ios", 4, 15, "this file's populations would have 110000 devices, more than 100000"),
        ("devices fans 3 iphone", 3, 16, "unknown platform \"iphone\""),
        ("devices fans 3 ios,iphone", 3, 20, "unknown platform \"iphone\""),
        ("devices fans 3 ios,,android", 3, 20, "expected a platform, found \",\""),
        ("devices fans 3", 3, 15, "expected platforms such as ios or ios,android,windows, found end of line"),
        ("devices every 3 ios", 3, 9, "\"every\" cannot name a population"),
        ("devices hub 3 ios", 3, 9, "\"hub\" cannot name a population"),
        ("devices operator 3 ios", 3, 9, "\"operator\" cannot name a population"),
        ("devices 12 3 ios", 3, 9, "\"12\" cannot name a population"),
        ("devices fans 3 ios\ndevices fans 2 ios", 4, 9, "population \"fans\" is already declared on line 3"),
        ("device fans ios\ndevices fans 2 ios", 4, 9, "\"fans\" already names a device, declared on line 3"),
        ("devices bob 2 ios\ndevice bob ios", 3, 9, "\"bob\" also names a device declared further down"),   // the device is kept
        ("device fans-2 ios\ndevices fans 3 ios", 4, 9, "member \"fans-2\" of \"fans\" is already declared on line 3"),
        ("devices fans 3 ios\ndevice fans-2 ios", 4, 8, "device \"fans-2\" is already declared on line 3 as a member of population \"fans\""),
        ("devices fans 3 ios user fan-{m}", 3, 29, "unknown placeholder \"{m}\" in the user pattern \"fan-{m}\""),
        ("devices fans 3 ios user fan-{n", 3, 29, "unknown placeholder \"{n\" in the user pattern \"fan-{n\""),
        ("devices fans 3 ios user u user v", 3, 27, "user is given twice in one devices statement"),
        ("devices fans 3 ios os 100", 3, 23, "OS version 100 is out of range"),
        ("devices fans 3 ios client fancy", 3, 27, "unknown client \"fancy\""),
        ("devices fans 3 ios color red", 3, 20, "unexpected \"color\" after the end of the statement"),
        // Steps.
        ("devices fans 3 ios\nfans fly", 4, 6, "unknown action \"fly\" for population \"fans\""),
        ("devices fans 3 ios\nat 1s fans", 4, 11, "expected an action after \"fans\", found end of line"),
        ("devices fans 3 ios\nfans restore from x", 4, 6, "a population cannot restore from one device's backup"),
        ("at 1s fans install\ndevices fans 3 ios", 3, 7, "population \"fans\" is declared on line 4, after this step"),
        ("devices fans 3 ios\nfans login password p{x}", 4, 22, "unknown placeholder \"{x}\" in \"p{x}\""),
        ("devices fans 3 ios\nfans login {usr} password p", 4, 12, "unknown placeholder \"{usr}\" in \"{usr}\""),
        ("devices fans 3 ios\nfans login bob", 4, 15, "expected \"password\", found end of line"),
        ("devices fans 3 ios\nfans install now", 4, 14, "unexpected \"now\" after the end of the statement"),
        ("devices fans 3 ios\nfans send \"hi\" to bob", 4, 22, "expected \"via\", found end of line"),
        // A population where one device is meant.
        ("devices fans 3 ios\nexpect fans shows \"x\"", 4, 8, "\"fans\" is a population, not a device"),
        ("devices fans 3 ios\ndevice d ios\nd restore from fans", 5, 16, "\"fans\" is a population, not a device"),
        ("devices fans 3 ios\nnetwork partition fans hub from 1s to 2s", 4, 19, "\"fans\" is a population; a network rule names single hosts"),
        // Expectations.
        ("expect every device in nobody shows \"x\"", 3, 24, "no population \"nobody\" is declared"),
        ("expect every device in fans shows \"x\"\ndevices fans 3 ios", 3, 24, "population \"fans\" is declared on line 4, after this expectation"),
        ("device bob ios\nexpect every device in bob shows \"x\"", 4, 24, "\"bob\" is a device, not a population"),
        ("devices fans 3 ios\nexpect 4 of fans show \"x\"", 4, 8, "population \"fans\" has 3 devices, fewer than 4"),
        ("devices fans 3 ios\nexpect at least 4 of fans show \"x\"", 4, 17, "population \"fans\" has 3 devices, fewer than 4"),
        ("devices fans 3 ios\nexpect at most 9 of fans show \"x\"", 4, 16, "population \"fans\" has 3 devices, fewer than 9"),
        ("devices fans 3 ios\nexpect at some 4 of fans show \"x\"", 4, 11, "expected least or most after at, found \"some\""),
        ("devices fans 3 ios\nexpect at least many of fans show \"x\"", 4, 17, "expected a number of devices, found \"many\""),
        ("devices fans 3 ios\nexpect every fans shows \"x\"", 4, 14, "expected \"device\", found \"fans\""),
        ("devices fans 3 ios\nexpect none in fans shows \"x\"", 4, 13, "expected \"of\", found \"in\""),
        ("devices fans 3 ios\nexpect none of fans sees \"x\"", 4, 21, "expected shows after the population, found \"sees\""),
        ("devices fans 3 ios\nexpect every device in fans shows", 4, 34,
         "expected \"<text>\", nothing or <n> notifications after shows, found end of line"),
        ("devices fans 3 ios\nexpect every device in fans shows maybe", 4, 35,
         "expected \"<text>\", nothing or <n> notifications after shows, found \"maybe\""),
        ("devices fans 3 ios\nexpect every device in fans shows 2", 4, 36, "expected \"notifications\" after 2, found end of line"),
        ("devices fans 3 ios\nexpect every device in fans shows \"x\" by 5s later", 4, 45, "unexpected \"later\" after the end of the statement"),
        ("devices fans 3 ios\nexpect 99999999999999999999 of fans show \"x\"", 4, 8, "number \"99999999999999999999\" is too large"),
    ] as [(String, Int, Int, String)])
    func misuseIsPositioned(body: String, line: Int, column: Int, message: String) {
        let d = diagnostics(body)
        #expect(d.first?.message == message)
        #expect(d.first?.location.line == line && d.first?.location.column == column, "\(d.first?.location.description ?? "no diagnostic")")
        #expect(d.first?.hint?.isEmpty == false)
    }

    @Test func aPopulationWithAMistakeDoesNotCascade() {
        // The declaration is wrong; the steps and expectations on it add nothing more.
        let d = diagnostics("devices fans 3 iphone\nat 1s fans install\nfans login")
        #expect(d.map(\.message) == ["unknown platform \"iphone\""])
    }
}

import PushSimKernel
import Testing
@testable import PushSimScenario
import PushSimDevices
import PushSimBackend

// MARK: - Helpers

private let path = "t.scenario"

/// `Testing` has its own `SourceLocation`, hence the module name.
private func at(_ line: Int, _ column: Int) -> PushSimScenario.SourceLocation {
    PushSimScenario.SourceLocation(file: path, line: line, column: column)
}

private func parse(_ text: String) -> Result<Scenario, ScenarioParseFailure> { ScenarioParser.parse(text, path: path) }

/// The diagnostics of `text`; empty if it parsed.
private func diagnostics(_ text: String) -> [ScenarioDiagnostic] {
    if case .failure(let failure) = parse(text) { return failure.diagnostics }
    return []
}

/// Three header lines declaring `bob-iphone` and `alice-pixel`; a body's first line is line 4.
private let header = """
    scenario "t"
    device bob-iphone ios user bob
    device alice-pixel android user alice

    """

private func withHeader(_ body: String) -> String { header + body }

private func seconds(_ s: Int64) -> VirtualTime { .zero + .seconds(s) }

// MARK: - The full example

private let fullExample = """
    scenario "Alice notifies Bob"            # required, exactly once, first statement
    seed 7
    backend tutorial
    hub ttl 90d
    network latency 5ms..80ms
    network loss 1/100
    network loss 1/10 between bob-iphone backend
    network partition bob-iphone backend from 10s to 20s
    limit events 1000000
    limit time 400d
    device bob-iphone ios user bob
    device alice-pixel android user alice client recommended

    at 0s  bob-iphone install
    at +1s bob-iphone login bob password bob
    at 2s alice-pixel install
    alice-pixel login alice password "secret word"
    at 5s alice-pixel send "Hi Bob" to bob via apns
    expect bob-iphone shows "From alice: Hi Bob" by 6s   # the tutorial's format
    expect alice-pixel shows nothing
    bob-iphone uninstall
    bob-iphone offline
    at +500ms bob-iphone online
    advance 91d
    alice-pixel send "Hi again" to bob via apns, wns
    expect bob-iphone shows 2 notifications by +1s
    expect bob-iphone register status 410

    """

@Test func fullExampleParsesIntoTheExactAST() throws {
    let scenario = try parse(fullExample).get()
    let later = VirtualTime.zero + .days(91) + .milliseconds(5_500)
    let expected = Scenario(
        path: path, name: "Alice notifies Bob", seed: 7,
        settings: [
            .backend(.tutorial),
            .hubRegistrationTTL(.days(90)),
            .latency(min: .milliseconds(5), max: .milliseconds(80)),
            .loss(Ratio(1, 100), between: nil),
            .loss(Ratio(1, 10), between: ["bob-iphone", "backend"]),
            .partition("bob-iphone", "backend", from: seconds(10), to: seconds(20)),
            .limitEvents(1_000_000),
            .limitTime(.days(400)),
        ],
        devices: [
            DeviceDeclaration(name: "bob-iphone", platform: .ios, user: "bob", client: .tutorial, location: at(11, 1)),
            DeviceDeclaration(name: "alice-pixel", platform: .android, user: "alice", client: .recommended, location: at(12, 1)),
        ],
        actions: [
            ScenarioAction(time: .zero, device: "bob-iphone", kind: .device(.install), location: at(14, 8)),
            ScenarioAction(time: seconds(1), device: "bob-iphone", kind: .device(.login(user: "bob", password: "bob")), location: at(15, 8)),
            ScenarioAction(time: seconds(2), device: "alice-pixel", kind: .device(.install), location: at(16, 7)),
            ScenarioAction(time: seconds(2), device: "alice-pixel", kind: .device(.login(user: "alice", password: "secret word")), location: at(17, 1)),
            ScenarioAction(time: seconds(5), device: "alice-pixel", kind: .device(.send(message: "Hi Bob", to: "bob", via: [.apns])), location: at(18, 7)),
            ScenarioAction(time: seconds(5), device: "bob-iphone", kind: .device(.uninstall), location: at(21, 1)),
            ScenarioAction(time: seconds(5), device: "bob-iphone", kind: .device(.offline), location: at(22, 1)),
            ScenarioAction(time: .zero + .milliseconds(5_500), device: "bob-iphone", kind: .device(.online), location: at(23, 11)),
            ScenarioAction(time: later, device: "alice-pixel", kind: .device(.send(message: "Hi again", to: "bob", via: [.apns, .wns])), location: at(25, 1)),
        ],
        expectations: [
            Expectation(kind: .shows(device: "bob-iphone", text: "From alice: Hi Bob"), by: seconds(6), location: at(19, 1),
                        source: "expect bob-iphone shows \"From alice: Hi Bob\" by 6s"),
            Expectation(kind: .showsNothing(device: "alice-pixel"), by: nil, location: at(20, 1),
                        source: "expect alice-pixel shows nothing"),
            Expectation(kind: .showsCount(device: "bob-iphone", count: 2), by: later + .seconds(1), location: at(26, 1),
                        source: "expect bob-iphone shows 2 notifications by +1s"),
            Expectation(kind: .status(device: "bob-iphone", operation: .register, code: 410), by: nil, location: at(27, 1),
                        source: "expect bob-iphone register status 410"),
        ])
    #expect(scenario == expected)
}

// MARK: - Valid forms

@Test func minimalFileHasDefaults() throws {
    let scenario = try parse("scenario \"Empty\"").get()
    #expect(scenario == Scenario(path: path, name: "Empty", seed: nil, settings: [], devices: [], actions: [], expectations: []))
}

@Test func singleLatencyMeansMinEqualsMax() throws {
    let scenario = try parse("scenario \"x\"\nnetwork latency 10ms\nnetwork latency 0s..1s\n").get()
    #expect(scenario.settings == [.latency(min: .milliseconds(10), max: .milliseconds(10)),
                                  .latency(min: .zero, max: .seconds(1))])
}

@Test func deviceOptionsInEitherOrderAndUserOptional() throws {
    let scenario = try parse("scenario \"x\"\ndevice a windows client recommended user ann\ndevice b android\n").get()
    #expect(scenario.devices == [
        DeviceDeclaration(name: "a", platform: .windows, user: "ann", client: .recommended, location: at(2, 1)),
        DeviceDeclaration(name: "b", platform: .android, user: nil, client: .tutorial, location: at(3, 1)),
    ])
}

@Test(arguments: ["via apns,wns", "via apns, wns", "via apns ,wns", "via apns , wns"])
func viaListsAcceptCommasWithOrWithoutSpaces(via: String) throws {
    let scenario = try parse(withHeader("alice-pixel send \"Hi\" to bob \(via)")).get()
    #expect(scenario.actions.map(\.kind) == [.device(.send(message: "Hi", to: "bob", via: [.apns, .wns]))])
}

@Test func advanceThenBareActionHappensAtTheAdvancedTime() throws {
    let scenario = try parse(withHeader("at 3s bob-iphone install\nadvance 91d\nbob-iphone online\nat +2s bob-iphone offline")).get()
    #expect(scenario.actions.map(\.time) == [seconds(3), seconds(3) + .days(91), seconds(5) + .days(91)])
}

@Test func relativeByCountsFromTheCursorOnThatLine() throws {
    let scenario = try parse(withHeader("at 10s bob-iphone install\nexpect bob-iphone shows \"x\" by +1s\nexpect bob-iphone shows \"y\" by 3s")).get()
    #expect(scenario.expectations.map(\.by) == [seconds(11), seconds(3)])
}

@Test func showsCountAcceptsSingularAndPlural() throws {
    let scenario = try parse(withHeader("expect bob-iphone shows 1 notification\nexpect bob-iphone shows 0 notifications")).get()
    #expect(scenario.expectations.map(\.kind) == [.showsCount(device: "bob-iphone", count: 1), .showsCount(device: "bob-iphone", count: 0)])
}

@Test func everyOperationParses() throws {
    let caller = { (operation: AppOperation) in operation.isAppCall ? "bob-iphone" : operation == .push ? "shop" : "operator" }
    let lines = AppOperation.allCases.map { "expect \(caller($0)) \($0.rawValue) status 201" }.joined(separator: "\n")
    let scenario = try parse(withHeader("app-server shop\n" + lines)).get()
    #expect(scenario.expectations.map(\.kind) == AppOperation.allCases.map { .status(device: caller($0), operation: $0, code: 201) })
}

@Test func deviceMayBeUsedBeforeItsDeclaration() throws {
    let scenario = try parse("scenario \"x\"\nat 1s carol install\nexpect carol shows nothing\ndevice carol windows\n").get()
    #expect(scenario.actions == [ScenarioAction(time: seconds(1), device: "carol", kind: .device(.install), location: at(2, 7))])
    #expect(scenario.expectations.count == 1)
}

@Test func hashInsideStringsIsNotAComment() throws {
    let scenario = try parse(withHeader("""
        alice-pixel send "Hi #1 Bob" to bob via fcm # says "Hi"
        expect bob-iphone shows "a # b"   # done "really"
        # a comment line, with "quotes
           # an indented comment
        """)).get()
    #expect(scenario.actions.map(\.kind) == [.device(.send(message: "Hi #1 Bob", to: "bob", via: [.fcm]))])
    #expect(scenario.expectations.map(\.kind) == [.shows(device: "bob-iphone", text: "a # b")])
    #expect(scenario.expectations.map(\.source) == ["expect bob-iphone shows \"a # b\""])
}

@Test func commentRightAfterAWordEndsIt() throws {
    let scenario = try parse("scenario \"x\"#name\nseed 7#lucky\n").get()
    #expect(scenario.seed == 7)
}

@Test func stringEscapesAreResolved() throws {
    let scenario = try parse(withHeader(#"expect bob-iphone shows "say \"hi\"\\n\ttab\n" by 1s"#)).get()
    #expect(scenario.expectations.map(\.kind) == [.shows(device: "bob-iphone", text: "say \"hi\"\\n\ttab\n")])
}

@Test func crlfLineEndingsAndTabsAreAccepted() throws {
    let scenario = try parse("scenario \"x\"\r\ndevice d ios\r\n\tat 1s\td install\r\n").get()
    #expect(scenario.actions == [ScenarioAction(time: seconds(1), device: "d", kind: .device(.install), location: at(3, 8))])
}

// MARK: - Diagnostics: rendering and file order

@Test func diagnosticRendersFileLineColumnAndHint() {
    let d = ScenarioDiagnostic(location: at(4, 9), message: "expected a duration such as 5s or 250ms, found \"5x\"",
                               hint: "units are us, ms, s, m, h, d; combine them largest first, e.g. 2h59s")
    #expect(d.description == "t.scenario:4:9: error: expected a duration such as 5s or 250ms, found \"5x\"\n  hint: units are us, ms, s, m, h, d; combine them largest first, e.g. 2h59s")
    #expect(ScenarioDiagnostic(location: at(1, 1), message: "m").description == "t.scenario:1:1: error: m")
}

@Test func failureDescriptionJoinsDiagnosticsInFileOrder() {
    let text = withHeader("advance 5x\nbob-iphone dance")
    guard case .failure(let failure) = parse(text) else { Issue.record("expected a failure"); return }
    #expect(failure.description == failure.diagnostics.map(\.description).joined(separator: "\n"))
    #expect(failure.description.hasPrefix("t.scenario:4:9: error: expected a duration such as 5s or 250ms, found \"5x\"\n  hint: units are us, ms, s, m, h, d; combine them largest first, e.g. 2h59s\nt.scenario:5:12: error: unknown action \"dance\""))
}

@Test func threeIndependentMistakesGiveThreeDiagnostics() {
    let found = diagnostics(withHeader("""
        at 1s bob-iphone instal
        network loss 1/0
        expect carol-tablet shows nothing
        """))
    #expect(found.map(\.location) == [at(4, 18), at(5, 14), at(6, 8)])
    #expect(found.map(\.message) == ["unknown action \"instal\"", "ratio \"1/0\" has a zero denominator",
                                     "device \"carol-tablet\" is used but never declared"])
}

@Test func undeclaredDevicesAreReportedInFileOrderAmongOtherDiagnostics() {
    let found = diagnostics(withHeader("ghost install\nadvance 5x\nexpect ghost shows nothing\nexpect phantom shows nothing"))
    #expect(found.map(\.location) == [at(4, 1), at(5, 9), at(7, 8)])
    #expect(found[0].message == "device \"ghost\" is used but never declared (also used on line 6)")
    #expect(found[0].hint == "declare it with: device ghost ios|android|windows")
}

@Test func emptyFileMissesTheScenarioStatement() {
    let found = diagnostics("")
    #expect(found == [ScenarioDiagnostic(location: at(1, 1), message: "missing scenario statement",
                                         hint: "start the file with: scenario \"<name>\"")])
}

@Test func missingScenarioComesFirstAndOtherProblemsAreStillReported() {
    let found = diagnostics("# no header\nseed 7\nseed 8\n")
    #expect(found.map(\.location) == [at(1, 1), at(3, 1)])
    #expect(found.map(\.message) == ["missing scenario statement", "seed is given twice (first on line 2)"])
}

@Test func unreadableScenarioLineDoesNotAlsoCountAsMissing() {
    let found = diagnostics("scenario \"oops\n")
    #expect(found.map(\.location) == [at(1, 10)])
    #expect(found.map(\.message) == ["unterminated string"])
}

// MARK: - Diagnostics: one statement each, with line and column

/// A body after ``header`` that must yield exactly one diagnostic.
struct BadLine: Sendable, CustomTestStringConvertible {
    var body: String
    var line: Int
    var column: Int
    var message: String
    var hint: String?
    init(_ body: String, _ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
        self.body = body; self.line = line; self.column = column; self.message = message; self.hint = hint
    }
    var testDescription: String { body.split(separator: "\n").joined(separator: " ⏎ ") }
}

private let statementsHint = "statements are scenario, seed, epoch, backend, hub, apns, fcm, network, fault, limit, account, device, devices, browser, app-server, at, advance, expect, or <device> <action> for a declared device"
private let switchesHint = "switches are apns, fcm, gcm, wns, browser; separate several with commas, e.g. via apns,wns"

private let badLines: [BadLine] = [
    // Unknown words.
    BadLine("dance now", 4, 1, "unknown statement \"dance\"", hint: statementsHint),
    BadLine("\"hello\"", 4, 1, "expected a statement, found the string \"hello\"", hint: statementsHint),
    BadLine("bob-iphone dance", 4, 12, "unknown action \"dance\"", hint: "actions are install, uninstall, launch, restore, refresh-handle, clear-data, login, logout, register, send, request, offline, online, subscribe, unsubscribe, deny, allow, disable, enable, observe, start, end, rotate"),
    BadLine("bob-iphone", 4, 11, "expected an action after \"bob-iphone\", found end of line"),
    BadLine("expect bob-iphone regster status 410", 4, 19, "unknown expectation \"regster\"",
            hint: "after the device comes shows, never shows, suppressed, badge, woke or an operation: create-id, register, unregister, send, request"),
    BadLine("device carol-phone iphone", 4, 20, "unknown platform \"iphone\"", hint: "platforms are ios, android, windows"),
    BadLine("backend fancy", 4, 9, "unknown backend \"fancy\"", hint: "backends are tutorial, hardened, or external \"http://127.0.0.1:8080\" (your own, on loopback)"),
    BadLine("backend external", 4, 17, "expected the backend's address in double quotes, e.g. \"http://127.0.0.1:8080\", found end of line",
            hint: "backends are tutorial, hardened, or external \"http://127.0.0.1:8080\" (your own, on loopback)"),
    BadLine("backend external \"https://127.0.0.1:8080\"", 4, 18,
            "the string \"https://127.0.0.1:8080\" is not an external backend's address: PushSim reaches an external backend over plain HTTP on loopback, not HTTPS",
            hint: "write backend external \"http://127.0.0.1:8080\""),
    BadLine("backend external \"http://example.com:80\"", 4, 18,
            "the string \"http://example.com:80\" is not an external backend's address: the host must be an IPv4 address such as 127.0.0.1, or localhost (PushSim does not look names up)",
            hint: "write backend external \"http://127.0.0.1:8080\""),
    BadLine("backend external \"http://127.0.0.1:99999\"", 4, 18,
            "the string \"http://127.0.0.1:99999\" is not an external backend's address: the port must be a number from 1 to 65535",
            hint: "write backend external \"http://127.0.0.1:8080\""),
    BadLine("device carol ios client fancy", 4, 25, "unknown client \"fancy\"", hint: "clients are tutorial, recommended"),
    BadLine("alice-pixel send \"Hi\" to bob via apns,mpns", 4, 39, "unknown switch \"mpns\"", hint: switchesHint),
    BadLine("network jitter 5ms", 4, 9, "unknown network setting \"jitter\"", hint: "network settings are latency, loss, partition"),
    BadLine("limit memory 5", 4, 7, "unknown limit \"memory\"", hint: "limits are events, time"),
    BadLine("hub size 5", 4, 5, "expected \"ttl\", found \"size\""),
    // Declarations.
    BadLine("device bob-iphone android", 4, 8, "device \"bob-iphone\" is already declared on line 2"),
    BadLine("device at ios", 4, 8, "\"at\" is a statement keyword and cannot name a device"),
    BadLine("device apns ios", 4, 8, "\"apns\" is a host of the world (a push service, the hub or a backend) and cannot name a device",
            hint: "choose another name, e.g. bob-iphone"),
    BadLine("device webpush ios", 4, 8, "\"webpush\" is a host of the world (a push service, the hub or a backend) and cannot name a device",
            hint: "choose another name, e.g. bob-iphone"),
    BadLine("device web.push.apple.com ios", 4, 8,
            "\"web.push.apple.com\" is a host of the world (a push service, the hub or a backend) and cannot name a device",
            hint: "choose another name, e.g. bob-iphone"),
    BadLine("device \"bob\" ios", 4, 8, "expected a device name such as bob-iphone, found the string \"bob\""),
    BadLine("device d ios user a user b", 4, 21, "user is given twice in one device declaration"),
    BadLine("scenario \"again\"", 4, 1, "scenario is given twice (first on line 1)"),
    BadLine("seed 7\nseed 8", 5, 1, "seed is given twice (first on line 4)"),
    // Numbers, durations, times, ratios.
    BadLine("seed 7x", 4, 6, "expected a seed such as 7, found \"7x\"", hint: "write a whole number with digits only"),
    BadLine("seed -1", 4, 6, "expected a seed such as 7, found \"-1\""),
    BadLine("seed 18446744073709551616", 4, 6, "number \"18446744073709551616\" is too large",
            hint: "the largest allowed here is 18446744073709551615"),
    BadLine("limit events lots", 4, 14, "expected a number of events such as 1000000, found \"lots\""),
    BadLine("expect bob-iphone register status 4100", 4, 35, "HTTP status 4100 is out of range", hint: "statuses are 100 to 599"),
    BadLine("expect bob-iphone send status ok", 4, 31, "expected an HTTP status such as 410 or 4xx, found \"ok\""),
    BadLine("advance 5x", 4, 9, "expected a duration such as 5s or 250ms, found \"5x\"", hint: "units are us, ms, s, m, h, d; combine them largest first, e.g. 2h59s"),
    BadLine("hub ttl 90", 4, 9, "expected a duration such as 5s or 250ms, found \"90\"", hint: "units are us, ms, s, m, h, d; combine them largest first, e.g. 2h59s"),
    BadLine("hub ttl", 4, 8, "expected a duration such as 5s or 250ms, found end of line"),
    BadLine("limit time 99999999999999d", 4, 12, "duration \"99999999999999d\" is longer than 36500d"),
    // Accepted by `pushsim check` before, and then trapped at run time in VirtualTime.+.
    BadLine("hub ttl 99999999d", 4, 9, "duration \"99999999d\" is longer than 36500d",
            hint: "durations and times in a scenario are at most 36500d (100 years); a run stops at its limit time (limit time, default 3650d)"),
    BadLine("network latency 1ms..106000d", 4, 22, "duration \"106000d\" is longer than 36500d"),
    BadLine("at 36501d bob-iphone install", 4, 4, "time \"36501d\" is later than 36500d"),
    BadLine("at 5q bob-iphone install", 4, 4, "expected a time such as 5s or +2s, found \"5q\""),
    BadLine("expect bob-iphone shows \"x\" by 5", 4, 32, "expected a time such as 5s or +2s, found \"5\""),
    BadLine("advance 36500d\nadvance 1s", 5, 9, "\"1s\" moves the time past the largest virtual time"),
    BadLine("network loss 3/2", 4, 14, "ratio \"3/2\" is more than 1"),
    BadLine("network loss 1%", 4, 14, "expected a ratio such as 1/100, found \"1%\""),
    BadLine("network loss 1/0", 4, 14, "ratio \"1/0\" has a zero denominator"),
    // Missing words.
    BadLine("bob-iphone login bob", 4, 21, "expected \"password\", found end of line", hint: "write login <user> password <password>"),
    BadLine("bob-iphone login bob   # password later", 4, 21, "expected \"password\", found end of line"),
    BadLine("alice-pixel send \"Hi\" to bob", 4, 29, "expected \"via\", found end of line",
            hint: "say which switches the app sends with: via apns, via fcm,wns, ... (\(switchesHint))"),
    BadLine("alice-pixel send Hi to bob via apns", 4, 18, "expected a message in double quotes, found \"Hi\""),
    BadLine("alice-pixel send \"Hi\" to bob via apns,", 4, 39, "expected a switch after the comma, found end of line"),
    BadLine("alice-pixel send \"Hi\" to bob via apns,,wns", 4, 39, "expected a switch, found \",\""),
    BadLine("alice-pixel send \"Hi\" to bob via apns,apns", 4, 39, "switch \"apns\" is listed twice"),
    BadLine("network loss 1/10 between bob-iphone", 4, 37, "expected a second host name, found end of line"),
    BadLine("expect bob-iphone shows", 4, 24, "expected \"<text>\", nothing or <n> notifications after shows, found end of line"),
    BadLine("expect bob-iphone shows 2", 4, 26, "expected \"notifications\" after 2, found end of line"),
    BadLine("at 5s", 4, 6, "expected a device action after \"at 5s\", found end of line"),
    BadLine("at 5s advance 1s", 4, 7, "expected a device action after \"at 5s\", found \"advance\""),
    // Extra words.
    BadLine("bob-iphone install now", 4, 20, "unexpected \"now\" after the end of the statement"),
    BadLine("alice-pixel send \"Hi\" to bob via apns wns", 4, 39, "unexpected \"wns\" after the end of the statement",
            hint: "separate switches with commas: via apns,wns"),
    BadLine("expect alice-pixel shows nothing \"really\"", 4, 34, "unexpected the string \"really\" after the end of the statement"),
    // Time, partitions, latency.
    BadLine("at 5s bob-iphone install\nat 3s bob-iphone online", 5, 4, "at 3s is earlier than the previous step at 5s",
            hint: "steps run in file order; use at +<duration> for a time relative to the previous step"),
    BadLine("network partition bob-iphone backend from 20s to 10s", 4, 50,
            "the partition ends at 10s, which is not after its start at 20s"),
    BadLine("network partition bob-iphone backend from 10s to 10s", 4, 50,
            "the partition ends at 10s, which is not after its start at 10s"),
    BadLine("network partition bob-iphone backend from +1s to 20s", 4, 43, "partition times are absolute, found \"+1s\""),
    BadLine("network partition bob-iphone bob-iphone from 1s to 2s", 4, 30, "partition names host \"bob-iphone\" twice"),
    BadLine("network latency 80ms..5ms", 4, 17, "latency range \"80ms..5ms\" goes backwards: 80ms is more than 5ms",
            hint: "write the smaller duration first, e.g. 5ms..80ms"),
    BadLine("network latency 5ms..8x", 4, 22, "expected a duration such as 5s or 250ms, found \"8x\""),
    // Strings.
    BadLine("expect bob-iphone shows \"Hi", 4, 25, "unterminated string"),
    BadLine(#"expect bob-iphone shows "a\qb""#, 4, 27, #"unknown escape "\q" in a string"#),
    BadLine("expect bob-iphone shows \"héllo 👋\" x", 4, 35, "unexpected \"x\" after the end of the statement"),
]

@Test(arguments: badLines)
func badLineGivesOneDiagnosticAtItsToken(_ bad: BadLine) {
    let found = diagnostics(withHeader(bad.body))
    #expect(found.count == 1, "\(found)")
    guard let d = found.first else { return }
    #expect(d.location == at(bad.line, bad.column))
    #expect(d.message == bad.message)
    if let hint = bad.hint { #expect(d.hint == hint) }
}

@Test func scenarioMustBeTheFirstStatement() {
    let found = diagnostics("# comments first are fine\nseed 7\nscenario \"late\"\n")
    #expect(found == [ScenarioDiagnostic(location: at(3, 1), message: "scenario must be the first statement",
                                         hint: "move this line to the top of the file")])
}

@Test func everyBadLineIsReportedWhenTheyShareAFile() {
    // Recovery at the next line: all of the table's single-line cases in one file.
    let singles = badLines.filter { !$0.body.contains("\n") && $0.line == 4 }
    let found = diagnostics(withHeader(singles.map(\.body).joined(separator: "\n")))
    #expect(found.map(\.message) == singles.map(\.message))
    #expect(found.map(\.location.line) == Array(4..<(4 + singles.count)))
}

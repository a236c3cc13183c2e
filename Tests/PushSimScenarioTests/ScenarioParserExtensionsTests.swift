import PushSimKernel
import Testing
@testable import PushSimScenario
import PushSimDevices
import PushSimBackend

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
            .logout, .register(tags: []), .register(tags: ["username:alice", "topic:news"]),
            .request(method: "POST", target: "/api/register?handle=AB", authorization: .none, body: nil),
            .request(method: "PUT", target: "/api/register/reg-1", authorization: .basic(user: "bob", password: "bob"),
                     body: #"{"Platform":"apns"}"#),
            .request(method: "DELETE", target: "/api/register/x", authorization: .header("Bearer abc"), body: nil),
            .request(method: "GET", target: "/api/nothing", authorization: .none, body: nil),
        ])
        #expect(s.expectations.first?.kind == .status(device: "bob-iphone", operation: .request, code: 500))
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
        ]
        for (line, row, column, message) in cases {
            guard case .failure(let f) = parse(line) else { Issue.record("\(line) parsed"); continue }
            #expect(f.diagnostics.count == 1, "\(line)")
            #expect(f.diagnostics.first?.location.line == row, "\(line)")
            #expect(f.diagnostics.first?.location.column == column, "\(line): \(f.diagnostics.first?.description ?? "")")
            #expect(f.diagnostics.first?.message == message, "\(line)")
        }
    }
}

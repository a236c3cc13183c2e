import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// `clear-data`: the user clears the app's data in the OS settings.
@Suite struct DeviceClearDataTests {
    /// Android: storage and login go, the app starts again and gets a new FCM token; the push
    /// service is not told (it finds out from the phone, as after an uninstall).
    @Test func androidGetsANewTokenAndForgetsItsUser() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("ann-pixel", .android)
        sim.installAndLogIn(phone, as: "ann", at: t(1))
        sim.run()
        let old = phone.handle
        #expect(phone.loggedInUser == "ann")
        sim.at(t(5), "clear data") { phone.clearData() }
        sim.run()
        #expect(phone.handle != nil)
        #expect(phone.handle != old)
        #expect(phone.loggedInUser == nil)
        #expect(phone.storage.isEmpty)
        #expect(phone.isAppInstalled)
        #expect(sim.events("device.clear-data", on: "ann-pixel").count == 1)
        #expect(sim.fcm.tokens[old ?? ""] != nil, "FCM is not told")
    }

    /// iOS has no such setting: nothing changes, and the trace says why.
    @Test func iOSIgnoresItWithTheReason() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("bob-iphone", .ios)
        sim.at(t(1), "install") { phone.install() }
        sim.at(t(2), "clear data") { phone.clearData() }
        sim.run()
        let ignored = sim.events("device.ignored", on: "bob-iphone")
        #expect(ignored.first?[.action] == "clear-data")
        #expect(ignored.first?[.why]?.description.contains("iOS") == true)
    }

    /// The scenario language says it as an action: a phone whose data was cleared gets no more
    /// notifications for the user it was logged in as.
    @Test func theLanguageTakesClearData() throws {
        let text = """
        scenario "clear data"
        device ann-pixel android user ann
        device bob-pixel android user bob
        at 0s ann-pixel install
        at 0s bob-pixel install
        at 1s ann-pixel login ann password ann
        at 1s bob-pixel login bob password bob
        at 3s ann-pixel clear-data
        at 5s bob-pixel send "Hi" to ann via fcm
        expect ann-pixel shows nothing
        """
        let scenario = try ScenarioParser.parse(text, path: "clear.scenario").get()
        #expect(scenario.actions.contains { $0.kind == .device(.clearData) })
        let report = try #require(try? ScenarioRunner.run(scenario).get())
        #expect(report.results.allSatisfy { $0.passed }, "\(report.results.map(\.seen))")
    }
}

import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// Live Activities on an iPhone, end to end through the fake APNs (Citations §1.14–§1.17).
@Suite struct DeviceLiveActivityTests {
    /// Unix seconds at `seconds` into the run (virtual zero is 2026-01-01T00:00:00Z).
    static func unix(_ seconds: Int64) -> Int64 { 1_767_225_600 + seconds }

    /// A simulation with one iPhone (`os`) that installs its app at 0 s.
    private func phone(os: Int = 18, setUp: ((Device) -> Void)? = nil) -> (Simulation, Device) {
        let sim = Simulation(seed: 5)
        let device = sim.addDevice("ann-iphone", .ios, osVersion: os)
        sim.at(t(0), "install") { device.install() }
        if let setUp { sim.at(t(1), "set up") { setUp(device) } }
        return (sim, device)
    }

    /// The operator sends `aps` (the inside of the `aps` dictionary) at `time` to the token `token` reads then.
    private func send(_ aps: String, at time: VirtualTime, in sim: Simulation, priority: String = "10", token: @escaping () -> String?) {
        sim.at(time, "send") {
            sim.operatorConsole.sendToAPNs(payload: #"{"aps":{"# + aps + "}}", token: token() ?? "", headers: [("apns-priority", priority)],
                                           key: sim.identity.apnsKey, bundleID: sim.identity.app.bundleID)
        }
    }

    private func statuses(_ sim: Simulation) -> [Int?] { sim.operatorConsole.calls.map(\.status) }

    private static let kickOff = #""timestamp":1767225605,"event":"start","content-state":{"home":0,"away":0},"attributes-type":"MatchAttributes","attributes":{"match":"Lyon-Nantes"},"alert":{"title":"Kick-off","body":"0-0"}"#

    @Test func aPushToStartTokenStartsAnActivityThatGetsAnUpdateTokenAndTakesUpdates() throws {
        let (sim, device) = phone { $0.observePushToStartToken(attributesType: "MatchAttributes") }
        send(Self.kickOff, at: t(5), in: sim) { device.liveActivities.pushToStartToken(for: "MatchAttributes") }
        send(#""timestamp":\#(Self.unix(600)),"event":"update","content-state":{"home":1,"away":0},"stale-date":\#(Self.unix(2_100)),"relevance-score":0.8,"alert":{"title":"Goal","body":"1-0"}"#,
             at: t(600), in: sim) { device.liveActivities.newest()?.updateToken }
        _ = sim.run()
        #expect(statuses(sim) == [200, 200])
        let activity = try #require(device.liveActivities.newest("MatchAttributes"))
        #expect(activity.origin == .push)
        #expect(activity.attributes["match"]?.stringValue == "Lyon-Nantes")
        #expect(activity.contentState["home"]?.int64Value == 1)
        #expect(activity.relevanceScore == 0.8)
        #expect(activity.alerts == ["Kick-off: 0-0", "Goal: 1-0"])
        #expect(activity.updateToken != nil && activity.updateToken != device.liveActivities.pushToStartToken(for: "MatchAttributes"))
        #expect(activity.state(at: t(2_099)) == .active)
        #expect(activity.state(at: t(2_100)) == .stale)
        #expect(device.inbox.isEmpty)   // an ActivityKit alert belongs to the activity, not Notification Center
    }

    @Test func anActivityEndsAfterEightHoursAndLeavesTheLockScreenFourHoursLater() throws {
        let (sim, device) = phone { $0.startLiveActivity(attributesType: "TimerAttributes", contentState: .object([("left", "8h")])) }
        _ = sim.run()
        let activity = try #require(device.liveActivities.newest())
        #expect(activity.state(at: t(0) + .seconds(8 * 3_600)) == .active)
        #expect(activity.state(at: t(1) + .hours(8)) == .ended)
        #expect(activity.state(at: t(0) + .seconds(12 * 3_600)) == .ended)
        #expect(activity.state(at: t(1) + .hours(12)) == .dismissed)
    }

    @Test func aDismissalDateBeyondFourHoursIsCutToFour() throws {
        let (sim, device) = phone { $0.startLiveActivity(attributesType: "T", contentState: .object([])) }
        send(#""timestamp":\#(Self.unix(60)),"event":"end","dismissal-date":\#(Self.unix(60 + 6 * 3_600))"#, at: t(60), in: sim) {
            device.liveActivities.newest()?.updateToken
        }
        _ = sim.run()
        let activity = try #require(device.liveActivities.newest())
        #expect(activity.state(at: t(61)) == .ended)
        #expect(activity.endsAt < t(61) && activity.dismissedAt == activity.endsAt + .hours(4))
    }

    @Test func anUpdateOlderThanTheNewestContentIsIgnored() throws {
        let (sim, device) = phone { $0.startLiveActivity(attributesType: "T", contentState: .object([("eta", "12:30")])) }
        let token = { device.liveActivities.newest()?.updateToken }
        send(#""timestamp":\#(Self.unix(60)),"event":"update","content-state":{"eta":"12:40"}"#, at: t(60), in: sim, token: token)
        send(#""timestamp":\#(Self.unix(30)),"event":"update","content-state":{"eta":"12:35"}"#, at: t(120), in: sim, token: token)
        _ = sim.run()
        #expect(statuses(sim) == [200, 200])
        #expect(device.liveActivities.newest()?.contentState["eta"]?.stringValue == "12:40")
        #expect(sim.events("liveactivity.ignored", on: "ann-iphone").first?[.why]?.description.contains("older") == true)
    }

    @Test func aPushAfterTheEndIsIgnoredAndAfterTheDismissalAnswered410ExpiredToken() throws {
        let (sim, device) = phone { $0.startLiveActivity(attributesType: "T", contentState: .object([("n", 1)])) }
        sim.at(t(60), "end") { device.endLiveActivity(dismissalDate: t(360)) }
        let token = { device.liveActivities.newest()?.updateToken }
        send(#""timestamp":\#(Self.unix(120)),"event":"update","content-state":{"n":2}"#, at: t(120), in: sim, token: token)
        send(#""timestamp":\#(Self.unix(400)),"event":"update","content-state":{"n":3}"#, at: t(400), in: sim, token: token)
        send(#""timestamp":\#(Self.unix(500)),"event":"update","content-state":{"n":4}"#, at: t(500), in: sim, token: token)
        _ = sim.run()
        #expect(statuses(sim) == [200, 200, 410])
        #expect(device.liveActivities.newest()?.contentState["n"]?.int64Value == 1)
        let answer = try #require(sim.world.journal.requests(to: APNsService.name).last)
        #expect(answer.result?.response?.bodyText.hasPrefix(#"{"reason":"ExpiredToken","timestamp":"#) == true)
    }

    @Test func aRotatedUpdateTokenNoLongerReachesTheActivity() throws {
        var old: String?
        let (sim, device) = phone { $0.startLiveActivity(attributesType: "T", contentState: .object([("n", 1)])) }
        sim.at(t(30), "rotate") { old = device.liveActivities.newest()?.updateToken; device.rotateLiveActivityToken() }
        send(#""timestamp":\#(Self.unix(60)),"event":"update","content-state":{"n":2}"#, at: t(60), in: sim) { old }
        send(#""timestamp":\#(Self.unix(61)),"event":"update","content-state":{"n":3}"#, at: t(61), in: sim) { old }
        send(#""timestamp":\#(Self.unix(62)),"event":"update","content-state":{"n":4}"#, at: t(62), in: sim) { device.liveActivities.newest()?.updateToken }
        _ = sim.run()
        #expect(statuses(sim) == [200, 410, 200])
        #expect(device.liveActivities.newest()?.contentState["n"]?.int64Value == 4)
    }

    @Test func deniedNotificationsStillUpdateTheActivityButSwitchedOffLiveActivitiesDoNot() throws {
        let (sim, device) = phone {
            $0.denyNotifications()
            $0.startLiveActivity(attributesType: "T", contentState: .object([("n", 1)]))
        }
        let token = { device.liveActivities.newest()?.updateToken }
        send(#""timestamp":\#(Self.unix(60)),"event":"update","content-state":{"n":2},"alert":"two""#, at: t(60), in: sim, token: token)
        sim.at(t(90), "off") { device.setLiveActivitiesEnabled(false) }
        send(#""timestamp":\#(Self.unix(120)),"event":"update","content-state":{"n":3}"#, at: t(120), in: sim, token: token)
        _ = sim.run()
        let activity = try #require(device.liveActivities.newest())
        #expect(activity.contentState["n"]?.int64Value == 2)
        #expect(activity.alerts == ["two"])
        #expect(device.suppressed.isEmpty)
    }

    @Test func thePriority10BudgetDropsUpdatesOverItButNotPriority5() throws {
        let (sim, device) = phone {
            $0.liveActivityPriority10Budget = RateLimit(1, per: .hours(1))
            $0.startLiveActivity(attributesType: "T", contentState: .object([("n", 1)]))
        }
        let token = { device.liveActivities.newest()?.updateToken }
        send(#""timestamp":\#(Self.unix(60)),"event":"update","content-state":{"n":2}"#, at: t(60), in: sim, token: token)
        send(#""timestamp":\#(Self.unix(70)),"event":"update","content-state":{"n":3}"#, at: t(70), in: sim, token: token)
        _ = sim.run()
        #expect(device.liveActivities.newest()?.contentState["n"]?.int64Value == 2)
        send(#""timestamp":\#(Self.unix(80)),"event":"update","content-state":{"n":4}"#, at: sim.world.now + .seconds(1), in: sim, priority: "5", token: token)
        _ = sim.run()
        #expect(device.liveActivities.newest()?.contentState["n"]?.int64Value == 4)
    }

    @Test func pushToStartNeedsIOS17AndLiveActivitiesIOS16() {
        let (sim16, ios16) = phone(os: 16) { $0.observePushToStartToken(attributesType: "T") }
        let (sim12, ios12) = phone(os: 12) { $0.startLiveActivity(attributesType: "T", contentState: .object([])) }
        _ = sim16.run()
        _ = sim12.run()
        #expect(ios16.liveActivities.pushToStartTokens.isEmpty)
        #expect(ios12.liveActivities.activities.isEmpty)
        #expect(sim16.events("liveactivity.ignored").first?[.why]?.description.contains("17.2") == true)
        #expect(sim12.events("liveactivity.ignored").first?[.why]?.description.contains("16.1") == true)
    }

    @Test func aStartWithoutAttributesOrToAnotherTypeStartsNothing() {
        let (sim, device) = phone { $0.observePushToStartToken(attributesType: "MatchAttributes") }
        let token = { device.liveActivities.pushToStartToken(for: "MatchAttributes") }
        send(#""timestamp":1767225605,"event":"start","content-state":{},"attributes-type":"MatchAttributes""#, at: t(5), in: sim, token: token)
        send(#""timestamp":1767225606,"event":"start","content-state":{},"attributes-type":"Other","attributes":{}"#, at: t(6), in: sim, token: token)
        send(#""timestamp":1767225607,"event":"update","content-state":{}"#, at: t(7), in: sim, token: token)
        _ = sim.run()
        #expect(statuses(sim) == [200, 200, 200])
        #expect(device.liveActivities.activities.isEmpty)
        #expect(sim.events("liveactivity.ignored").count == 3)
    }
}

import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// A Live Activity on an APNs broadcast channel (iOS 18; Citations §1.20): one ``LiveActivity``
/// like every other, started by the app or by push-to-start with `input-push-channel`; the device
/// subscribes, each broadcast is taken as a push to the activity's token would be (newer
/// timestamps only, stale date, end, dismissal), and a device with no activity left on the
/// channel makes APNs drop the subscription.
@Suite struct DeviceBroadcastChannelTests {
    /// Virtual 0 s in Unix seconds (the simulation's default epoch, 2026-01-01T00:00:00Z).
    private let epoch: Int64 = 1_767_225_600

    private func account(_ sim: Simulation) -> OperatorConsole.APNsAccount {
        OperatorConsole.APNsAccount(key: sim.identity.apnsKey, bundleID: sim.identity.app.bundleID, environment: "production")
    }

    /// An ActivityKit payload `seconds` after the epoch showing `score`.
    private func update(_ seconds: Int64, _ score: String, event: String = "update", extra: String = "") -> String {
        #"{"aps":{"timestamp":\#(epoch + seconds),"event":"\#(event)","content-state":{"score":"\#(score)"}\#(extra)}}"#
    }

    /// An iOS 18 phone whose app starts a MatchAttributes activity showing 0-0 at 2 s on channel
    /// "final", which the operator creates at 1 s (no storage).
    private func phoneOnChannelFinal() -> (Simulation, Device, OperatorConsole, OperatorConsole.APNsAccount) {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        let console = sim.operatorConsole, account = account(sim)
        sim.at(t(0), "install") { phone.install() }
        sim.at(t(1), "create") { console.createBroadcastChannel("final", policy: .noMessageStored, account: account) }
        sim.at(t(2), "start") {
            phone.startLiveActivity(attributesType: "MatchAttributes", contentState: .object([("score", .string("0-0"))]),
                                    channel: console.broadcastChannelIDs["final"] ?? "")
        }
        return (sim, phone, console, account)
    }

    private func ignored(_ sim: Simulation) -> [String] {
        sim.world.trace.events.filter { $0.kind == .liveActivityIgnored }.compactMap { $0[.why]?.description }
    }

    @Test func broadcastsUpdateTheActivityNewestFirstUntilItEnds() throws {
        let (sim, phone, console, account) = phoneOnChannelFinal()
        sim.at(t(3), "goal") { console.broadcast(self.update(10, "1-0"), onChannel: "final", headers: [], account: account) }
        sim.at(t(4), "older") { console.broadcast(self.update(9, "0-1"), onChannel: "final", headers: [], account: account) }
        sim.at(t(5), "end") { console.broadcast(self.update(11, "2-0", event: "end"), onChannel: "final", headers: [], account: account) }
        sim.at(t(6), "after the end") { console.broadcast(self.update(12, "3-0"), onChannel: "final", headers: [], account: account) }
        sim.run()
        let id = try #require(console.broadcastChannelIDs["final"])
        let activity = try #require(phone.liveActivities.newest(onChannel: id))
        #expect(activity.contentState.serialized() == #"{"score":"2-0"}"#)
        #expect(activity.updates == 1 && activity.state(at: sim.world.now) == .ended && activity.timestamp == epoch + 11)
        #expect(activity.channel == id && activity.updateToken == nil && activity.origin == .app)
        #expect(phone.inbox.isEmpty)   // a Live Activity update is not a notification in the list
        #expect(ignored(sim) == ["timestamp \(epoch + 9) is older than the Live Activity's newest content (\(epoch + 10))",
                                 "the Live Activity has ended: pushes after its end are ignored"])
    }

    /// The join: a channel activity has what every Live Activity has. Before, it was a small
    /// `BroadcastActivity` with no stale date, alert, dismissal or eight-hour end, and
    /// `expect … live activity` did not see it.
    @Test func aChannelActivityGoesStaleAlertsAndIsDismissedAsAnyLiveActivity() throws {
        let (sim, phone, console, account) = phoneOnChannelFinal()
        let goal = update(10, "1-0", extra: #","stale-date":\#(epoch + 60),"alert":{"title":"Goal","body":"1-0"}"#)
        sim.at(t(3), "goal") { console.broadcast(goal, onChannel: "final", headers: [], account: account) }
        sim.at(t(100), "end") {
            console.broadcast(self.update(100, "2-0", event: "end", extra: #","dismissal-date":\#(self.epoch + 160)"#), onChannel: "final",
                              headers: [], account: account)
        }
        sim.at(t(200), "after the dismissal") { console.broadcast(self.update(200, "3-0"), onChannel: "final", headers: [], account: account) }
        var states: [LiveActivityState] = []
        for second: Int64 in [30, 70, 150] {
            sim.at(t(second), "look") { states.append(phone.liveActivities.newest("MatchAttributes")?.state(at: sim.world.now) ?? .dismissed) }
        }
        sim.run()
        let activity = try #require(phone.liveActivities.newest("MatchAttributes"))
        #expect(states == [.active, .stale, .ended])
        #expect(activity.state(at: sim.world.now) == .dismissed && activity.alerts == ["Goal: 1-0"])
        let refused = sim.world.trace.events.filter { $0.kind == .devicePushRefused }.compactMap { $0[.why]?.description }
        #expect(refused == ["no Live Activity on this channel"])   // after the dismissal: APNs drops the phone
    }

    @Test func aChannelActivityEndsAfterEightHoursLikeAnyOther() throws {
        let (sim, phone, console, account) = phoneOnChannelFinal()
        sim.at(t(8 * 3600 + 10), "late") { console.broadcast(self.update(8 * 3600 + 10, "9-9"), onChannel: "final", headers: [], account: account) }
        sim.run()
        let activity = try #require(phone.liveActivities.newest("MatchAttributes"))
        #expect(activity.contentState.serialized() == #"{"score":"0-0"}"# && activity.state(at: t(8 * 3600 + 10)) == .ended)
        #expect(ignored(sim) == ["the Live Activity has ended: pushes after its end are ignored"])
    }

    /// A push-to-start naming `input-push-channel` puts the new activity on the channel (iOS 18)
    /// instead of giving it an update token. Before, the device ignored the channel and asked
    /// APNs for an update token, so broadcasts never reached the activity.
    @Test func pushToStartWithInputPushChannelSubscribesTheNewActivity() throws {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        let console = sim.operatorConsole, account = account(sim)
        sim.at(t(0), "install") { phone.install() }
        sim.at(t(1), "observe") { phone.observePushToStartToken(attributesType: "MatchAttributes") }
        sim.at(t(1), "create") { console.createBroadcastChannel("final", policy: .noMessageStored, account: account) }
        let start = #"{"aps":{"timestamp":\#(epoch + 5),"event":"start","content-state":{"score":"0-0"},"attributes-type":"MatchAttributes","#
            + #""attributes":{},"input-push-channel":"final"}}"#
        sim.at(t(5), "start") {
            console.sendToAPNs(payload: start, token: phone.liveActivities.pushToStartToken(for: "MatchAttributes") ?? "", headers: [],
                               key: sim.identity.apnsKey, bundleID: sim.identity.app.bundleID)
        }
        sim.at(t(10), "goal") { console.broadcast(self.update(10, "1-0"), onChannel: "final", headers: [], account: account) }
        sim.run()
        let id = try #require(console.broadcastChannelIDs["final"])
        let activity = try #require(phone.liveActivities.newest("MatchAttributes"))
        #expect(activity.origin == .push && activity.channel == id && activity.updateToken == nil)
        #expect(activity.contentState.serialized() == #"{"score":"1-0"}"#)
    }

    @Test func onlyAnIPhoneOnIOS18StartsOneOnAChannel() {
        let sim = Simulation(seed: 5)
        let old = sim.addDevice("old-iphone", .ios, osVersion: 17), pixel = sim.addDevice("ann-pixel", .android)
        sim.at(t(0), "install") { old.install(); pixel.install() }
        sim.at(t(1), "start") {
            for device in [old, pixel] { device.startLiveActivity(attributesType: "MatchAttributes", contentState: .object([]), channel: "QUJD") }
        }
        sim.run()
        #expect(ignored(sim) == ["broadcast channels need iOS 18 or later", "Live Activities need iOS 16.1 or later on an iPhone"])
        #expect(old.liveActivities.activities.isEmpty && pixel.liveActivities.activities.isEmpty)
    }

    @Test func anUnknownChannelLeavesNoActivity() {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        sim.at(t(0), "install") { phone.install() }
        sim.at(t(1), "start") { phone.startLiveActivity(attributesType: "MatchAttributes", contentState: .object([]), channel: "QUJD") }
        sim.run()
        #expect(phone.liveActivities.activities.isEmpty)
        #expect(ignored(sim).first?.hasPrefix("APNs did not subscribe the device to channel QUJD") == true)
    }

    @Test func aRemovedAppMakesAPNsDropTheSubscription() {
        let (sim, phone, console, account) = phoneOnChannelFinal()
        sim.at(t(3), "uninstall") { phone.uninstall() }
        sim.at(t(4), "goal") { console.broadcast(self.update(10, "1-0"), onChannel: "final", headers: [], account: account) }
        sim.at(t(5), "goal") { console.broadcast(self.update(11, "2-0"), onChannel: "final", headers: [], account: account) }
        sim.run()
        let refused = sim.world.trace.events.filter { $0.kind == .devicePushRefused }
        #expect(refused.count == 1)   // the second broadcast finds no subscriber
        #expect(phone.liveActivities.activities.isEmpty)
    }

    /// The device routes a push by the handle it targets, not by its headers: a `liveactivity`
    /// push to the app's own device token (no channel) is the app's. Before, the `apns-push-type`
    /// header sent it to the Live Activities, which answered 410 for the app's live token.
    @Test func aPushToTheAppsTokenIsTheAppsWhateverItsPushType() {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        sim.at(t(0), "install") { phone.install() }
        sim.push(#"{"aps":{"alert":"hello"}}"#, to: phone, headers: [("apns-push-type", "liveactivity")], at: t(2))
        sim.run()
        #expect(sim.world.trace.events.filter { $0.kind == .devicePushRefused }.isEmpty)
        #expect(sim.world.trace.events.contains { $0.kind == .devicePushReceived })
    }
}

import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// A Live Activity started on an APNs broadcast channel (iOS 18; Citations §1.20): the device
/// subscribes, each broadcast updates what it shows, stale and ended updates are not taken, and a
/// device whose app is gone makes APNs drop the subscription.
@Suite struct DeviceBroadcastChannelTests {
    private func account(_ sim: Simulation) -> OperatorConsole.APNsAccount {
        OperatorConsole.APNsAccount(key: sim.identity.apnsKey, bundleID: sim.identity.app.bundleID, environment: "production")
    }

    private func update(_ timestamp: Int, _ score: String, event: String = "update") -> String {
        #"{"aps":{"timestamp":\#(timestamp),"event":"\#(event)","content-state":{"score":"\#(score)"}}}"#
    }

    /// An iOS 18 phone whose app starts an activity showing 0-0 at 2 s on channel "final", which
    /// the operator creates at 1 s (no storage).
    private func phoneOnChannelFinal() -> (Simulation, Device, OperatorConsole, OperatorConsole.APNsAccount) {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        let console = sim.operatorConsole, account = account(sim)
        sim.at(t(0), "install") { phone.install() }
        sim.at(t(1), "create") { console.createBroadcastChannel("final", policy: .noMessageStored, account: account) }
        sim.at(t(2), "start") { phone.startActivity(onChannel: console.broadcastChannelIDs["final"] ?? "", contentState: #"{"score":"0-0"}"#) }
        return (sim, phone, console, account)
    }

    @Test func broadcastsUpdateTheActivityNewestFirstUntilItEnds() throws {
        let (sim, phone, console, account) = phoneOnChannelFinal()
        sim.at(t(3), "goal") { console.broadcast(self.update(10, "1-0"), onChannel: "final", headers: [], account: account) }
        sim.at(t(4), "stale") { console.broadcast(self.update(9, "0-1"), onChannel: "final", headers: [], account: account) }
        sim.at(t(5), "end") { console.broadcast(self.update(11, "2-0", event: "end"), onChannel: "final", headers: [], account: account) }
        sim.at(t(6), "after the end") { console.broadcast(self.update(12, "3-0"), onChannel: "final", headers: [], account: account) }
        sim.run()
        let id = try #require(console.broadcastChannelIDs["final"])
        let activity = try #require(phone.broadcastActivity(onChannel: id))
        #expect(activity.contentState == #"{"score":"2-0"}"#)
        #expect(activity.updates == 2 && activity.ended && activity.lastUpdateTimestamp == 11)
        #expect(phone.inbox.isEmpty)   // a Live Activity update is not a notification in the list
        let ignored = sim.world.trace.events.filter { $0.kind == .activityBroadcastIgnored }.compactMap { $0[.why]?.description }
        #expect(ignored == ["timestamp 9 is not newer than 10", "the activity has ended"])
    }

    /// A broadcast is read as any ActivityKit push (LiveActivityPush): before, one without
    /// `aps.event` was taken as an update and one without `content-state` counted as an update
    /// that changed nothing, where ActivityKit drops both.
    @Test func aBroadcastWithoutEventOrContentStateIsIgnoredAsActivityKitIgnoresIt() throws {
        let (sim, phone, console, account) = phoneOnChannelFinal()
        sim.at(t(3), "no event") {
            console.broadcast(#"{"aps":{"timestamp":10,"content-state":{"score":"1-0"}}}"#, onChannel: "final", headers: [], account: account)
        }
        sim.at(t(4), "no content") { console.broadcast(#"{"aps":{"timestamp":11,"event":"update"}}"#, onChannel: "final", headers: [], account: account) }
        sim.run()
        let id = try #require(console.broadcastChannelIDs["final"])
        let activity = try #require(phone.broadcastActivity(onChannel: id))
        #expect(activity.contentState == #"{"score":"0-0"}"# && activity.updates == 0)
        let ignored = sim.world.trace.events.filter { $0.kind == .activityBroadcastIgnored }.compactMap { $0[.why]?.description }
        #expect(ignored == ["aps has no event", "an update needs aps.content-state, a JSON object"])
    }

    @Test func onlyAnIPhoneOnIOS18StartsOne() {
        let sim = Simulation(seed: 5)
        let old = sim.addDevice("old-iphone", .ios, osVersion: 17), pixel = sim.addDevice("ann-pixel", .android)
        sim.at(t(0), "install") { old.install(); pixel.install() }
        sim.at(t(1), "start") { old.startActivity(onChannel: "QUJD"); pixel.startActivity(onChannel: "QUJD") }
        sim.run()
        let reasons = sim.world.trace.events.filter { $0.kind == .deviceIgnored }.compactMap { $0[.why]?.description }
        #expect(reasons == ["broadcast channels need iOS 18 or later", "broadcast channels need iOS 18 or later"])
        #expect(old.broadcastActivities.isEmpty && pixel.broadcastActivities.isEmpty)
    }

    @Test func anUnknownChannelLeavesNoActivity() {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        sim.at(t(0), "install") { phone.install() }
        sim.at(t(1), "start") { phone.startActivity(onChannel: "QUJD") }
        sim.run()
        #expect(phone.broadcastActivities.isEmpty)
    }

    @Test func aRemovedAppMakesAPNsDropTheSubscription() {
        let sim = Simulation(seed: 5)
        let phone = sim.addDevice("ann-iphone", .ios, osVersion: 18)
        let console = sim.operatorConsole, account = account(sim)
        sim.at(t(0), "install") { phone.install() }
        sim.at(t(1), "create") { console.createBroadcastChannel("final", policy: .noMessageStored, account: account) }
        sim.at(t(2), "start") { phone.startActivity(onChannel: console.broadcastChannelIDs["final"] ?? "") }
        sim.at(t(3), "uninstall") { phone.uninstall() }
        sim.at(t(4), "goal") { console.broadcast(self.update(10, "1-0"), onChannel: "final", headers: [], account: account) }
        sim.at(t(5), "goal") { console.broadcast(self.update(11, "2-0"), onChannel: "final", headers: [], account: account) }
        sim.run()
        let refused = sim.world.trace.events.filter { $0.kind == .devicePushRefused }
        #expect(refused.count == 1)   // the second broadcast finds no subscriber
        #expect(phone.broadcastActivities.isEmpty)
    }
}

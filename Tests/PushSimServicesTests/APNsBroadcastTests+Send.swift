import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("APNs broadcast pushes: POST /4/broadcasts/apps/… (Citations §1.20)")
struct APNsBroadcastSendTests {
    /// A bench whose phone subscribed to a new channel with storage `policy`, then went offline.
    private func offlinePhoneOnChannel(policy: Int) -> (APNsBench, String) {
        let bench = APNsBench()
        let channel = bench.createChannel(policy: policy)
        _ = bench.subscribe(bench.phone, token: bench.token, to: channel)
        bench.phone.goOffline()
        return (bench, channel)
    }

    @Test func aBroadcastReachesEverySubscribedDevice() throws {
        let bench = APNsBench()
        let ipad = FakeDevice(world: bench.world, name: "ipad", serviceHost: APNsService.deviceHost)
        let ipadToken = ipad.register(app: APNsBench.bundle, environment: "production")
        let bystander = FakeDevice(world: bench.world, name: "bystander", serviceHost: APNsService.deviceHost)
        _ = bystander.register(app: APNsBench.bundle, environment: "production")
        let channel = bench.createChannel(policy: 0)
        #expect(bench.subscribe(bench.phone, token: bench.token, to: channel) == 200)
        #expect(bench.subscribe(ipad, token: ipadToken, to: channel) == 200)
        let r = bench.broadcast(on: channel, headers: [("apns-push-type", "liveactivity"), ("apns-request-id", "5d2c0d7e-1f1a-4a4e-9d55-0c6f5b1e2a33")])
        #expect(r.status == 200)
        #expect(r.body.isEmpty)
        #expect(r.headers["apns-request-id"] == "5d2c0d7e-1f1a-4a4e-9d55-0c6f5b1e2a33")
        #expect(bench.phone.pushes.count == 1 && ipad.pushes.count == 1 && bystander.pushes.isEmpty)
        let push = try #require(ipad.pushes.first)
        #expect(push.headers[DeviceChannel.channelHeader] == channel)
        #expect(push.headers["apns-push-type"] == "liveactivity")
        #expect(push.text.contains(#""score":"1-0""#))
        #expect(bench.world.events("apns.delivered").count == 2)
    }

    @Test func anOfflineDeviceMissesABroadcastOnANoStorageChannel() {
        let (bench, channel) = offlinePhoneOnChannel(policy: 0)
        #expect(bench.broadcast(on: channel).status == 200)
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["device unreachable and the channel stores no messages"])
    }

    @Test func anOfflineDeviceGetsTheMostRecentBroadcastOnAStorageChannel() {
        let (bench, channel) = offlinePhoneOnChannel(policy: 1)
        #expect(bench.broadcast(on: channel, body: #"{"aps":{"timestamp":1,"content-state":{"score":"1-0"}}}"#).status == 200)
        #expect(bench.broadcast(on: channel, body: #"{"aps":{"timestamp":2,"content-state":{"score":"2-0"}}}"#).status == 200)
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.map(\.text) == [#"{"aps":{"timestamp":2,"content-state":{"score":"2-0"}}}"#])
        #expect(bench.world.dropReasons == ["replaced by a newer broadcast on the channel (APNs keeps the most recent)"])
    }

    @Test func aBroadcastKeptForAnOfflineDeviceIsALeftover() {
        let (bench, channel) = offlinePhoneOnChannel(policy: 1)
        #expect(bench.broadcast(on: channel, headers: [("apns-push-type", "liveactivity"), ("apns-request-id", "5d2c0d7e-1f1a-4a4e-9d55-0c6f5b1e2a33")]).status == 200)
        #expect(bench.apns.leftovers(world: bench.world).map(\.line)
                == ["broadcast 5d2c0d7e-1f1a-4a4e-9d55-0c6f5b1e2a33 on channel \(channel) kept for iphone, undelivered"])
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.apns.leftovers(world: bench.world).isEmpty)
    }

    @Test func aStoredBroadcastExpires() {
        let (bench, channel) = offlinePhoneOnChannel(policy: 1)
        #expect(bench.broadcast(on: channel, headers: [("apns-push-type", "liveactivity"), ("apns-expiration", String(bench.unixNow + 60))]).status == 200)
        bench.world.advance(by: .minutes(5))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["expired while the device was unreachable"])
    }

    @Test func aDeletedChannelIsNotRegistered() {
        let bench = APNsBench()
        let channel = bench.createChannel()
        _ = bench.subscribe(bench.phone, token: bench.token, to: channel)
        #expect(bench.manage("DELETE", channel: channel).status == 204)
        let r = bench.broadcast(on: channel)
        #expect(r.status == 400 && r.bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        #expect(r.headers["apns-request-id"] != nil)
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.subscribe(bench.phone, token: bench.token, to: channel) == 404)
    }

    @Test func documentedErrors() {
        let bench = APNsBench()
        let stored = bench.createChannel(policy: 1), unstored = bench.createChannel(policy: 0)
        #expect(bench.broadcast(on: nil).bodyText == #"{"reason":"MissingChannelId"}"#)
        #expect(bench.broadcast(on: "%%%").bodyText == #"{"reason":"BadChannelId"}"#)
        #expect(bench.broadcast(on: stored, headers: []).bodyText == #"{"reason":"MissingPushType"}"#)
        #expect(bench.broadcast(on: stored, headers: [("apns-push-type", "alert")]).bodyText == #"{"reason":"InvalidPushType"}"#)
        #expect(bench.broadcast(on: stored, headers: [("apns-push-type", "liveactivity"), ("apns-priority", "7")]).bodyText == #"{"reason":"BadPriority"}"#)
        #expect(bench.broadcast(on: stored, headers: [("apns-push-type", "liveactivity"), ("apns-expiration", "soon")]).bodyText == #"{"reason":"BadExpirationDate"}"#)
        #expect(bench.broadcast(on: unstored, headers: [("apns-push-type", "liveactivity"), ("apns-expiration", "2000000000")]).bodyText == #"{"reason":"BadExpirationDate"}"#)
        #expect(bench.broadcast(on: unstored, headers: [("apns-push-type", "liveactivity"), ("apns-expiration", "0")]).status == 200)
        #expect(bench.broadcast(on: stored, body: "").bodyText == #"{"reason":"PayloadEmpty"}"#)
        #expect(bench.broadcast(on: stored, body: String(repeating: "x", count: 4_097)).status == 413)
        #expect(bench.broadcast(on: stored, path: "/4/broadcasts/apps/").bodyText == #"{"reason":"BadPath"}"#)
        #expect(bench.broadcast(on: "QUJD").bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        let sandbox = bench.send(topic: nil, headers: [("apns-push-type", "liveactivity"), ("apns-channel-id", stored)],
                                 host: APNsService.sandboxHost, path: "/4/broadcasts/apps/\(APNsBench.bundle)")
        #expect(sandbox.bodyText == #"{"reason":"ChannelNotRegistered"}"#)
        let noAuth = bench.send(topic: nil, headers: [("apns-push-type", "liveactivity"), ("apns-channel-id", stored)],
                                auth: .missing, path: "/4/broadcasts/apps/\(APNsBench.bundle)")
        #expect(noAuth.status == 403)
    }

    /// A broadcast's answer names the request in `apns-request-id`, also when an injected outage
    /// or the provider token refuses it. Before, both answered with a send's `apns-id`.
    @Test func anOutageOrABadTokenAnswersABroadcastWithItsRequestID() {
        let bench = APNsBench()
        let channel = bench.createChannel(policy: 0)
        let requestID = "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d"
        let refused = bench.send(topic: nil, headers: [("apns-push-type", "liveactivity"), ("apns-channel-id", channel), ("apns-request-id", requestID)],
                                 auth: .missing, path: "/4/broadcasts/apps/\(APNsBench.bundle)")
        #expect(refused.status == 403 && refused.headers["apns-request-id"] == requestID && refused.headers["apns-id"] == nil)
        bench.apns.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(30)), from: bench.world.now, to: bench.world.now + .seconds(30))]
        let r = bench.broadcast(on: channel, headers: [("apns-push-type", "liveactivity"), ("apns-request-id", requestID)])
        #expect(r.status == 503 && r.bodyText == #"{"reason":"ServiceUnavailable"}"#)
        #expect(r.headers["apns-request-id"] == requestID && r.headers["apns-id"] == nil)
    }

    @Test func aDeviceWithoutTheActivityLeavesTheChannel() {
        let bench = APNsBench()
        let channel = bench.createChannel(policy: 0)
        _ = bench.subscribe(bench.phone, token: bench.token, to: channel)
        bench.phone.uninstall()
        #expect(bench.broadcast(on: channel).status == 200)
        #expect(bench.apns.broadcast.registry.subscribers(of: bench.apns.broadcast.registry.all[0]).isEmpty)
    }
}

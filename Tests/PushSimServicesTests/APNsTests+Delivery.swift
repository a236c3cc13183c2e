import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("APNs provider API: success and 410 (Citations §1.8, §1.9)")
struct APNsSuccessTests {
    @Test func acceptedPushIs200WithEmptyBodyAndEchoedApnsId() {
        let bench = APNsBench()
        let id = "3f1c2d4e-8a9b-4c7d-9e0f-112233445566"
        let r = bench.send(headers: [("apns-id", id), ("apns-priority", "5"), ("apns-collapse-id", "score")])
        #expect(r.status == 200)
        #expect(r.body.isEmpty)
        #expect(r.headers["apns-id"] == id)
        #expect(bench.phone.pushes.count == 1)
        let push = bench.phone.pushes[0]
        #expect(push.text == #"{"aps":{"alert":"Hello"}}"#)
        #expect(push.headers["apns-id"] == id)
        #expect(push.headers["apns-priority"] == "5")
        #expect(push.headers["apns-collapse-id"] == "score")
        #expect(push.headers["apns-push-type"] == "alert")
        #expect(push.headers[DeviceChannel.appHeader] == APNsBench.bundle)
        #expect(bench.world.events("apns.delivered").count == 1)
    }

    @Test func missingApnsIdIsGeneratedAsLowercaseUUID() {
        let bench = APNsBench()
        let a = bench.send(), b = bench.send()
        #expect(a.status == 200 && b.status == 200)
        let idA = a.headers["apns-id"] ?? "", idB = b.headers["apns-id"] ?? ""
        #expect(isLowercaseUUIDv4(idA), "\(idA)")
        #expect(isLowercaseUUIDv4(idB), "\(idB)")
        #expect(idA != idB)
        #expect(bench.phone.pushes.map { $0.headers["apns-id"] ?? "" } == [idA, idB])
        // Same seed, same ids.
        #expect(APNsBench().send().headers["apns-id"] == idA)
    }

    @Test func uninstalledAppIsReportedOnlyAfterADeliveryAttempt() throws {
        let bench = APNsBench()
        bench.phone.uninstall()
        bench.world.advance(by: .minutes(5))
        // The first send after the uninstall is accepted: APNs has not learnt anything yet.
        #expect(bench.send().status == 200)
        #expect(bench.phone.refused == 1)
        let learnt = try #require(bench.world.events("apns.token-invalidated").first).time
        bench.world.advance(by: .minutes(1))
        let r = bench.send()
        #expect(r.status == 410)
        #expect(r.bodyText == #"{"reason":"Unregistered","timestamp":\#(bench.world.anchor.unixMilliseconds(learnt))}"#)
        #expect(bench.world.anchor.unixMilliseconds(learnt) % 1_000 != 0) // milliseconds, not seconds * 1000
        #expect(bench.phone.refused == 1) // no further delivery attempt
    }

    @Test func unregisteredIsDelayedByTheConfiguredReportDelay() throws {
        let bench = APNsBench(unregisteredReportDelay: .hours(2))
        bench.phone.uninstall()
        #expect(bench.send().status == 200)
        let learnt = try #require(bench.world.events("apns.token-invalidated").first).time
        bench.world.advance(by: .minutes(119))
        #expect(bench.send().status == 200) // still inside the delay
        bench.world.run(until: learnt + .hours(2))
        let r = bench.send()
        #expect(r.status == 410)
        #expect(r.bodyText == #"{"reason":"Unregistered","timestamp":\#(bench.world.anchor.unixMilliseconds(learnt))}"#)
    }

    @Test func reinstalledAppGetsANewTokenThatWorks() {
        let bench = APNsBench()
        let old = bench.token
        bench.phone.uninstall()
        #expect(bench.send().status == 200)
        #expect(bench.send().status == 410)
        bench.phone.reinstall()
        let newToken = bench.phone.register(app: APNsBench.bundle, install: 2, environment: "production")
        #expect(newToken != old)
        #expect(bench.send(to: newToken).status == 200)
        #expect(bench.send(to: old).status == 410)
    }
}

@Suite("APNs store-and-forward and tokens (Citations §1.5, §1.9)")
struct APNsDeliveryTests {
    @Test func offlineDeviceKeepsOnlyTheLastNotificationAndGetsItOnReconnect() {
        let bench = APNsBench()
        bench.phone.goOffline()
        let first = "11111111-1111-4111-8111-111111111111", second = "22222222-2222-4222-8222-222222222222"
        #expect(bench.send(headers: [("apns-id", first)], body: #"{"aps":{"alert":"one"}}"#).status == 200)
        #expect(bench.send(headers: [("apns-id", second)], body: #"{"aps":{"alert":"two"}}"#).status == 200)
        let dropped = bench.world.events("notification.dropped")
        #expect(dropped.count == 1)
        #expect(dropped.first?[.apnsID] == .string(first))
        #expect(dropped.first?[.reason]?.description.contains("replaced by a newer notification") == true)
        #expect(bench.world.leftovers().count == 1)
        #expect(bench.phone.pushes.isEmpty)

        bench.world.advance(by: .hours(3))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.map(\.text) == [#"{"aps":{"alert":"two"}}"#])
        #expect(bench.phone.pushes.first?.headers["apns-id"] == second)
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func oneNotificationIsKeptPerApp() {
        let bench = APNsBench()
        let otherApp = bench.phone.register(app: "com.example.chess", environment: "production")
        bench.phone.goOffline()
        #expect(bench.send(body: #"{"aps":{"alert":"notes"}}"#).status == 200)
        #expect(bench.send(to: otherApp, topic: "com.example.chess", body: #"{"aps":{"alert":"chess"}}"#).status == 200)
        #expect(bench.world.events("notification.dropped").isEmpty)
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.map(\.text).sorted() == [#"{"aps":{"alert":"chess"}}"#, #"{"aps":{"alert":"notes"}}"#])
    }

    @Test func expirationZeroIsNeverStored() {
        let bench = APNsBench()
        bench.phone.goOffline()
        #expect(bench.send(headers: [("apns-expiration", "0")]).status == 200)
        #expect(bench.world.dropReasons == ["device unreachable and apns-expiration is 0 (single attempt)"])
        #expect(bench.world.leftovers().isEmpty)
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        // Online, expiration 0 is still delivered (one attempt).
        #expect(bench.send(headers: [("apns-expiration", "0")]).status == 200)
        #expect(bench.phone.pushes.count == 1)
    }

    @Test func expirationInThePastIsDroppedForAnOfflineDevice() {
        let bench = APNsBench()
        bench.phone.goOffline()
        #expect(bench.send(headers: [("apns-expiration", String(bench.unixNow - 10))]).status == 200)
        #expect(bench.world.dropReasons == ["device unreachable and apns-expiration has passed"])
        #expect(bench.world.leftovers().isEmpty)
    }

    @Test func expirationPassingWhileOfflineDropsOnReconnect() {
        let bench = APNsBench()
        bench.phone.goOffline()
        #expect(bench.send(headers: [("apns-expiration", String(bench.unixNow + 60))]).status == 200)
        #expect(bench.world.events("apns.stored").count == 1)
        bench.world.advance(by: .minutes(2))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["expired while the device was unreachable"])
    }

    @Test func storageIsLimitedTo30Days() {
        let bench = APNsBench()
        bench.phone.goOffline()
        #expect(bench.send().status == 200)
        bench.world.advance(by: .days(30))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["expired while the device was unreachable"])

        // Just inside the limit it is delivered.
        bench.phone.goOffline()
        #expect(bench.send().status == 200)
        bench.world.advance(by: .days(30) + .seconds(-1))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.count == 1)
    }

    @Test func farFutureExpirationIsCappedByStorageLimit() {
        let bench = APNsBench()
        bench.phone.goOffline()
        #expect(bench.send(headers: [("apns-expiration", String(Int64.max))]).status == 200)
        #expect(bench.world.events("apns.stored").count == 1)
        bench.world.advance(by: .days(31))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.dropReasons == ["expired while the device was unreachable"])
    }

    @Test func tokenIsStablePerInstallAndNewPerInstall() {
        let bench = APNsBench()
        let again = bench.phone.register(app: APNsBench.bundle, install: 1, environment: "production")
        #expect(again == bench.token)
        let second = bench.phone.register(app: APNsBench.bundle, install: 2, environment: "production")
        #expect(second != bench.token)
        #expect(second.count == 64 && second.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(bench.world.events("apns.token-issued").count == 2)
        // Another device installing the same app gets its own token.
        let ipad = FakeDevice(world: bench.world, name: "ipad", serviceHost: APNsService.deviceHost)
        #expect(ipad.register(app: APNsBench.bundle, install: 1, environment: "production") != bench.token)
        #expect(bench.apns.tokens.count == 3)
        #expect(bench.apns.tokens[bench.token]?.device == "iphone")
    }

    @Test func malformedRegisterAndUnknownDevicePathsAreRefused() {
        let bench = APNsBench()
        let r = bench.provider.roundTrip(HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: DeviceChannel.registerPath,
                                                     body: Array(#"{"app":1}"#.utf8)), in: bench.world)
        #expect(r.status == 400 && r.bodyText == "malformed register request")
        #expect(bench.provider.roundTrip(HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: "/nope"), in: bench.world).status == 404)
    }
}

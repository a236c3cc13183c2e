import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

extension FakeDevice.Push {
    /// `data.n` of an FCM message, or nil.
    var n: String? { (try? JSONParser.parse(body))?["data"]?["n"]?.stringValue }
    var isDeletedMessagesNotice: Bool {
        headers[DeviceChannel.eventHeader] == "deleted_messages"
            && (try? JSONParser.parse(body))?["message_type"]?.stringValue == "deleted_messages"
    }
}

@Suite("FCM onDeletedMessages (Citations §2.5)")
struct FCMDeletedMessagesTests {
    /// Sends 101 non-collapsible messages to the offline phone: one too many.
    func overflow(_ bench: FCMBench) {
        bench.phone.goOffline()
        for n in 0...100 { bench.queue(bench.message(["data": ["n": .string(String(n))]])) }
        bench.world.run()
    }

    @Test func theAppHearsOfTheDeletedMessagesFirstOnReconnect() throws {
        let bench = FCMBench()
        overflow(bench)
        #expect(bench.world.leftovers().map(\.line).contains("fcm: onDeletedMessages() pending for pixel"))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.count == 2)
        #expect(bench.phone.pushes.first?.isDeletedMessagesNotice == true)
        #expect(bench.phone.pushes.first?.text == #"{"message_type":"deleted_messages"}"#)
        #expect(bench.phone.pushes.last?.n == "100")
        #expect(bench.world.events("fcm.deleted-messages-sent").count == 1)
        #expect(bench.world.leftovers().isEmpty)
        // The notice belongs to the send that overflowed the store.
        let overflowing = try #require(bench.world.events("fcm.stored").last).correlation
        #expect(bench.world.events("fcm.deleted-messages-sent").first?.correlation == overflowing)
    }

    @Test func noNoticeWithoutOverflow() {
        let bench = FCMBench()
        bench.phone.goOffline()
        for n in 0..<100 { bench.queue(bench.message(["data": ["n": .string(String(n))]])) }
        bench.world.run()
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.count == 100)
        #expect(!bench.phone.pushes.contains { $0.isDeletedMessagesNotice })
    }

    @Test func theNoticeWaitsIfTheDeviceDropsOffAgain() {
        let bench = FCMBench()
        overflow(bench)
        bench.phone.goOnline()                              // connect arrives at +10 ms, pushes leave then
        bench.world.run(until: bench.world.now + .milliseconds(15))
        bench.phone.goOffline()                             // the pushes arrive at +20 ms to an offline phone
        bench.world.run()
        #expect(bench.phone.pushes.isEmpty)
        #expect(bench.world.leftovers().map(\.line).contains("fcm: onDeletedMessages() pending for pixel"))
        bench.phone.goOnline()
        bench.world.run()
        #expect(bench.phone.pushes.filter(\.isDeletedMessagesNotice).count == 1)
        #expect(bench.phone.pushes.compactMap(\.n) == ["100"])
    }
}

@Suite("FCM token staleness: 270 days without activity (Citations §2.6)")
struct FCMTokenStalenessTests {
    @Test func inactiveFor270DaysIsUnregistered() throws {
        let bench = FCMBench()
        bench.world.advance(by: .days(270))
        bench.renewAccessToken()
        let r = bench.send(bench.message())
        #expect(r.status == 404)
        #expect(GoogleError(r).fcmErrorCode == "UNREGISTERED")
        let expired = try #require(bench.world.events("fcm.token-expired").first)
        #expect(expired[.device] == "pixel")
        #expect(bench.fcm.tokens[bench.token]?.invalidatedAt == bench.fcm.tokens[bench.token].map { $0.lastActiveAt + .days(270) })
        #expect(bench.phone.pushes.isEmpty)
    }

    @Test func oneDayShortOf270IsStillAlive() {
        let bench = FCMBench()
        bench.world.advance(by: .days(269))
        bench.renewAccessToken()
        #expect(bench.send(bench.message()).status == 200)
        #expect(bench.phone.pushes.count == 1)
    }

    @Test func aDeliveryKeepsTheTokenAlive() {
        let bench = FCMBench()
        bench.world.advance(by: .days(200))
        bench.renewAccessToken()
        #expect(bench.send(bench.message()).status == 200) // delivered: a sign of life
        bench.world.advance(by: .days(200))
        bench.renewAccessToken()
        #expect(bench.send(bench.message()).status == 200)
        #expect(bench.phone.pushes.count == 2)
    }

    @Test func sendsThatAreOnlyStoredDoNotCount() {
        let bench = FCMBench()
        bench.phone.goOffline()
        for _ in 0..<3 {
            bench.world.advance(by: .days(100))
            bench.renewAccessToken()
            _ = bench.send(bench.message())
        }
        // 200 days in, the two stored sends were accepted; the third, at 300 days, finds the token expired.
        #expect(bench.world.events("fcm.token-expired").count == 1)
        #expect(bench.server.results.compactMap(\.status).suffix(3) == [200, 200, 404])
    }

    @Test func askingForTheTokenAgainKeepsItAlive() {
        let bench = FCMBench()
        bench.world.advance(by: .days(200))
        #expect(bench.phone.register(app: FCMBench.package, environment: bench.project.projectNumber) == bench.token)
        bench.world.advance(by: .days(200))
        bench.renewAccessToken()
        #expect(bench.send(bench.message()).status == 200)
    }

    @Test func afterExpiryTheAppGetsANewTokenThatWorks() {
        let bench = FCMBench()
        let old = bench.token
        bench.world.advance(by: .days(300))
        let fresh = bench.phone.register(app: FCMBench.package, environment: bench.project.projectNumber)
        #expect(!fresh.isEmpty && fresh != old)
        bench.renewAccessToken()
        #expect(bench.send(bench.message(token: fresh)).status == 200)
        #expect(bench.send(bench.message(token: old)).status == 404)
    }

    @Test func theLimitIsConfigurable() {
        let bench = FCMBench()
        bench.fcm.tokenInactivityLimit = nil
        bench.world.advance(by: .days(1_000))
        bench.renewAccessToken()
        #expect(bench.send(bench.message()).status == 200)
        bench.fcm.tokenInactivityLimit = .days(30)
        bench.world.advance(by: .days(31))
        bench.renewAccessToken()
        #expect(bench.send(bench.message()).status == 404)
    }
}

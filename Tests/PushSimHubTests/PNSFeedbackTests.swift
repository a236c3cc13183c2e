import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// What the hub does with each PNS's "dead handle" answer (Citations §4.9, §6), including
/// the APNs 410 timestamp rule, and how a dead handle leads the client to 410 Gone (§5.1).
@Suite("Hub PNS feedback")
struct PNSFeedbackTests {
    static let gone = "Cannot use specified location. Please use a different registrationid."

    /// Registers `device`, uninstalls the app, and sends once so that the PNS learns the handle is dead.
    private func deadHandle(_ w: HubWorld, _ device: TestDevice, _ platform: RegistrationPlatform, format: String,
                            body: String, headers: [(String, String)] = []) -> String {
        let id = w.register(platform, device.handle ?? "")
        device.installed = false
        #expect(w.send(format: format, body: body, headers: headers)?.status == 201)
        // The PNS accepted this one (it did not know yet); the registration is still there.
        #expect(w.events("hub.pns-accepted").count == 1)
        #expect(w.exists(id))
        return id
    }

    private func deletedByFeedback(_ w: HubWorld) -> [TraceEvent] {
        w.events("hub.registration-deleted").filter { ($0[.why]?.description ?? "").hasPrefix("PNS feedback") }
    }

    // MARK: APNs

    @Test func apns410DeletesTheRegistrationAndTheNextPutIsGone() {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        let id = deadHandle(w, iphone, .apple, format: "apple", body: Payload.apple)
        #expect(w.events("apns.token-invalidated").count == 1)
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        let deleted = deletedByFeedback(w)
        #expect(deleted.map { $0[.id]?.description } == [id])
        #expect(deleted.first?[.why] == "PNS feedback: APNs 410 Unregistered")
        #expect(!w.exists(id))
        #expect(w.hub.registrationCount == 0)
        let dropped = w.events("notification.dropped").filter { $0.layer == "hub" }
        #expect(dropped.map { $0[.reason]?.description } == ["APNs 410 Unregistered"])
        // The client's stored id is now dead: PUT answers 410 Gone (§5.1).
        #expect(w.put(id, .apple, iphone.handle ?? "") == .failure(HubError(kind: .messaging, status: 410, detail: Self.gone)))
        // A third send finds no target.
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        #expect(w.events("hub.no-target").count == 1)
    }

    /// The timestamp rule (A-RESP): a registration updated after the moment APNs gives in its 410
    /// was re-registered since, so the hub keeps it.
    @Test func apns410OlderThanTheLastUpdateKeepsTheRegistration() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        let id = deadHandle(w, iphone, .apple, format: "apple", body: Payload.apple)
        let invalidatedAt = try #require(w.events("apns.token-invalidated").first?.time)
        // A second later the device's backend re-PUTs the same id with the same handle.
        w.advance(.seconds(1))
        guard case .success? = w.put(id, .apple, iphone.handle ?? "") else { Issue.record("re-PUT failed"); return }
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        // APNs answered 410 with the old timestamp ...
        let rejected = w.events("apns.rejected")
        #expect(rejected.map { $0[.status]?.description } == ["410"])
        let answer = w.hubRequests(authority: "api.push.apple.com").last?.result?.response
        let timestamp = try JSONParser.parse(answer?.body ?? [])["timestamp"]?.int64Value
        #expect(timestamp == w.world.anchor.unixMilliseconds(invalidatedAt))
        // ... so the hub ignores the feedback and keeps the registration.
        let ignored = w.events("hub.feedback-ignored")
        #expect(ignored.map { $0[.registration]?.description } == [id])
        #expect(ignored.first?[.why] == "re-registered after the PNS timestamp")
        #expect(deletedByFeedback(w).isEmpty)
        #expect(w.exists(id))
        #expect(w.hub.registrationCount == 1)
    }

    @Test func apns400BadDeviceTokenDeletesTheRegistration() {
        let w = HubWorld()
        // A token APNs never issued (for instance a sandbox token sent to production).
        let id = w.register(.apple, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        #expect(deletedByFeedback(w).first?[.why] == "PNS feedback: APNs 400 BadDeviceToken")
        #expect(!w.exists(id))
    }

    // MARK: FCM and WNS

    @Test func fcmUnregisteredDeletesTheRegistration() {
        let w = HubWorld()
        let android = TestDevice.android(w, "android")
        let id = deadHandle(w, android, .fcmV1, format: "fcmv1", body: Payload.fcm)
        #expect(w.events("fcm.token-invalidated").count == 1)
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        #expect(w.events("fcm.rejected").map { $0[.error]?.description } == ["UNREGISTERED"])
        let deleted = deletedByFeedback(w)
        #expect(deleted.map { $0[.id]?.description } == [id])
        #expect(deleted.first?[.why] == "PNS feedback: FCM 404 UNREGISTERED")
        #expect(!w.exists(id))
        #expect(w.put(id, .fcmV1, android.handle ?? "") == .failure(HubError(kind: .messaging, status: 410, detail: Self.gone)))
    }

    @Test func fcmInvalidTokenDeletesTheRegistration() {
        let w = HubWorld()
        let id = w.register(.fcmV1, "not-an-fcm-token")
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        #expect(deletedByFeedback(w).first?[.why] == "PNS feedback: FCM 400 INVALID_ARGUMENT (token)")
        #expect(!w.exists(id))
    }

    @Test func wns410DeletesTheRegistration() {
        let w = HubWorld()
        let pc = TestDevice.windows(w, "pc")
        let id = deadHandle(w, pc, .windows, format: "windows", body: Payload.toast, headers: [("X-WNS-Type", "wns/toast")])
        #expect(w.events("wns.channel-invalidated").count == 1)
        #expect(w.send(format: "windows", body: Payload.toast, headers: [("X-WNS-Type", "wns/toast")])?.status == 201)
        let deleted = deletedByFeedback(w)
        #expect(deleted.map { $0[.id]?.description } == [id])
        #expect(deleted.first?[.why] == "PNS feedback: WNS 410 The channel is no longer valid: the app was removed")
        #expect(!w.exists(id))
    }

    @Test func expiredWnsChannelDeletesTheRegistration() {
        let w = HubWorld()
        let pc = TestDevice.windows(w, "pc")
        let id = w.register(.windows, pc.handle ?? "")
        w.advance(.days(31)) // WNS channels live 30 days
        #expect(w.send(format: "windows", body: Payload.toast, headers: [("X-WNS-Type", "wns/toast")])?.status == 201)
        #expect(deletedByFeedback(w).first?[.why] == "PNS feedback: WNS 410 The channel expired")
        #expect(!w.exists(id))
        #expect(pc.pushes.isEmpty)
    }

    @Test func feedbackForOneRegistrationLeavesTheOthers() {
        let w = HubWorld()
        let dead = TestDevice.iPhone(w, "dead"), alive = TestDevice.iPhone(w, "alive")
        let deadID = w.register(.apple, dead.handle ?? "")
        let aliveID = w.register(.apple, alive.handle ?? "")
        dead.installed = false
        _ = w.send(format: "apple", body: Payload.apple)
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(!w.exists(deadID))
        #expect(w.exists(aliveID))
        #expect(alive.pushes.count == 2)
    }
}

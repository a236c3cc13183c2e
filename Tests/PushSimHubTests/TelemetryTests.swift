import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Per-notification telemetry and PNS feedback (Citations §4.7, §4.9; NH-REST, NH-DOTNET).
@Suite("Hub telemetry and feedback")
struct TelemetryTests {
    @Test func aFinishedSendIsCompletedWithPerPlatformCounts() throws {
        let w = HubWorld()
        let alive = TestDevice.iPhone(w, "alive"), dead = TestDevice.iPhone(w, "dead"), pc = TestDevice.windows(w, "pc")
        w.register(.apple, alive.handle ?? "", tags: ["t"])
        let deadID = w.register(.apple, dead.handle ?? "", tags: ["t"])
        w.register(.windows, pc.handle ?? "", tags: ["t"])
        dead.installed = false
        _ = w.send(format: "apple", body: Payload.apple, tags: "t")              // APNs learns the token is dead
        let id = w.id(w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["t"], $0) })
        let d = try #require(w.details(id))
        #expect(d.notificationID == id)
        #expect(d.state == .completed)
        #expect(d.count(.apple, .success) == 1 && d.count(.apple, .expiredChannel) == 1)
        #expect(d.outcomeCounts.map(\.platform) == ["ApnsOutcomeCounts", "ApnsOutcomeCounts"])
        #expect(d.targetPlatforms == "apple")
        #expect(d.tags == "t")
        #expect(d.notificationBody == Payload.apple)
        #expect(d.enqueueTime != nil && d.startTime == d.enqueueTime && d.endTime != nil)
        #expect(w.events("hub.notification-outcome").last?[.counts] == "apple Success 1, apple ExpiredChannel 1")
        #expect(!w.exists(deadID))
        #expect(w.hub.notificationState(id) == .completed)
    }

    @Test func theDetailsDocumentIsTheSDKsDataContract() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "")
        _ = w.send(format: "apple", body: Payload.apple)
        let r = try #require(w.raw("GET", w.path("messages/\(w.ntf(1))"), query: [("api-version", "2016-07")]))
        #expect(r.status == 200)
        let doc = try XMLDocumentParser.parse(r.body)
        #expect(doc.root.name == "NotificationDetails")
        #expect(doc.root.elements.map(\.name) == ["NotificationId", "Location", "State", "EnqueueTime", "StartTime", "EndTime",
                                                  "NotificationBody", "TargetPlatforms", "ApnsOutcomeCounts"])
        #expect(doc.root.first("ApnsOutcomeCounts")?.elements.first?.elements.map(\.text) == ["Success", "1"])
        #expect(doc.root.first("Location")?.text == "https://pushsim.servicebus.windows.net/notifyusers/messages/\(w.ntf(1))")
    }

    @Test func nothingMatchingIsNoTargetFoundAndAnUnknownIdIs404() {
        let w = HubWorld(services: false)
        let id = w.id(w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["nobody"], $0) })
        #expect(w.details(id)?.state == .noTargetFound)
        let missing = w.raw("GET", w.path("messages/NH-20000101000000000-00000000000000000000000000000000-00"), query: [("api-version", "2016-07")])
        #expect(missing?.status == 404)
        #expect(w.detail(missing) == "The notification with id NH-20000101000000000-00000000000000000000000000000000-00 was not found.")
        guard case .failure(let e)? = w.wait({ w.client.getNotificationOutcomeDetails("NH-20000101000000000-00000000000000000000000000000000-00", $0) }) else { Issue.record("expected 404"); return }
        #expect(e.kind == .entityNotFound)
    }

    /// While the hub retries it is `Processing`; when the 30 minutes run out it is `Abandoned`.
    @Test(arguments: [(503, "ServiceUnavailable", PNSOutcome.dropped), (429, "TooManyRequests", .throttled)])
    func aCopyNotHandedOverIn30MinutesIsAbandoned(status: Int, reason: String, counted: PNSOutcome) throws {
        let w = HubWorld(services: false)
        _ = ScriptedPNS(w.world, name: "apns", aliases: [APNsService.productionHost]) { _, _ in ScriptedPNS.apns(status, reason) }
        w.register(.apple, "AB12")
        guard case .success(let o)? = w.soon({ w.client.sendAppleNativeNotification(Payload.apple, $0) }) else {
            Issue.record("send failed"); return
        }
        let id = try #require(o.notificationID)
        #expect(w.details(id)?.state == .processing)
        #expect(w.details(id)?.endTime == nil)
        w.world.run()
        let d = try #require(w.details(id))
        #expect(d.state == .abandoned)
        #expect(d.count(.apple, counted) == 1)
        #expect(d.outcomeCounts.count == 1)
    }

    @Test func missingCredentialsCountAsInvalidCredentials() {
        let w = HubWorld(configuration: TestIdentity.configuration(fcm: nil))
        let android = TestDevice.android(w, "android")
        w.register(.fcmV1, android.handle ?? "")
        let id = w.id(w.wait { w.client.sendFcmV1NativeNotification(Payload.fcm, $0) })
        #expect(w.details(id)?.count(.fcmV1, .invalidCredentials) == 1)
        #expect(w.details(id)?.outcomeCounts.first?.platform == "FcmV1OutcomeCounts")
    }

    // MARK: PNS feedback

    @Test func deadHandlesAreListedAsFeedbackThroughTheContainer() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        let id = w.register(.apple, iphone.handle ?? "")
        iphone.installed = false
        _ = w.send(format: "apple", body: Payload.apple)
        #expect(w.wait { w.client.getPnsFeedback($0) } == .success([]))
        _ = w.send(format: "apple", body: Payload.apple)
        guard case .success(let url)? = w.wait({ w.client.getFeedbackContainerUri($0) }) else { Issue.record("no container"); return }
        #expect(url == "https://pushsim.servicebus.windows.net/notifyusers/feedback?api-version=2015-01")
        guard case .success(let records)? = w.wait({ w.client.getPnsFeedback($0) }) else { Issue.record("no feedback"); return }
        #expect(records == [PNSFeedback(feedbackTime: records.first?.feedbackTime ?? "", notificationSystemError: "ExpiredChannel",
                                        platform: "apple", pnsHandle: (iphone.handle ?? "").uppercased(), registrationID: id,
                                        installationID: nil, notificationID: w.ntf(2))])
        #expect(records.first?.feedbackTime.hasPrefix("2026-01-01T") == true)
    }

    @Test func feedbackNeedsTheManageClaim() {
        let w = HubWorld(services: false)
        #expect(w.raw("GET", w.path("feedbackcontainer"), auth: .listen)?.status == 401)
        #expect(w.raw("GET", w.path("feedback"), auth: .sendOnly)?.status == 401)
        #expect(w.raw("GET", w.path("feedback"), auth: .full)?.status == 200)
        // Telemetry is read with the Send claim, like sends.
        #expect(w.raw("GET", w.path("messages/\(w.ntf(1))"), auth: .listen)?.status == 401)
        #expect(w.raw("GET", w.path("messages/\(w.ntf(1))"), auth: .sendOnly)?.status == 404)
    }
}

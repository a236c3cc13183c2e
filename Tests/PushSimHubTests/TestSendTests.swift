import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Test (debug) sends (Citations §4.8; NH-DOTNET `EnableTestSend`, NH-FIX, NH-FAQ).
@Suite("Hub test sends")
struct TestSendTests {
    static func token(_ n: Int) -> String { String(repeating: "0", count: 64 - String(n, radix: 16).count) + String(n, radix: 16) }

    /// A hub with `count` apple registrations tagged "sports", and a scripted APNs.
    private func hub(_ count: Int, answer: @escaping (HTTPRequest, Int) -> HTTPResponse = { _, _ in HTTPResponse(status: 200) })
        -> (HubWorld, ScriptedPNS, [String]) {
        let w = HubWorld(services: false)
        let apns = ScriptedPNS(w.world, name: "apns", aliases: [APNsService.productionHost], answer: answer)
        let ids = (1...max(1, count)).prefix(count).map { w.register(.apple, Self.token($0), tags: ["sports"]) }
        w.client.enableTestSend = true
        return (w, apns, ids)
    }

    /// Must-show: 25 registrations match, 10 get the notification, and the answer lists those 10.
    @Test func twentyFiveMatchesGiveTenResults() throws {
        let (w, apns, ids) = hub(25)
        let outcome = try #require(try w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["sports"], $0) }?.get())
        #expect(outcome.state == .detailedStateAvailable)
        #expect(outcome.success == 10 && outcome.failure == 0)
        #expect(outcome.results.count == 10)
        #expect(outcome.results.map(\.registrationID) == Array(ids.prefix(10)))
        #expect(outcome.results.map(\.pnsHandle) == (1...10).map { Self.token($0).uppercased() })
        #expect(outcome.results.allSatisfy { $0.applicationPlatform == "apple" && $0.outcome == "The Notification was successfully sent to the Push Notification System" })
        #expect(apns.requests.count == 10)
        #expect(w.events("hub.test-send").first?[.matching] == 25)
        #expect(w.events("hub.test-send").first?[.targets] == 10)
    }

    @Test func theAnswerIsANotificationOutcomeDocument() throws {
        let (w, _, _) = hub(1)
        let r = try #require(w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("test", "")],
                                   headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8)))
        #expect(r.status == 201)
        #expect(r.headers["Location"] == nil)
        let doc = try XMLDocumentParser.parse(r.body)
        #expect(doc.root.name == "NotificationOutcome")
        #expect(doc.root.attribute("xmlns") == "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect")
        #expect(doc.root.elements.map(\.name) == ["Success", "Failure", "Results"])
        #expect(doc.root.first("Results")?.elements.first?.elements.map(\.name) == ["ApplicationPlatform", "PnsHandle", "RegistrationId", "Outcome"])
    }

    /// Per-registration outcomes tell delivered, dead and throttled apart, with one attempt each.
    @Test func eachCopyHasItsOwnOutcome() throws {
        let (w, apns, ids) = hub(3) { request, _ in
            switch String(request.path.suffix(1)) {
            case "2": return ScriptedPNS.apns(410, "Unregistered")
            case "3": return ScriptedPNS.apns(429, "TooManyRequests", headers: [("Retry-After", "5")])
            default: return HTTPResponse(status: 200)
            }
        }
        let outcome = try #require(try w.wait { w.client.sendAppleNativeNotification(Payload.apple, $0) }?.get())
        #expect(outcome.success == 1 && outcome.failure == 2)
        #expect(outcome.results.map(\.outcome) == ["The Notification was successfully sent to the Push Notification System",
                                                    "ExpiredChannel: APNs 410 Unregistered",
                                                    "Throttled: APNs 429 TooManyRequests; a test send makes one attempt"])
        #expect(apns.requests.count == 3)   // no retry
        #expect(w.events("hub.pns-retry").isEmpty)
        #expect(!w.exists(ids[1]))          // feedback still deletes the dead registration
        #expect(w.exists(ids[2]))
    }

    @Test func noMatchAnswersAtOnceWithNoResults() throws {
        let (w, _, _) = hub(0)
        let outcome = try #require(try w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["nobody"], $0) }?.get())
        #expect(outcome == NotificationOutcome(state: .detailedStateAvailable, notificationID: nil, trackingID: nil, httpStatus: 201))
    }

    /// At most 10 test sends a minute; the 11th is a 403 with Retry-After, the SDK's QuotaExceeded.
    @Test func theEleventhTestSendInAMinuteIsRefused() {
        let (w, _, _) = hub(0)
        for _ in 1...10 {
            guard case .success? = w.wait({ w.client.sendAppleNativeNotification(Payload.apple, $0) }) else {
                Issue.record("a test send within the quota failed"); return
            }
            w.advance(.seconds(3))
        }
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)   // not a test send: not counted
        let raw = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("test", "")],
                        headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(raw?.status == 403)
        #expect(w.detail(raw) == "The test send quota was exceeded: at most 10 test sends per minute.")
        let retryAfter = Int(raw?.headers["Retry-After"] ?? "") ?? 0
        #expect(retryAfter > 0 && retryAfter <= 60)
        guard case .failure(let e)? = w.wait({ w.client.sendAppleNativeNotification(Payload.apple, $0) }) else {
            Issue.record("the 11th test send was accepted"); return
        }
        #expect(e.kind == .quotaExceeded && e.status == 403)
        #expect(w.events("hub.test-send-refused").count == 2)
        // Once the first of the ten is a minute old, there is room again.
        w.advance(.seconds(Int64(retryAfter) + 1))
        guard case .success? = w.wait({ w.client.sendAppleNativeNotification(Payload.apple, $0) }) else {
            Issue.record("a test send after the window failed"); return
        }
    }

    @Test func templateAndInstallationTargetsAreReportedByTheirLabels() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.install(Installation(installationID: "inst-1", platform: .apple, pushChannel: iphone.handle ?? "",
                               templates: ["alert": InstallationTemplate(body: Payload.appleTemplate)]))
        w.client.enableTestSend = true
        let outcome = try #require(try w.sendTemplate([("message", "hi")])?.get())
        #expect(outcome.results.map(\.registrationID) == ["installation:inst-1#alert"])
        #expect(outcome.success == 1)
        #expect(iphone.pushes.count == 1)
    }
}

import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Direct and direct batch sends (Citations §4.6; NH-REST, NH-DOTNET).
@Suite("Hub direct sends")
struct DirectSendTests {
    @Test func aDirectSendNeedsNoRegistration() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        let outcome = w.wait { w.client.sendDirectNotification(.apple(Payload.apple), deviceHandle: iphone.handle ?? "", $0) }
        #expect(outcome == .success(NotificationOutcome(state: .enqueued, notificationID: w.ntf(1), trackingID: nil, httpStatus: 201)))
        #expect(iphone.pushes.map(\.body) == [Payload.apple])
        let sent = try #require(w.world.journal.entries.first { $0.to == NotificationHub.name }?.request)
        #expect(sent.queryValue("direct") != nil)
        #expect(sent.headers["ServiceBusNotification-DeviceHandle"] == iphone.handle)
        #expect(w.events("hub.direct-send").first?[.batch] == .bool(false))
        #expect(w.events("hub.pns-request").map { $0[.registration]?.description } == ["direct:1"])
        #expect(w.hub.registrationCount == 0)
    }

    @Test(arguments: [
        ([("ServiceBusNotification-Format", "apple")], "A direct send needs the ServiceBusNotification-DeviceHandle header."),
        ([("ServiceBusNotification-Format", "template"), ("ServiceBusNotification-DeviceHandle", "ab")],
         "A direct send needs a native format; templates apply to registrations and installations only."),
        ([("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-DeviceHandle", "ab"), ("ServiceBusNotification-Tags", "x")],
         "A direct send takes no ServiceBusNotification-Tags."),
    ])
    func badDirectSendsAre400(headers: [(String, String)], detail: String) {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("direct", "")], headers: headers,
                      body: Array(Payload.apple.utf8))
        #expect(r?.status == 400)
        #expect(w.detail(r) == detail)
        #expect(w.events("hub.send-accepted").isEmpty)
    }

    @Test func aBatchReachesEveryHandleInOrder() throws {
        let w = HubWorld()
        let phones = (1...3).map { TestDevice.iPhone(w, "iphone\($0)") }
        let outcome = w.wait { w.client.sendDirectNotification(.apple(Payload.apple), deviceHandles: phones.map { $0.handle ?? "" }, $0) }
        guard case .success(let o)? = outcome else { Issue.record("batch failed: \(String(describing: outcome))"); return }
        #expect(o.notificationID == w.ntf(1))
        #expect(phones.allSatisfy { $0.pushes.count == 1 })
        let sent = try #require(w.world.journal.entries.first { $0.to == NotificationHub.name }?.request)
        #expect(sent.path == "/notifyusers/messages/$batch")
        #expect(sent.headers["Content-Type"] == #"multipart/mixed; boundary="nh-batch-multipart-boundary""#)
        let body = try #require(MultipartBody.parse(sent.body, contentType: sent.headers["Content-Type"]))
        #expect(body.parts.map(\.name) == ["notification", "devices"])
        #expect(String(decoding: body.parts[0].body, as: UTF8.self) == Payload.apple)
        #expect(w.events("hub.pns-request").map { $0[.handle]?.description } == phones.map { handleLabel($0.handle ?? "") })
        #expect(w.events("hub.direct-send").first?[.batch] == .bool(true))
    }

    @Test func aBatchTakesAtMostAThousandHandles() {
        let w = HubWorld(services: false)
        let apns = ScriptedPNS(w.world, name: "apns", aliases: [APNsService.productionHost]) { _, _ in HTTPResponse(status: 200) }
        let thousand = (0..<1_000).map { n in String(repeating: "0", count: 64 - String(n, radix: 16).count) + String(n, radix: 16) }
        guard case .success? = w.wait({ w.client.sendDirectNotification(.apple(Payload.apple), deviceHandles: thousand, $0) }) else {
            Issue.record("1000 handles should be accepted"); return
        }
        #expect(apns.requests.count == 1_000)
        guard case .failure(let e)? = w.wait({ w.client.sendDirectNotification(.apple(Payload.apple), deviceHandles: thousand + ["ab"], $0) }) else {
            Issue.record("1001 handles should be refused"); return
        }
        #expect(e.kind == .badRequest)
        #expect(e.detail == "A direct batch send takes 1 to 1000 device handles; 1001 were given.")
        #expect(apns.requests.count == 1_000)
    }

    @Test func malformedBatchesAre400() {
        let w = HubWorld(services: false)
        let notDirect = w.raw("POST", w.path("messages/$batch"), headers: [("ServiceBusNotification-Format", "apple")])
        #expect(notDirect?.status == 400)
        #expect(w.detail(notDirect) == "A $batch send must be a direct send (?direct).")
        let plain = w.raw("POST", w.path("messages/$batch"), query: [("api-version", "2015-01"), ("direct", "")],
                          headers: [("ServiceBusNotification-Format", "apple"), ("Content-Type", "application/json")], body: Array("[]".utf8))
        #expect(plain?.status == 400)
        #expect(w.detail(plain) == "A direct batch send needs a multipart/mixed body with a 'notification' and a 'devices' part.")
        let body = MultipartBody(parts: [
            .init(headers: [.init("Content-Disposition", "inline; name=notification")], body: Array(Payload.apple.utf8)),
            .init(headers: [.init("Content-Disposition", "inline; name=devices")], body: Array(#"["ok", 3]"#.utf8)),
        ])
        let badList = w.raw("POST", w.path("messages/$batch"), query: [("api-version", "2015-01"), ("direct", "")],
                            headers: [("ServiceBusNotification-Format", "apple"), ("Content-Type", body.contentType)], body: body.bytes)
        #expect(badList?.status == 400)
        #expect(w.detail(badList) == "The 'devices' part must be a JSON array of device handles.")
    }

    @Test func aDeadHandleInADirectSendIsFeedbackWithNothingToDelete() throws {
        let w = HubWorld()
        let bad = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"   // never issued: BadDeviceToken
        let id = w.id(w.wait { w.client.sendDirectNotification(.apple(Payload.apple), deviceHandle: bad, $0) })
        #expect(w.events("hub.feedback-ignored").first?[.why] == "a direct send has no registration to delete")
        let feedback = try #require(w.hub.pnsFeedback.first)
        #expect(feedback.notificationSystemError == "BadChannel")
        #expect(feedback.registrationID == nil && feedback.installationID == nil)
        #expect(feedback.notificationID == id)
        #expect(w.details(id)?.count(.apple, .badChannel) == 1)
    }
}

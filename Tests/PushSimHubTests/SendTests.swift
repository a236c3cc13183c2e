import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Native sends (Citations §4.6): the answer, the fan-out through the fake APNs, FCM and
/// WNS to devices, and the 400/413 refusals.
@Suite("Hub sends")
struct SendTests {
    /// Two iPhones, an Android phone and a Windows PC, registered with tags.
    private func fleet() -> (w: HubWorld, iphone: TestDevice, iphone2: TestDevice, android: TestDevice, pc: TestDevice) {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone"), iphone2 = TestDevice.iPhone(w, "iphone2")
        let android = TestDevice.android(w, "android"), pc = TestDevice.windows(w, "pc")
        w.register(.apple, iphone.handle ?? "", tags: ["sports"])
        w.register(.apple, iphone2.handle ?? "", tags: ["news"])
        w.register(.fcmV1, android.handle ?? "", tags: ["sports"])
        w.register(.windows, pc.handle ?? "", tags: ["sports"])
        return (w, iphone, iphone2, android, pc)
    }

    @Test func appleSendReachesOnlyMatchingApplePlatformDevices() {
        let f = fleet()
        let outcome = f.w.wait { f.w.client.sendAppleNativeNotification(Payload.apple, tags: ["sports"], $0) }
        #expect(outcome == .success(NotificationOutcome(state: .enqueued, notificationID: f.w.ntf(1), trackingID: nil, httpStatus: 201)))
        #expect(f.iphone.pushes.map(\.body) == [Payload.apple])
        #expect(f.iphone.pushes.map(\.service) == ["apns"])
        #expect(f.iphone2.pushes.isEmpty)
        #expect(f.android.pushes.isEmpty)
        #expect(f.pc.pushes.isEmpty)
        #expect(f.w.hubRequests(authority: "api.push.apple.com").count == 1)
        #expect(f.w.events("hub.pns-accepted").count == 1)
    }

    @Test func fcmSendReachesOnlyTheAndroidDeviceWithTheTokenFilledIn() throws {
        let f = fleet()
        let outcome = f.w.wait { f.w.client.sendFcmV1NativeNotification(Payload.fcm, tags: ["sports"], $0) }
        guard case .success? = outcome else { Issue.record("send failed: \(String(describing: outcome))"); return }
        #expect(f.android.pushes.count == 1)
        #expect(f.iphone.pushes.isEmpty && f.iphone2.pushes.isEmpty && f.pc.pushes.isEmpty)
        let sent = f.w.hubRequests(authority: "fcm.googleapis.com")
        #expect(sent.count == 1)
        #expect(sent.first?.request.path == "/v1/projects/example-notify/messages:send")
        let message = try JSONParser.parse(sent.first?.request.body ?? [])
        #expect(message["message"]?["token"]?.stringValue == f.android.handle)
        #expect(message["message"]?["notification"]?["title"]?.stringValue == "Hi")
    }

    @Test func windowsSendReachesOnlyTheWindowsDevice() {
        let f = fleet()
        let outcome = f.w.wait { f.w.client.sendWindowsNativeNotification(Payload.toast, tags: ["sports"], $0) }
        guard case .success? = outcome else { Issue.record("send failed: \(String(describing: outcome))"); return }
        #expect(f.pc.pushes.map(\.body) == [Payload.toast])
        #expect(f.iphone.pushes.isEmpty && f.iphone2.pushes.isEmpty && f.android.pushes.isEmpty)
        let sent = f.w.hubRequests(authority: "cloud.notify.windows.com")
        #expect(sent.first?.request.headers["X-WNS-Type"] == "wns/toast")
        #expect(sent.first?.request.headers["Content-Type"] == "text/xml")
    }

    @Test func broadcastGoesToEveryRegistrationOfTheFormatsPlatform() {
        let f = fleet()
        let r = f.w.send(format: "apple", body: Payload.apple)
        #expect(r?.status == 201)
        #expect(f.iphone.pushes.count == 1 && f.iphone2.pushes.count == 1)
        #expect(f.android.pushes.isEmpty && f.pc.pushes.isEmpty)
        #expect(f.w.events("hub.send-accepted").first?[.tags] == "(broadcast)")
    }

    @Test func duplicateRegistrationsOfOneHandleEachGetTheNotification() {
        let f = fleet()
        f.w.register(.apple, f.iphone.handle ?? "", tags: ["sports"]) // the same phone, registered twice
        #expect(f.w.send(format: "apple", body: Payload.apple, tags: "sports")?.status == 201)
        #expect(f.iphone.pushes.count == 2) // the double notification §5.1 warns about
    }

    @Test func acceptedSendAnswers201WithLocation() {
        let w = HubWorld()
        let r = w.send(format: "apple", body: Payload.apple)
        #expect(r?.status == 201)
        #expect(r?.headers["Location"] == "https://pushsim.servicebus.windows.net/notifyusers/messages/\(w.ntf(1))?api-version=2015-01")
        let second = w.send(format: "fcmv1", body: Payload.fcm)
        #expect(second?.headers["Location"]?.contains("/messages/\(w.ntf(2))?") == true)
    }

    @Test func sendWithoutTargetsIsAcceptedAndTracedAsNoTarget() {
        let f = fleet()
        #expect(f.w.send(format: "apple", body: Payload.apple, tags: "nobody")?.status == 201)
        let none = f.w.events("hub.no-target")
        #expect(none.count == 1)
        #expect(none.first?[.notification]?.description == f.w.ntf(1))
        #expect(f.w.events("hub.pns-request").isEmpty)
        // A matching send does not say so.
        #expect(f.w.send(format: "apple", body: Payload.apple, tags: "sports")?.status == 201)
        #expect(f.w.events("hub.no-target").count == 1)
    }

    @Test func pnsHeadersAreForwarded() {
        let f = fleet()
        let r = f.w.send(format: "apple", body: Payload.apple, tags: "sports",
                         headers: [("apns-priority", "5"), ("apns-push-type", "alert"), ("Unrelated", "x")])
        #expect(r?.status == 201)
        let sent = f.w.hubRequests(authority: "api.push.apple.com").first?.request
        #expect(sent?.headers["apns-priority"] == "5")
        #expect(sent?.headers.values("apns-push-type") == ["alert"])
        #expect(sent?.headers["Unrelated"] == nil)
        #expect(sent?.headers["apns-topic"] == TestIdentity.bundleID)
        #expect(sent?.path == "/3/device/\(f.iphone.handle ?? "")")
    }

    /// `ServiceBusNotification-Apns-Expiry` reaches APNs as `apns-expiration` (Unix seconds), in the
    /// page's W3C form and in the form Microsoft's SDKs write; an `apns-expiration` the send gives
    /// itself wins; anything else is 400. The hub dropped the header before.
    @Test(arguments: [
        ("2026-01-01T01:30+01:00", "1767227400"), ("2026-01-01T00:30:00Z", "1767227400"), ("2026-01-01T00:30:00.1234567Z", "1767227400"),
        ("01/01/2026 02:00:00", "1767232800"), ("1960-01-01T00:00Z", "0"),
    ])
    func anAppleSendsExpiryReachesAPNs(expiry: String, expiration: String) {
        let f = fleet()
        #expect(f.w.send(format: "apple", body: Payload.apple, tags: "sports", headers: [("ServiceBusNotification-Apns-Expiry", expiry)])?.status == 201)
        let sent = f.w.hubRequests(authority: "api.push.apple.com").first?.request
        #expect(sent?.headers["apns-expiration"] == expiration)
        #expect(sent?.headers["ServiceBusNotification-Apns-Expiry"] == nil)
    }

    @Test func anAppleSendsOwnExpirationWinsAndABadExpiryIs400() {
        let f = fleet()
        #expect(f.w.send(format: "apple", body: Payload.apple, tags: "sports",
                         headers: [("ServiceBusNotification-Apns-Expiry", "2026-01-01T00:30Z"), ("apns-expiration", "0")])?.status == 201)
        #expect(f.w.hubRequests(authority: "api.push.apple.com").first?.request.headers.values("apns-expiration") == ["0"])
        let bad = f.w.send(format: "apple", body: Payload.apple, tags: "sports", headers: [("ServiceBusNotification-Apns-Expiry", "tomorrow")])
        #expect(bad?.status == 400)
        #expect(f.w.detail(bad) == "The ServiceBusNotification-Apns-Expiry header 'tomorrow' is not a date.")
        #expect(ApnsExpiryHeader.unixSeconds("1997-07-16T19:20+01:00") == 869_077_200)   // the page's example
        for text in ["", "2026-13-01T00:00Z", "2026-01-01T25:00Z", "2026-01-01T00:00+01", "13/01/2026 00:00:00", "01/01/2026"] {
            #expect(ApnsExpiryHeader.unixSeconds(text) == nil, "\(text)")
        }
    }

    // MARK: Refusals

    @Test(arguments: [
        (nil, "The ServiceBusNotification-Format header is required."),
        ("gcm", "FCM legacy (gcm) notifications are no longer supported; send with the fcmv1 format."),
        ("windowsphone", "MPNS (windowsphone) notifications are no longer supported."),
        ("baidu", "Unknown ServiceBusNotification-Format 'baidu'."),
    ] as [(String?, String)])
    func badFormatsAre400(format: String?, detail: String) {
        let f = fleet()
        let r = f.w.send(format: format, body: Payload.apple)
        #expect(r?.status == 400)
        #expect(f.w.detail(r) == detail)
        #expect(f.w.events("hub.send-accepted").isEmpty)
        #expect(f.iphone.pushes.isEmpty && f.android.pushes.isEmpty)
    }

    @Test func windowsWithoutXWNSTypeIs400() {
        let f = fleet()
        let r = f.w.send(format: "windows", body: Payload.toast, tags: "sports")
        #expect(r?.status == 400)
        #expect(f.w.detail(r) == "The X-WNS-Type header is required for windows notifications.")
        #expect(f.pc.pushes.isEmpty)
        #expect(f.w.send(format: "windows", body: Payload.toast, tags: "sports", headers: [("X-WNS-Type", "wns/toast")])?.status == 201)
        #expect(f.pc.pushes.count == 1)
    }

    @Test(arguments: [#"{"notification":{"title":"x"}}"#, #"{"message":"text"}"#, "not json", #"["message"]"#])
    func fcmBodyWithoutMessageObjectIs400(body: String) {
        let f = fleet()
        let r = f.w.send(format: "fcmv1", body: body)
        #expect(r?.status == 400)
        #expect(f.w.detail(r) == "The fcmv1 payload must be a JSON object with a \"message\" object.")
        #expect(f.android.pushes.isEmpty)
    }

    @Test func bodyOver64KBIs413() {
        let w = HubWorld()
        // A JSON object of exactly 64 KB (an APNs payload must be one, see FidelityRulesTests).
        let limit = "{\"a\":\"" + String(repeating: "x", count: 65_536 - 8) + "\"}"
        #expect(limit.utf8.count == 65_536)
        #expect(w.send(format: "apple", body: limit, tags: "nobody")?.status == 201)
        let over = w.send(format: "apple", body: limit + " ", tags: "nobody")
        #expect(over?.status == 413)
        #expect(w.detail(over) == "The notification body exceeds 64 KB.")
        #expect(w.events("hub.send-accepted").count == 1)
    }

    @Test func missingCredentialsForAPlatformDropTheNotificationWithAReason() {
        let w = HubWorld(configuration: TestIdentity.configuration(fcm: nil))
        let android = TestDevice.android(w, "android")
        let id = w.register(.fcmV1, android.handle ?? "")
        #expect(w.send(format: "fcmv1", body: Payload.fcm)?.status == 201)
        let dropped = w.events("notification.dropped").filter { $0.layer == "hub" }
        #expect(dropped.map { $0[.reason]?.description } == ["the hub has no fcmV1 credentials"])
        #expect(dropped.first?[.registration]?.description == id)
        #expect(android.pushes.isEmpty)
    }
}

/// The SDK's `WindowsNotification` takes `X-WNS-Type` from the root element's name as .NET's
/// `Enum.TryParse(name, ignoreCase: true)` reads it against `Toast`, `Tile`, `Badge`, `Raw`.
@Suite("SDK Windows payload type")
struct WindowsPayloadTypeTests {
    @Test(arguments: [
        ("<toast><visual/></toast>", "wns/toast"), ("<tile/>", "wns/tile"), ("<badge value=\"1\"/>", "wns/badge"),
        ("<raw>data</raw>", "wns/raw"),
        // Ignoring case by invariant upper case, ordinally.
        ("<Toast/>", "wns/toast"), ("<TILE/>", "wns/tile"), ("<bAdGe/>", "wns/badge"), ("<RAW/>", "wns/raw"),
        // Dotless i and long s have ASCII upper cases.
        ("<t\u{131}le/>", "wns/tile"), ("<toa\u{17F}t/>", "wns/toast"),
    ])
    func rootNamesTheSDKAccepts(payload: String, type: String) {
        #expect(NotificationPayload.wnsType(of: payload) == type)
        #expect(NotificationPayload.windows(payload)?.headers.first { $0.0 == "X-WNS-Type" }?.1 == type)
    }

    @Test(arguments: [
        "<toasts/>", "<x:toast xmlns:x=\"urn:x\"/>", "<notification/>", "<toast>", "toast", "",
        // The Kelvin sign is its own upper case; capital I with a dot is not I.
        "<\u{212A}/>", "<t\u{130}le/>",
    ])
    func payloadsTheSDKRefuses(payload: String) {
        #expect(NotificationPayload.wnsType(of: payload) == nil)
        #expect(NotificationPayload.windows(payload) == nil)
    }

    @Test func anotherRootThrowsTheSDKsArgumentExceptionAndSendsNothing() {
        let w = HubWorld()
        let outcome = w.wait { w.client.sendWindowsNativeNotification("<notification/>", tags: ["sports"], $0) }
        #expect(outcome == .failure(HubError(kind: .argument, status: nil, detail: "The payload is not in accepted XML format. "
            + "The first node should be Badge/Tile/Toast. If want to send raw notification, please set header to wns/raw.")))
        #expect(w.world.journal.entries.isEmpty)
    }

    @Test func aCapitalizedToastIsSentAsAToast() {
        let w = HubWorld()
        let pc = TestDevice.windows(w, "pc")
        w.register(.windows, pc.handle ?? "", tags: ["sports"])
        let toast = #"<Toast><visual><binding template="ToastGeneric"><text>Hello</text></binding></visual></Toast>"#
        let outcome = w.wait { w.client.sendWindowsNativeNotification(toast, tags: ["sports"], $0) }
        guard case .success? = outcome else { Issue.record("the SDK refused <Toast>: \(String(describing: outcome))"); return }
        #expect(w.hubRequests(authority: "cloud.notify.windows.com").first?.request.headers["X-WNS-Type"] == "wns/toast")
    }

    @Test func aRawRootIsSentAsRaw() {
        let w = HubWorld()
        let pc = TestDevice.windows(w, "pc")
        w.register(.windows, pc.handle ?? "", tags: ["sports"])
        let outcome = w.wait { w.client.sendWindowsNativeNotification("<raw>count=3</raw>", tags: ["sports"], $0) }
        guard case .success? = outcome else { Issue.record("the SDK refused <raw>: \(String(describing: outcome))"); return }
        let sent = w.hubRequests(authority: "cloud.notify.windows.com").first?.request
        #expect(sent?.headers["X-WNS-Type"] == "wns/raw")
        #expect(sent?.headers["Content-Type"] == "application/octet-stream")
        #expect(pc.pushes.map(\.body) == ["<raw>count=3</raw>"])
    }
}

/// What the .NET SDK checks and writes before a native send leaves it (NH-DOTNET
/// `SendNotificationAsync`, `SendNotificationImplAsync`, the `Notification` constructors).
@Suite("SDK native sends")
struct SDKNativeSendTests {
    private let world = HubWorld()
    private var lastSend: HTTPRequest? {
        world.world.journal.entries.last { $0.to == NotificationHub.name && $0.request.path.hasSuffix("/messages/") }?.request
    }

    @Test func anEmptyTagListThrowsAndSendsNothing() {
        let expected = Result<NotificationOutcome, HubError>.failure(
            HubError(kind: .argument, status: nil, detail: "tags argument should contain at least one value"))
        #expect(world.wait { world.client.sendAppleNativeNotification(Payload.apple, tags: [], $0) } == expected)
        #expect(world.wait { world.client.sendFcmV1NativeNotification(Payload.fcm, tags: [], $0) } == expected)
        #expect(world.wait { world.client.sendWindowsNativeNotification(Payload.toast, tags: [], $0) } == expected)
        #expect(lastSend == nil)
    }

    @Test func theOverloadWithoutTagsSendsToEveryone() {
        guard case .success? = world.wait({ world.client.sendAppleNativeNotification(Payload.apple, $0) }) else {
            Issue.record("the broadcast failed"); return
        }
        #expect(lastSend?.headers["ServiceBusNotification-Tags"] == nil)
    }

    @Test(arguments: ["", "   ", "\n\t", "\u{A0}\u{3000}"])
    func aBlankPayloadThrowsArgumentNullException(payload: String) {
        #expect(world.wait { world.client.sendAppleNativeNotification(payload, tags: [], $0) }
                == .failure(HubError(kind: .argument, status: nil, detail: "jsonPayload")))   // before the tags are looked at
        #expect(world.wait { world.client.sendFcmV1NativeNotification(payload, $0) }
                == .failure(HubError(kind: .argument, status: nil, detail: "jsonPayload")))
        #expect(world.wait { world.client.sendWindowsNativeNotification(payload, tags: ["t"], $0) }
                == .failure(HubError(kind: .argument, status: nil, detail: "payLoad")))
        #expect(lastSend == nil)
    }

    @Test func aBlankTypedPayloadThrowsWhicheverWayItIsSent() {
        let expected = Result<NotificationOutcome, HubError>.failure(HubError(kind: .argument, status: nil, detail: "jsonPayload"))
        #expect(world.wait { world.client.sendNotification(.apple(" "), tagExpression: "t", $0) } == expected)
        #expect(world.wait { world.client.sendDirectNotification(.fcmV1(""), deviceHandle: "h", $0) } == expected)
        #expect(world.wait { world.client.sendDirectNotification(.apple("\n"), deviceHandles: ["h"], $0) } == expected)
        var scheduled: Result<ScheduledNotification, HubError>?
        world.client.scheduleNotification(.apple(""), at: world.world.now, tagExpression: nil) { scheduled = $0 }
        world.world.run()
        #expect(scheduled == .failure(HubError(kind: .argument, status: nil, detail: "jsonPayload")))
        #expect(lastSend == nil && world.world.journal.entries.isEmpty)
    }

    @Test func aWhiteSpaceDeviceHandleMakesADirectSendABroadcast() {
        #expect(world.wait { world.client.sendDirectNotification(.apple(Payload.apple), deviceHandle: "", $0) }
                == .failure(HubError(kind: .argument, status: nil, detail: "deviceHandle")))
        _ = world.wait { world.client.sendDirectNotification(.apple(Payload.apple), deviceHandle: " ", $0) }
        #expect(lastSend != nil && lastSend?.queryValue("direct") == nil && lastSend?.headers["ServiceBusNotification-DeviceHandle"] == nil)
    }

    @Test func aBlankTagExpressionSendsNoTagsHeader() {
        _ = world.wait { world.client.sendNativeNotification(format: "apple", payload: Payload.apple, tagExpression: "  ", $0) }
        #expect(lastSend != nil && lastSend?.headers["ServiceBusNotification-Tags"] == nil)
        _ = world.wait { world.client.sendNotification(.apple(Payload.apple), tagExpression: "", $0) }
        #expect(lastSend?.headers["ServiceBusNotification-Tags"] == nil)
    }

    @Test func theContentTypeIsTheMediaTypeAlone() {
        _ = world.wait { world.client.sendAppleNativeNotification(Payload.apple, tags: ["t"], $0) }
        #expect(lastSend?.headers["Content-Type"] == "application/json")
        _ = world.wait { world.client.sendWindowsNativeNotification(Payload.toast, tags: ["t"], $0) }
        #expect(lastSend?.headers["Content-Type"] == "application/xml")
        _ = world.wait { world.client.sendNotification(.fcmV1(Payload.fcm), tagExpression: "t", $0) }
        #expect(lastSend?.headers["Content-Type"] == "application/json")
    }
}

/// .NET's `string.IsNullOrWhiteSpace`, as the client checks payloads and tag expressions.
@Suite("SDK blank text")
struct SDKBlankTextTests {
    @Test func whiteSpaceIsUnicodesWhiteSpace() {
        let client = HubWorld().client
        for blank in ["", " ", "\t\n\u{0B}\u{0C}\r", "\u{85}", "\u{A0}", " \u{2028}\u{3000} "] { #expect(client.isBlank(blank), "\(Array(blank.unicodeScalars))") }
        for text in ["{}", " x", "\u{200B}", "\t\u{E9}", "\u{A0}a", "<toast/>"] { #expect(!client.isBlank(text), "\(Array(text.unicodeScalars))") }
    }
}

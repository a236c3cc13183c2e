import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// An installation template's headers and expiry on a template send (Citations §4.3, §4.5; NH-REST
/// "Create or overwrite an installation", NH-REG "Templates", NH-DOTNET `InstallationTemplate`,
/// `AppleTemplateRegistrationDescription.OnValidate`).
@Suite("Hub installation template headers and expiry")
struct InstallationTemplateHeaderTests {
    /// The APNs requests the hub made, in order.
    private func apnsRequests(_ w: HubWorld) -> [HTTPRequest] {
        w.world.journal.entries.filter { $0.request.authority == "api.push.apple.com" }.map(\.request)
    }

    private func install(_ w: HubWorld, _ device: TestDevice, _ platform: RegistrationPlatform, _ template: InstallationTemplate) {
        let i = Installation(installationID: device.name, platform: platform, pushChannel: device.handle ?? "", templates: ["t": template])
        guard case .success? = w.install(i) else { return #expect(Bool(false), "PUT of \(device.name) refused") }
    }

    /// An APNs template's `apns-*` headers go to APNs rendered with the send's properties, and its
    /// expiry goes as `apns-expiration` in Unix seconds: a literal date, an expression, or `0`.
    /// Before, the expiry was kept only to be read back and APNs never saw it.
    @Test func anAPNsTemplatesHeadersAndExpiryReachAPNs() throws {
        let w = HubWorld()
        let phone = TestDevice.iPhone(w, "iphone")
        install(w, phone, .apple, InstallationTemplate(body: #"{"aps":{"content-available":1},"m":"$(m)"}"#,
                                                       headers: [TemplateHeader("apns-push-type", "background"), TemplateHeader("apns-priority", "$(p)")],
                                                       expiry: "2026-01-01T01:00:00Z"))
        #expect(w.id(w.sendTemplate([("m", "hi"), ("p", "5")])) != "?")
        let first = try #require(apnsRequests(w).last)
        #expect(first.headers["apns-push-type"] == "background")
        #expect(first.headers["apns-priority"] == "5")
        #expect(first.headers["apns-expiration"] == "1767229200")
        #expect(phone.pushes.count == 1)

        install(w, phone, .apple, InstallationTemplate(body: Payload.appleTemplate, expiry: "$(until)"))
        _ = w.sendTemplate([("m", "hi"), ("until", "01/01/2026 00:10:00")])
        #expect(apnsRequests(w).last?.headers["apns-expiration"] == "1767226200")
        install(w, phone, .apple, InstallationTemplate(body: Payload.appleTemplate, expiry: "0"))
        _ = w.sendTemplate([("m", "hi")])
        #expect(apnsRequests(w).last?.headers["apns-expiration"] == "0")
        // The template's own apns-expiration wins over its expiry, as a native send's does.
        install(w, phone, .apple, InstallationTemplate(body: Payload.appleTemplate, headers: [TemplateHeader("apns-expiration", "42")], expiry: "0"))
        _ = w.sendTemplate([("m", "hi")])
        #expect(apnsRequests(w).last?.headers["apns-expiration"] == "42")
        #expect(phone.pushes.count == 4)
    }

    /// An expiry that renders as no date: the copy is dropped with the reason and APNs sees
    /// nothing (what the live hub does is not documented).
    @Test func anExpiryThatRendersAsNoDateDropsTheCopy() {
        let w = HubWorld()
        let phone = TestDevice.iPhone(w, "iphone")
        install(w, phone, .apple, InstallationTemplate(body: Payload.appleTemplate, expiry: "$(until)"))
        #expect(w.id(w.sendTemplate([("m", "hi"), ("until", "tomorrow")])) != "?")
        #expect(apnsRequests(w).isEmpty)
        let dropped = w.events("notification.dropped").filter { $0.layer == "hub" }
        #expect(dropped.map { $0[.reason]?.description } == ["the template's Expiry 'tomorrow' is not a date"])
    }

    /// Written as the SDK checks it: an empty expiry, a literal one that is no date, and an APNs
    /// template header that is not `apns-…` or a priority that is not a byte are 400. Before, all
    /// four were taken.
    @Test(arguments: [
        (#"{"body":"{}","expiry":""}"#, "The template 't' is invalid: the Expiry cannot be empty"),
        (#"{"body":"{}","expiry":"soon"}"#, "The template 't' is invalid: the Expiry 'soon' is not a date"),
        (#"{"body":"{}","headers":{"X-WNS-Type":"wns/raw"}}"#, "The template 't' is invalid: The ApnsHeader 'X-WNS-Type' is not an APNs header (apns-…)."),
        (#"{"body":"{}","headers":{"apns-priority":"high"}}"#, "The template 't' is invalid: The ApnsHeader apns-priority must be a number from 0 to 255."),
    ])
    func anAPNsTemplateIsCheckedAsTheSDKChecksIt(template: String, detail: String) {
        let w = HubWorld(services: false)
        let r = w.putInstallation("i", json: #"{"platform":"apns","pushChannel":"ab","templates":{"t":\#(template)}}"#)
        #expect(r?.status == 400)
        #expect(w.detail(r) == detail)
    }

    /// A Windows template's headers are rendered and sent to WNS: `X-WNS-Type: wns/raw` sends its
    /// badge XML as the app's data, not a badge, and `X-WNS-Tag` takes its value from the send.
    /// Its expiry (APNs only, NH-REST) is kept and read back, not sent.
    @Test func aWindowsTemplatesHeadersReachWNS() throws {
        let w = HubWorld()
        let pc = TestDevice.windows(w, "pc")
        let raw = InstallationTemplate(body: #"<badge value="$(count)"/>"#, headers: [TemplateHeader("X-WNS-Type", "wns/raw")],
                                       expiry: "2026-01-01T01:00:00Z")
        install(w, pc, .windows, raw)
        _ = w.sendTemplate([("count", "3")])
        let sent = try #require(w.world.journal.entries.last { $0.request.authority.contains("notify.windows.com") }?.request)
        #expect(sent.headers["X-WNS-Type"] == "wns/raw")
        #expect(sent.headers["Content-Type"] == "application/octet-stream")
        #expect(sent.headers["apns-expiration"] == nil)
        #expect(sent.bodyText == #"<badge value="3"/>"#)
        #expect(try w.installation("pc")?.get().templates["t"] == InstallationTemplate(body: raw.body, tags: ["t"], headers: raw.headers, expiry: raw.expiry))

        install(w, pc, .windows, InstallationTemplate(body: Payload.toastTemplate, headers: [TemplateHeader("X-WNS-Tag", "$(tag)")]))
        _ = w.sendTemplate([("message", "Goal"), ("tag", "scores")])
        let toast = try #require(w.world.journal.entries.last { $0.request.authority.contains("notify.windows.com") }?.request)
        #expect(toast.headers["X-WNS-Type"] == "wns/toast")
        #expect(toast.headers["X-WNS-Tag"] == "scores")
        #expect(pc.pushes.count == 2)
    }
}

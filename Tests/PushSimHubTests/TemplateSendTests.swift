import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Template registrations and template sends (Citations §4.5; NH-TPL, NH-REST, NH-DOTNET).
@Suite("Hub templates")
struct TemplateSendTests {
    @Test func templateRegistrationsTravelAsAtomWithCDATA() throws {
        let w = HubWorld(services: false)
        let id = w.registerTemplate(.apple, RegistrationTests.token, body: Payload.appleTemplate, name: "alert", tags: ["sports"])
        let put = try #require(w.world.journal.entries.last { $0.request.method == "PUT" }?.request)
        #expect(put.bodyText.contains("<AppleTemplateRegistrationDescription"))
        #expect(put.bodyText.contains("<BodyTemplate><![CDATA[\(Payload.appleTemplate)]]></BodyTemplate>"))
        #expect(put.bodyText.contains("<TemplateName>alert</TemplateName>"))
        guard case .success(let read)? = w.wait({ w.client.getRegistration(id, $0) }) else { Issue.record("GET failed"); return }
        #expect(read.template == RegistrationTemplate(bodyTemplate: Payload.appleTemplate, templateName: "alert"))
        #expect(read.descriptionElement == "AppleTemplateRegistrationDescription")
        #expect(w.events("hub.registration-upserted").last?[.template] == "alert")
        // A body holding "]]>" survives the CDATA split.
        let other = w.registerTemplate(.apple, RegistrationTests.token, body: #"{"aps":{"alert":"{']]>' + $(m)}"}}"#)
        guard case .success(let back)? = w.wait({ w.client.getRegistration(other, $0) }) else { Issue.record("GET failed"); return }
        #expect(back.template?.bodyTemplate == #"{"aps":{"alert":"{']]>' + $(m)}"}}"#)
    }

    /// An Apple template's `Expiry` is kept and given back where the live hub writes it, between
    /// `BodyTemplate` and `TemplateName`, and the answer's body is CDATA as the live hub's is
    /// (NH-DOTNET's recordings). The expiry was dropped (Microsoft's Java SDK read back `null`
    /// from `pushsim serve`) and the body escaped; the new test failed before.
    @Test func anAppleTemplatesExpiryIsKeptAndReadBack() throws {
        let w = HubWorld(services: false)
        let id = w.createID()
        let template = RegistrationTemplate(bodyTemplate: Payload.appleTemplate, templateName: "alert", expiry: "2019-05-14T20:11:57.6477694+03:00")
        let d = RegistrationDescription(platform: .apple, handle: RegistrationTests.token, registrationID: id, template: template)
        guard case .success? = w.wait({ w.client.createOrUpdateRegistration(d, $0) }) else { return #expect(Bool(false), "PUT refused") }
        let put = try #require(w.world.journal.entries.last { $0.request.method == "PUT" }?.request)
        #expect(put.bodyText.contains("]]></BodyTemplate><Expiry>2019-05-14T20:11:57.6477694+03:00</Expiry><TemplateName>alert</TemplateName>"))
        let answer = try #require(w.raw("GET", w.path("registrations/\(id)"))).bodyText
        #expect(answer.contains("]]></BodyTemplate><Expiry>2019-05-14T20:11:57.6477694+03:00</Expiry><TemplateName>alert</TemplateName>"), "\(answer)")
        guard case .success(let read)? = w.wait({ w.client.getRegistration(id, $0) }) else { return #expect(Bool(false), "GET failed") }
        #expect(read.template == template)
    }

    /// An Apple template's answer in the live hub's shape: a missing `Expiry` as
    /// `<Expiry i:nil="true"/>` and `<ApnsHeaders/>` after `TemplateName` (NH-DOTNET's recording
    /// `CreateRegistrationAsync_PassValidAppleTemplateRegistration_…`). Its `ApnsHeaders` are kept,
    /// given back and sent with each notification, their values rendered as expressions; a
    /// header that is not `apns-…`, or a literal priority that is not a byte, is refused. Before,
    /// both elements were missing and the headers dropped. (The recording is of the classic
    /// service; the current one closes empty elements ` />`, as it does every other.)
    @Test func anAppleTemplatesApnsHeadersAreKeptAndSent() throws {
        let w = HubWorld.classic()
        let phone = TestDevice.iPhone(w, "iphone")
        let plain = w.registerTemplate(.apple, phone.handle ?? "", body: Payload.appleTemplate, name: "Template Name")
        let answer = try #require(w.raw("GET", w.path("registrations/\(plain)"))).bodyText
        #expect(answer.contains("]]></BodyTemplate><Expiry i:nil=\"true\"/><TemplateName>Template Name</TemplateName><ApnsHeaders/></AppleTemplateRegistrationDescription>"),
                "\(answer)")
        let current = HubWorld()
        let now = current.registerTemplate(.apple, TestDevice.iPhone(current, "iphone").handle ?? "", body: Payload.appleTemplate, name: "Template Name")
        #expect(try #require(current.raw("GET", current.path("registrations/\(now)"))).bodyText
                    .contains("<Expiry i:nil=\"true\" /><TemplateName>Template Name</TemplateName><ApnsHeaders /></AppleTemplateRegistrationDescription>"))
        guard case .success(let readPlain)? = w.wait({ w.client.getRegistration(plain, $0) }) else { return #expect(Bool(false), "GET failed") }
        #expect(readPlain.template?.expiry == nil)
        #expect(readPlain.template?.apnsHeaders == [])
        _ = w.wait({ w.client.deleteRegistration(plain, $0) })

        let headers = [TemplateHeader("apns-priority", "5"), TemplateHeader("apns-collapse-id", "$(c)")]
        let id = w.createID()
        let template = RegistrationTemplate(bodyTemplate: Payload.appleTemplate, templateName: "t", apnsHeaders: headers)
        let d = RegistrationDescription(platform: .apple, handle: phone.handle ?? "", registrationID: id, template: template)
        guard case .success? = w.wait({ w.client.createOrUpdateRegistration(d, $0) }) else { return #expect(Bool(false), "PUT refused") }
        let put = try #require(w.world.journal.entries.last { $0.request.method == "PUT" }?.request)
        #expect(put.bodyText.contains("<ApnsHeaders><ApnsHeader><Header>apns-priority</Header><Value>5</Value></ApnsHeader>"
                                      + "<ApnsHeader><Header>apns-collapse-id</Header><Value>$(c)</Value></ApnsHeader></ApnsHeaders>"))
        guard case .success(let read)? = w.wait({ w.client.getRegistration(id, $0) }) else { return #expect(Bool(false), "GET failed") }
        #expect(read.template == template)
        _ = w.sendTemplate([("m", "hi"), ("c", "group-7")])
        let sent = try #require(w.world.journal.entries.last { $0.request.authority.contains("push.apple.com") }?.request)
        #expect(sent.headers["apns-priority"] == "5")
        #expect(sent.headers["apns-collapse-id"] == "group-7")
        #expect(phone.pushes.count == 1)

        for (bad, detail) in [(TemplateHeader("x-apns-priority", "5"), "The template is invalid: The ApnsHeader 'x-apns-priority' is not an APNs header (apns-…)."),
                              (TemplateHeader("apns-priority", "high"), "The template is invalid: The ApnsHeader apns-priority must be a number from 0 to 255."),
                              (TemplateHeader("apns-expiration", "soon"), "The template is invalid: The ApnsHeader apns-expiration must be an integer.")] {
            var refused = d
            refused.template?.apnsHeaders = [bad]
            let r = w.raw("PUT", w.path("registrations/\(id)"), body: AtomRegistration.requestBody(refused))
            #expect(r?.status == 400)
            #expect(w.detail(r) == detail)
        }
        // An expression is judged when it is rendered, not at registration.
        var expression = d
        expression.template?.apnsHeaders = [TemplateHeader("apns-priority", "$(p)")]
        #expect(w.raw("PUT", w.path("registrations/\(id)"), body: AtomRegistration.requestBody(expression))?.status == 200)
    }

    @Test func windowsTemplatesKeepTheirHeadersAndDeriveXWNSType() {
        let w = HubWorld(services: false)
        let tile = #"<tile><visual><binding template="TileSmall"><text>$(m)</text></binding></visual></tile>"#
        let a = w.registerTemplate(.windows, "https://x.notify.windows.com/?token=1", body: tile)
        let b = w.registerTemplate(.windows, "https://x.notify.windows.com/?token=2", body: "<raw>$(m)</raw>",
                                   headers: [TemplateHeader("X-WNS-Type", "wns/raw"), TemplateHeader("X-WNS-Tag", "$(tag)")])
        guard case .success(let ra)? = w.wait({ w.client.getRegistration(a, $0) }),
              case .success(let rb)? = w.wait({ w.client.getRegistration(b, $0) }) else { Issue.record("GET failed"); return }
        #expect(ra.template?.wnsHeaders == [TemplateHeader("X-WNS-Type", "wns/tile")])
        #expect(rb.template?.wnsHeaders == [TemplateHeader("X-WNS-Type", "wns/raw"), TemplateHeader("X-WNS-Tag", "$(tag)")])
    }

    @Test(arguments: [
        (RegistrationPlatform.apple, "[1]", "The template is invalid: an APNs template must be a JSON object"),
        (.apple, "{\"aps\":", "The template is invalid: the template is not valid JSON"),
        (.apple, #"{"aps":{"alert":"$(a"}}"#, "The template is invalid: the expression '$(a' is malformed: no closing ')'"),
        (.fcmV1, #"{"data":{"a":"$(a)"}}"#, "The template is invalid: an FCM v1 template must be a JSON object with a \"message\" object"),
        (.windows, "<root>$(a)</root>", "The template is invalid: a Windows template needs an X-WNS-Type header unless its root is toast, tile or badge"),
        (.windows, #"{"json":"no"}"#, "The template is invalid: the template is not well-formed XML"),
    ])
    func malformedTemplatesAre400AtRegistration(platform: RegistrationPlatform, body: String, detail: String) {
        let w = HubWorld(services: false)
        let id = w.createID()
        let d = RegistrationDescription(platform: platform, handle: "h", registrationID: id, template: RegistrationTemplate(bodyTemplate: body))
        let r = w.raw("PUT", w.path("registrations/\(id)"), body: AtomRegistration.requestBody(d))
        #expect(r?.status == 400)
        #expect(w.detail(r) == detail)
        #expect(w.hub.registrationCount == 0)
    }

    /// One template send, three platforms, a native registration that must not get it, and an
    /// installation with two templates that gets two notifications.
    @Test func aTemplateSendFillsEachMatchingTemplateOnce() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone"), native = TestDevice.iPhone(w, "native")
        let android = TestDevice.android(w, "android"), pc = TestDevice.windows(w, "pc"), ipad = TestDevice.iPhone(w, "ipad")
        w.registerTemplate(.apple, iphone.handle ?? "", body: Payload.appleTemplate, tags: ["sports"])
        w.register(.apple, native.handle ?? "", tags: ["sports"])
        w.registerTemplate(.fcmV1, android.handle ?? "", body: Payload.fcmTemplate, tags: ["sports"])
        w.registerTemplate(.windows, pc.handle ?? "", body: Payload.toastTemplate, tags: ["sports"])
        w.install(Installation(installationID: "ipad", platform: .apple, pushChannel: ipad.handle ?? "", tags: ["sports"], templates: [
            "alert": InstallationTemplate(body: Payload.appleTemplate),
            "quiet": InstallationTemplate(body: #"{"aps":{"content-available":1},"m":"$(message)"}"#, tags: ["quiet-hours"]),
        ]))
        let outcome = w.sendTemplate([("message", #"Goal! "Reds" 2 <b>&</b> 1"#), ("badge", "3"), ("title", "Score")], tags: "sports")
        let id = w.id(outcome)
        let alert = try JSONParser.parse(iphone.pushes.first?.body ?? "")
        #expect(alert["aps"]?["alert"]?.stringValue == #"Goal! "Reds" 2 <b>&</b> 1"#)
        #expect(alert["aps"]?["badge"]?.int64Value == 3)
        #expect(native.pushes.isEmpty)   // native registrations get native sends only
        let fcm = try JSONParser.parse(android.pushes.first?.body ?? "")
        #expect(fcm["notification"]?["title"]?.stringValue == "Score")
        #expect(pc.pushes.first?.body.contains("<text>Goal! \"Reds\" 2 &lt;b&gt;&amp;&lt;/b&gt; 1</text>") == true)
        #expect(w.hubRequests(authority: "cloud.notify.windows.com").first?.request.headers["X-WNS-Type"] == "wns/toast")
        // A template's tags add to the installation's, so "sports" matches both of its templates.
        #expect(ipad.pushes.count == 2)
        #expect(w.events("hub.template-send").first?[.templates] == 5)
        // APNs requests go out at once, FCM and WNS ones after their access token: compare as a set.
        #expect(w.events("hub.pns-request").compactMap { $0[.template]?.description }.sorted() == ["(unnamed)", "(unnamed)", "(unnamed)", "alert", "quiet"])
        #expect(w.events("hub.send-accepted").first?[.format] == "template")
        #expect(w.details(id)?.state == .completed)
        // A tag only the "quiet" template has selects that template alone.
        _ = w.sendTemplate([("message", "shh")], tags: "quiet-hours")
        #expect(ipad.pushes.count == 3)
        #expect(try JSONParser.parse(ipad.pushes.last?.body ?? "")["m"]?.stringValue == "shh")
        #expect(iphone.pushes.count == 1 && android.pushes.count == 1 && pc.pushes.count == 1)
        // A template written without tags has its name as its tag, as the live hub keeps it among
        // the tags of the registration it makes of the template: "alert" selects that one alone.
        _ = w.sendTemplate([("message", "by name")], tags: "alert")
        #expect(ipad.pushes.count == 4)
        #expect(try JSONParser.parse(ipad.pushes.last?.body ?? "")["aps"]?["alert"]?.stringValue == "by name")
    }

    @Test func nativeSendsSkipTemplateRegistrations() {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.registerTemplate(.apple, iphone.handle ?? "", body: Payload.appleTemplate)
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        #expect(iphone.pushes.isEmpty)
        #expect(w.events("hub.no-target").count == 1)
    }

    @Test func missingPropertiesRenderEmpty() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.registerTemplate(.apple, iphone.handle ?? "", body: Payload.appleTemplate)
        _ = w.sendTemplate([("other", "x")])
        let json = try JSONParser.parse(iphone.pushes.first?.body ?? "")
        #expect(json["aps"]?["alert"]?.stringValue == "")
        #expect(json["aps"]?["badge"]?.stringValue == "")
    }

    @Test(arguments: [#"{"a":{"b":"c"}}"#, #"["a"]"#, "not json", #"{"a":["x"]}"#])
    func templateSendBodiesMustBeFlatObjects(body: String) {
        let w = HubWorld(services: false)
        let r = w.send(format: "template", body: body)
        #expect(r?.status == 400)
        #expect(w.detail(r) == "A template notification's body must be a flat JSON object of string properties.")
    }
}

import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The hub's wire formats and the client's view of failures: Atom entries and feeds, the XML
/// error body, the SDK's exception classes (NH-DOTNET `ExceptionUtility.cs`), and run-to-run determinism.
@Suite("Hub wire format")
struct HubWireFormatTests {
    @Test(arguments: [
        (404, nil, HubError.Kind.entityNotFound), (401, nil, .unauthorized), (403, "30", .quotaExceeded),
        (403, nil, .unauthorized), (429, nil, .quotaExceeded), (400, nil, .badRequest), (500, nil, .serverBusy),
        (503, nil, .serverBusy), (504, nil, .serverBusy), (408, nil, .serverBusy), (410, nil, .messaging),
        (412, nil, .messaging), (409, nil, .messaging),
    ] as [(Int, String?, HubError.Kind)])
    func statusesMapToTheSDKsExceptionTypes(status: Int, retryAfter: String?, kind: HubError.Kind) {
        var headers = HTTPHeaders()
        if let retryAfter { headers.add("Retry-After", retryAfter) }
        let body = AtomRegistration.errorBody(code: status, detail: "why \(status)")
        let e = HubError(.response(HTTPResponse(status: status, headers: headers, text: body)))
        #expect(e.kind == kind)
        #expect(e.status == status)
        #expect(e.detail == "why \(status)")
    }

    @Test func transportFailureIsATimeoutWithoutStatus() {
        let e = HubError(.failure(.timedOut))
        #expect(e == HubError(kind: .transport, status: nil, detail: "timed out"))
        #expect(e.description == "TimeoutException (no response): timed out")
    }

    @Test func errorBodyIsTheHubsXMLShape() {
        #expect(AtomRegistration.errorBody(code: 410, detail: "Gone & gone") ==
                "<Error><Code>410</Code><Detail>Gone &amp; gone</Detail></Error>")
        // A body that is not XML becomes the detail as it is.
        #expect(HubError(.response(HTTPResponse(status: 400, text: "plain"))).detail == "plain")
    }

    /// Every error detail ends with `.TrackingId:<uuid>_G<n>,TimeStamp:<M/d/yyyy h:mm:ss AM>`,
    /// as the live hub's do; a read of a registration that is not there has no message before it
    /// (the .NET SDK's recording of a read after a delete). The client splits the two.
    @Test func errorDetailsEndWithATrackingIDAndATimestamp() throws {
        let w = HubWorld(services: false)
        let r = try #require(w.raw("GET", w.path("registrations/reg-424242")))
        let text = try #require(try XMLDocumentParser.parse(r.body).root.first("Detail")?.text)
        let (message, trackingID) = HubErrorDetail.split(text)
        #expect(message == "" && r.status == 404)
        let id = try #require(trackingID)
        #expect(id.utf8.count == 39 && id.hasSuffix("_G1") && id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 15])
        #expect(text == ".TrackingId:\(id),TimeStamp:" + HubErrorDetail.timestamp(unixSeconds: w.world.anchor.unixSeconds(w.world.now)))
        // The client's error: the message, and the tracking id aside.
        let viaClient = try #require(w.wait { w.client.getRegistration("reg-424242", $0) })
        guard case .failure(let e) = viaClient else { Issue.record("expected 404"); return }
        #expect(e.kind == .entityNotFound && e.detail == "" && e.trackingID?.hasSuffix("_G1") == true && e.trackingID != id)
        // The same run draws the same ids.
        let again = HubWorld(services: false)
        #expect(again.raw("GET", again.path("registrations/reg-424242"))?.body == r.body)
        // .NET's invariant general date format, in UTC.
        #expect(HubErrorDetail.timestamp(unixSeconds: 1_565_758_699) == "8/14/2019 4:58:19 AM")
        #expect(HubErrorDetail.timestamp(unixSeconds: 1_635_219_481) == "10/26/2021 3:38:01 AM")
        #expect(HubErrorDetail.timestamp(unixSeconds: 1_635_206_400) == "10/26/2021 12:00:00 AM")
        #expect(HubErrorDetail.timestamp(unixSeconds: 1_635_249_600) == "10/26/2021 12:00:00 PM")
        #expect(HubErrorDetail.timestamp(unixSeconds: 1_635_292_799) == "10/26/2021 11:59:59 PM")
        // Split keeps the message's own full stop ("…operation." then ".TrackingId").
        #expect(HubErrorDetail.split("Manage claim is required for this operation..TrackingId:abc_G6,TimeStamp:6/27/2017 11:32:19 AM")
                == ("Manage claim is required for this operation.", "abc_G6"))
        #expect(HubErrorDetail.split("plain") == ("plain", nil))
    }

    /// Entries and feeds in the classic shape (`hub answers classic`; Citations §4.2; NH-DOTNET's
    /// recordings): no XML declaration; each entry's `id` and `self` link its address under the
    /// collection asked for, with the request's query echoed as the .NET SDK writes it; `published`
    /// when it was created and `updated` when last written; a feed's `id` and `self` link the
    /// listing's own address, and its entries leave the Atom namespace to it.
    @Test func classicAnswersHaveThe2022HubsAtomShape() throws {
        let w = HubWorld.classic(services: false)
        let id = w.register(.apple, RegistrationTests.token, tags: ["t1"])
        let created = w.world.anchor.iso8601(w.world.now)
        w.advance(.seconds(5))
        guard case .success? = w.put(id, .apple, RegistrationTests.token, tags: ["t1"]) else { return #expect(Bool(false), "update refused") }
        let updated = w.world.anchor.iso8601(w.world.now)
        let hub = "https://pushsim.servicebus.windows.net/notifyusers"
        let metadata = "xmlns:a=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\""

        let one = try #require(w.raw("GET", w.path("registrations/\(id)"), query: [("api-version", "2017-04")])).bodyText
        let address = "\(hub)/registrations/\(id)?api-version=2017-04"
        #expect(one.hasPrefix("<entry a:etag=\"W/&quot;2&quot;\" xmlns=\"http://www.w3.org/2005/Atom\" \(metadata)><id>\(address)</id>"
                              + "<title type=\"text\">\(id)</title><published>\(created)</published><updated>\(updated)</updated>"
                              + "<link rel=\"self\" href=\"\(address)\"/><content type=\"application/xml\"><AppleRegistrationDescription "), "\(one)")

        // The .NET SDK's listing by handle: `registrations` without a slash, `$filter` and `$top`.
        // (The hub stores APNs tokens in upper case, and filters on them so.)
        let token = RegistrationTests.token.uppercased()
        let query = [("api-version", "2017-04"), ("$filter", "DeviceToken eq '\(token)'"), ("$top", "100")]
        let echoed = "api-version=2017-04&amp;$filter=DeviceToken+eq+%27\(token)%27&amp;$top=100"
        let feed = try #require(w.raw("GET", w.path("registrations"), query: query)).bodyText
        #expect(feed.hasPrefix("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title type=\"text\">Registrations</title>"
                               + "<id>\(hub)/registrations?\(echoed)</id><updated>\(updated)</updated>"
                               + "<link rel=\"self\" href=\"\(hub)/registrations?\(echoed)\"/>"
                               + "<entry a:etag=\"W/&quot;2&quot;\" \(metadata)><id>\(hub)/registrations/\(id)?\(echoed)</id>"), "\(feed)")
        #expect(feed.contains("<published>\(created)</published><updated>\(updated)</updated><link rel=\"self\" href=\"\(hub)/registrations/\(id)?\(echoed)\"/>"))
        // A listing by tag: the entries' addresses are under the tag's collection.
        let byTag = try #require(w.raw("GET", w.path("tags/t1/registrations"), query: [("api-version", "2017-04"), ("$top", "100")])).bodyText
        #expect(byTag.contains("<id>\(hub)/tags/t1/registrations/\(id)?api-version=2017-04&amp;$top=100</id>"), "\(byTag)")
        // The SDK reads all three as before.
        #expect(w.byChannel(token)?.map(\.registrationID) == [id])
    }

    /// Entries and feeds as the service writes them today (NH-JS-REC, August 2023; issue 41 item
    /// 11): a read and a listing are `application/xml`, with no `ETag` header; their entries (and
    /// a listing's own address, whatever path was asked) live under `<hub>/resources`; the ETag
    /// attribute is `p1:etag` (`p2` in a feed) declared before the Atom namespace; empty elements
    /// end ` />`; the description declares `xmlns:i` first; a registration that never expires does
    /// so at `9999-12-31T23:59:59.9999999Z`. An answer to a write says `…notificationhub.windows.net`
    /// and writes that time without `Z`.
    @Test func answersHaveTheCurrentServicesShape() throws {
        let w = HubWorld(services: false)
        let id = w.register(.apple, RegistrationTests.token, tags: ["t1"])
        let created = w.world.anchor.iso8601(w.world.now)
        let hub = "https://pushsim.servicebus.windows.net/notifyusers"
        let p1 = "p1:etag=\"W/&quot;1&quot;\" xmlns:p1=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\""
        let description = "<AppleRegistrationDescription xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" "
            + "xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\"><ETag>1</ETag>"

        let read = try #require(w.raw("GET", w.path("registrations/\(id)"), query: [("api-version", "2020-06")]))
        #expect(read.headers["Content-Type"] == "application/xml" && read.headers["ETag"] == nil)
        let address = "\(hub)/resources/\(id)?api-version=2020-06"
        #expect(read.bodyText == "<entry \(p1) xmlns=\"http://www.w3.org/2005/Atom\"><id>\(address)</id>"
                + "<title type=\"text\">\(id)</title><published>\(created)</published><updated>\(created)</updated>"
                + "<link rel=\"self\" href=\"\(address)\" /><content type=\"application/xml\">\(description)"
                + "<ExpirationTime>9999-12-31T23:59:59.9999999Z</ExpirationTime><RegistrationId>\(id)</RegistrationId>"
                + "<Tags>t1</Tags><DeviceToken>\(RegistrationTests.token.uppercased())</DeviceToken></AppleRegistrationDescription></content></entry>")

        let write = try #require(w.raw("PUT", w.path("registrations/\(id)"), query: [("api-version", "2020-06")],
                                       headers: [("Content-Type", "application/atom+xml;type=entry;charset=utf-8")],
                                       body: AtomRegistration.requestBody(RegistrationDescription(platform: .apple, handle: RegistrationTests.token, tags: ["t1"]))))
        #expect(write.status == 200 && write.headers["ETag"] == nil && write.headers["Content-Location"] == nil)
        #expect(write.headers["Content-Type"] == "application/atom+xml; type=entry; charset=utf-8")
        #expect(write.bodyText.contains("<id>https://pushsim.notificationhub.windows.net/notifyusers/registrations/\(id)?api-version=2020-06</id>"))
        #expect(write.bodyText.contains("<ExpirationTime>9999-12-31T23:59:59.9999999</ExpirationTime>"))

        for path in ["registrations", "tags/t1/registrations"] {
            let listing = try #require(w.raw("GET", w.path(path), query: [("api-version", "2020-06")]))
            #expect(listing.headers["Content-Type"] == "application/xml" && listing.headers["ETag"] == nil)
            #expect(listing.bodyText.hasPrefix("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title type=\"text\">Registrations</title>"
                                               + "<id>\(hub)/resources?api-version=2020-06</id>"), "\(listing.bodyText)")
            #expect(listing.bodyText.contains("<link rel=\"self\" href=\"\(hub)/resources?api-version=2020-06\" /><entry p2:etag="
                                              + "\"W/&quot;2&quot;\" xmlns:p2=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\">"
                                              + "<id>\(address)</id>"), "\(listing.bodyText)")
        }
        // The client and the SDK's readers take every one of them.
        #expect(w.byChannel(RegistrationTests.token.uppercased())?.map(\.registrationID) == [id])
        guard case .success(let got)? = w.wait({ w.client.getRegistration(id, $0) }) else { return #expect(Bool(false), "read failed") }
        #expect(got.etag == "2" && got.tags == ["t1"])
    }

    @Test func requestBodyRoundTripsThroughTheParser() throws {
        for platform in [RegistrationPlatform.apple, .fcmV1, .windows] {
            let d = RegistrationDescription(platform: platform, handle: "h<&>1", tags: ["a", "b:c"])
            let parsed = try AtomRegistration.parseEntry(AtomRegistration.requestBody(d)).get()
            #expect(parsed.platform == platform)
            #expect(parsed.handle == "h<&>1")
            #expect(parsed.tags == ["a", "b:c"])
            let text = String(decoding: AtomRegistration.requestBody(d), as: UTF8.self)
            #expect(text.contains("<\(platform.descriptionElement) "))
            #expect(text.contains("<\(platform.handleElement)>"))
        }
    }

    @Test func tagsAreOneCommaSeparatedStringWithSpacesTrimmed() throws {
        let body = "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\"><WindowsRegistrationDescription>"
            + "<Tags>myTag, myOtherTag ,,third</Tags><ChannelUri>https://x/</ChannelUri></WindowsRegistrationDescription></content></entry>"
        let d = try AtomRegistration.parseEntry(Array(body.utf8)).get()
        #expect(d.tags == ["myTag", "myOtherTag", "third"])
    }

    @Test func platformNamesMatchTheHubs() {
        #expect(RegistrationPlatform.allCases.map(\.descriptionElement) == [
            "AppleRegistrationDescription", "FcmV1RegistrationDescription", "WindowsRegistrationDescription",
            "GcmRegistrationDescription", "MpnsRegistrationDescription", "BrowserRegistrationDescription"])
        #expect(RegistrationPlatform.allCases.map(\.sendFormat) == ["apple", "fcmv1", "windows", "gcm", "windowsphone", "browser"])
        #expect(RegistrationPlatform.allCases.filter(\.isRetired) == [.gcm, .mpns])
        #expect(RegistrationPlatform(descriptionElement: "AdmRegistrationDescription") == nil)
    }

    @Test func sasTokenHasTheServiceBusShape() {
        let t = SharedAccessSignature.token(resource: "https://NS.servicebus.windows.net/Hub", keyName: "k", key: "s",
                                            expiresAtUnixSeconds: 1_800_000_000)
        #expect(t.hasPrefix("SharedAccessSignature sr=https%3A%2F%2Fns.servicebus.windows.net%2Fhub&sig="))
        #expect(t.hasSuffix("&se=1800000000&skn=k"))
        let rules = [SharedAccessRule(keyName: "k", key: "s", rights: [.send])]
        let hub = "https://ns.servicebus.windows.net/hub"
        #expect(SharedAccessSignature.problem(t, rules: rules, right: .send, nowUnixSeconds: 1_799_999_999, resource: hub) == nil)
        #expect(SharedAccessSignature.problem(t, rules: rules, right: .send, nowUnixSeconds: 1_800_000_000, resource: hub) == "ExpiredToken: ")
        #expect(SharedAccessSignature.problem(t, rules: rules, right: .listen, nowUnixSeconds: 0, resource: hub) == "Listen claim is required for this operation.")
        // A good token signed for another hub is refused.
        #expect(SharedAccessSignature.problem(t, rules: rules, right: .send, nowUnixSeconds: 0,
                                              resource: "https://ns.servicebus.windows.net/otherhub")?.hasPrefix("InvalidAudience") == true)
        let manage = [SharedAccessRule(keyName: "k", key: "s", rights: [.manage])]
        #expect(SharedAccessSignature.problem(t, rules: manage, right: .listen, nowUnixSeconds: 0, resource: hub) == nil)
    }

    // MARK: Determinism

    /// A whole exchange: devices, registrations, sends, a dead handle, an outage-free fan-out.
    private func runTrace(seed: UInt64) -> String {
        let w = HubWorld(seed: seed)
        let iphone = TestDevice.iPhone(w, "iphone"), android = TestDevice.android(w, "android"), pc = TestDevice.windows(w, "pc")
        w.register(.apple, iphone.handle ?? "", tags: ["t"])
        w.register(.fcmV1, android.handle ?? "", tags: ["t"])
        w.register(.windows, pc.handle ?? "", tags: ["t"])
        iphone.installed = false
        for format in ["apple", "fcmv1", "windows", "apple"] {
            let body = format == "apple" ? Payload.apple : format == "fcmv1" ? Payload.fcm : Payload.toast
            _ = w.send(format: format, body: body, tags: "t", headers: format == "windows" ? [("X-WNS-Type", "wns/toast")] : [])
        }
        return TraceFormat.jsonLines(w.world.trace.events)
    }

    @Test func sameSeedGivesTheSameTraceBytes() {
        let a = runTrace(seed: 7)
        #expect(a == runTrace(seed: 7))
        #expect(a != runTrace(seed: 8)) // handles are drawn from the services' seeded streams
        #expect(a.contains("\"kind\":\"hub.registration-deleted\""))
    }
}

import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// The registration REST surface (Citations §4.2, §5.1): ids, create-or-update, 410 Gone,
/// reads by channel, deletes and the 400s for bodies and tags.
@Suite("Hub registrations")
struct RegistrationTests {
    static let gone = "Cannot use specified location. Please use a different registrationid."
    static let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"

    @Test func createRegistrationIDAnswers201WithItsLocation() {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("registrationIDs/"))
        #expect(r?.status == 201)
        #expect(r?.headers["Content-Location"] == nil)
        // As the live hub answers (NH-JS-REC), where Microsoft's SDKs read the id.
        #expect(r?.headers["Location"] == "https://pushsim.servicebus.windows.net/notifyusers/registrationids/76592028274533430-4765052952699024478-2")
        #expect(w.createID() == "4717660804047016587-3598050953566156631-1")
        #expect(w.events("hub.registration-id-created").map { $0[.id]?.description } == ["76592028274533430-4765052952699024478-2", "4717660804047016587-3598050953566156631-1"])
    }

    /// The .NET SDK's `CreateRegistrationIdAsync` posts to `registrationids`, lower case and
    /// without the slash the REST pages write; the service hands out an id either way.
    @Test func theSDKsLowerCasePathHandsOutAnIDToo() {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("registrationids"))
        #expect(r?.status == 201)
        #expect(r?.headers["Location"] == "https://pushsim.servicebus.windows.net/notifyusers/registrationids/76592028274533430-4765052952699024478-2")
    }

    /// The .NET SDK takes the id only from a `Location` whose path is `/<hub>/registrationids/<id>`.
    @Test func theClientReadsTheIDAsTheSDKDoes() {
        let read = NotificationHubClient.registrationID(inLocation:)
        #expect(read("https://ns.servicebus.windows.net/hub/registrationids/7260-4200-1?api-version=2017-04") == "7260-4200-1")
        #expect(read("http://127.0.0.1:8080/hub/RegistrationIDs/76592028274533430-4765052952699024478-2") == "76592028274533430-4765052952699024478-2")
        #expect(read("https://ns.servicebus.windows.net/hub/registrations/76592028274533430-4765052952699024478-2?api-version=2015-01") == nil)
        #expect(read("https://ns.servicebus.windows.net/hub/registrationids/76592028274533430-4765052952699024478-2/") == nil)
        #expect(read("https://ns.servicebus.windows.net/x/hub/registrationids/76592028274533430-4765052952699024478-2") == nil)
        #expect(read("https://ns.servicebus.windows.net/hub/registrationids/") == nil)
        #expect(read("76592028274533430-4765052952699024478-2") == nil && read(nil) == nil)
    }

    /// A registration as the .NET SDK's `CreateRegistrationAsync` posts it: to `registrations`,
    /// with `Content-Type: application/atom+xml; charset=utf-8; type=entry`, no XML declaration and
    /// a nil `RegistrationId` (NH-DOTNET `CreateOrUpdateRegistrationImplAsync`, `AddEntityToRequestContent`).
    static func sdkCreateBody(tags: String) -> [UInt8] {
        Array((#"<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml"><AppleRegistrationDescription "#
            + #"xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">"#
            + #"<RegistrationId i:nil="true"/><Tags>"# + tags + "</Tags><DeviceToken>" + token
            + "</DeviceToken></AppleRegistrationDescription></content></entry>").utf8)
    }
    static let sdkAtomType = [("Content-Type", "application/atom+xml; charset=utf-8; type=entry")]

    /// Create Registration (`POST /registrations/`): the hub picks the id and answers 200 with the
    /// entry; a body it refuses is 400 and takes no id.
    @Test func createRegistrationPicksTheIDAndAnswersTheEntry() throws {
        let w = HubWorld(services: false)
        let r = try #require(w.raw("POST", w.path("registrations"), headers: Self.sdkAtomType, body: Self.sdkCreateBody(tags: "news,username:bob")))
        #expect(r.status == 200)
        #expect(r.headers["ETag"] == nil && r.headers["Content-Location"] == nil)   // the live hub sends neither since 2023
        #expect(HubWorld.etag(r) == "W/\"1\"")
        let created = try AtomRegistration.parseEntry(r.body).get()
        #expect(created.registrationID == "76592028274533430-4765052952699024478-2")
        #expect(created.handle == Self.token.uppercased() && created.tags == ["news", "username:bob"])
        #expect(w.exists("76592028274533430-4765052952699024478-2"))
        #expect(w.raw("POST", w.path("registrations/"), headers: Self.sdkAtomType, body: Self.sdkCreateBody(tags: "bad/tag"))?.status == 400)
        #expect(w.raw("POST", w.path("registrations/"), body: Array("<entry/>".utf8))?.status == 400)
        #expect(w.createID() == "4717660804047016587-3598050953566156631-1")
    }

    @Test func theClientCreatesARegistrationWithoutAnID() throws {
        let w = HubWorld(services: false)
        let created = try #require(try w.wait { w.client.createRegistration(RegistrationDescription(platform: .fcmV1, handle: "fcm-1", tags: ["a"]), $0) }?.get())
        #expect(created.registrationID == "76592028274533430-4765052952699024478-2" && created.handle == "fcm-1" && created.tags == ["a"])
        let sent = w.world.journal.entries.last?.request
        #expect(sent?.method == "POST" && sent?.path == "/notifyusers/registrations")
        let withID = RegistrationDescription(platform: .fcmV1, handle: "fcm-1", registrationID: "76592028274533430-4765052952699024478-2")
        #expect(w.wait { w.client.createRegistration(withID, $0) }
                == .failure(HubError(kind: .argument, status: nil, detail: "registration.RegistrationId should be null or empty")))
    }

    /// `GET /tags/<tag>/registrations` (NH-REST "Read Registrations With A Tag") and `GET
    /// /registrations`: the registrations carrying the tag, oldest first, cut by `$top`; a tag the
    /// hub would not store is 400.
    @Test func registrationsAreListedByTagAndAll() {
        let w = HubWorld(services: false)
        let a = w.register(.apple, Self.token, tags: ["news", "username:bob"])
        _ = w.register(.windows, "https://cloud.notify.windows.com/?token=AAA", tags: ["sports"])
        let c = w.register(.fcmV1, "fcm-token-1", tags: ["news"])
        func ids(_ call: (@escaping (Result<[RegistrationDescription], HubError>) -> Void) -> Void) -> [String]? {
            guard case .success(let list)? = w.wait(call) else { return nil }
            return list.compactMap(\.registrationID)
        }
        #expect(ids { w.client.getRegistrationsByTag("news", top: 100, $0) } == [a, c])
        #expect(ids { w.client.getRegistrationsByTag("news", top: 1, $0) } == [a])
        #expect(ids { w.client.getRegistrationsByTag("nobody", top: 100, $0) } == [])
        #expect(ids { w.client.getAllRegistrations(top: 100, $0) }?.count == 3)
        #expect(w.raw("GET", w.path("tags/bad%2Ftag/registrations"))?.status == 400)
        #expect(w.raw("GET", w.path("tags/news/other"))?.status == 404)
        let sent = w.world.journal.entries.first { $0.request.path.contains("/tags/") }?.request
        #expect(sent?.method == "GET" && sent?.path.hasSuffix("/notifyusers/tags/news/registrations") == true)
    }

    /// 200, as the live hub answers (the .NET SDK's recordings); the REST pages' 201 is a setting.
    @Test func createOrUpdateAnswers200WithTheEntryAndAWeakETag() throws {
        let w = HubWorld(services: false)
        let id = w.createID()
        let body = AtomRegistration.requestBody(RegistrationDescription(platform: .windows, handle: "https://cloud.notify.windows.com/?token=AAA",
                                                                        tags: ["username:alice", "b", "a", "b"]))
        let r = w.raw("PUT", w.path("registrations/\(id)"), headers: [("Content-Type", "application/atom+xml;type=entry;charset=utf-8")], body: body)
        #expect(r?.status == 200)
        #expect(r?.headers["ETag"] == nil)                                    // the live hub sends none since 2023
        #expect(HubWorld.etag(r) == "W/\"1\"")
        #expect(r?.headers["Content-Type"] == "application/atom+xml; type=entry; charset=utf-8")   // as the live hub spells it
        let entry = try AtomRegistration.parseEntry(r?.body ?? []).get()
        #expect(entry.registrationID == id)
        #expect(entry.platform == .windows)
        #expect(entry.handle == "https://cloud.notify.windows.com/?token=AAA")
        #expect(entry.tags == ["a", "b", "username:alice"]) // unique, sorted
        #expect(entry.expirationTime == "9999-12-31T23:59:59.9999999")     // no Z in an answer to a write
        #expect(entry.etag == "1")
        // An update bumps the ETag; a read answers the same.
        let again = w.raw("PUT", w.path("registrations/\(id)"), body: body)
        #expect(again?.status == 200)
        #expect(HubWorld.etag(again) == "W/\"2\"")
        let read = w.raw("GET", w.path("registrations/\(id)"))
        #expect(read?.status == 200)
        #expect(HubWorld.etag(read) == "W/\"2\"")
        #expect(try AtomRegistration.parseEntry(read?.body ?? []).get().expirationTime == "9999-12-31T23:59:59.9999999Z")
        #expect(w.hub.registrationCount == 1)
    }

    @Test func clientCreateOrUpdateReturnsTheStoredDescription() {
        let w = HubWorld(services: false)
        let id = w.createID()
        guard case .success(let d)? = w.put(id, .fcmV1, "fcm-token-1", tags: ["x"]) else { Issue.record("no success"); return }
        #expect(d.registrationID == id)
        #expect(d.platform == .fcmV1)
        #expect(d.handle == "fcm-token-1")
        #expect(d.tags == ["x"])
    }

    // MARK: 410 Gone

    /// A registration's `PushVariables` (a JSON object of strings after `Tags`, as the SDK writes
    /// them) are kept and given back in entries and feeds, as the live hub does (NH-DOTNET's
    /// recordings: `<Tags>tag1</Tags><PushVariables>{"var1":"value1"}</PushVariables>`); other JSON
    /// is refused. Before, they were dropped and read back empty.
    @Test func pushVariablesAreKeptAndGivenBack() throws {
        let w = HubWorld(services: false)
        let id = w.createID()
        var d = RegistrationDescription(platform: .windows, handle: "https://some.url/", tags: ["tag1"], registrationID: id)
        d.pushVariables = ["var2": "two", "var1": "value1"]
        guard case .success(let written)? = w.wait({ w.client.createOrUpdateRegistration(d, $0) }) else { return #expect(Bool(false), "PUT refused") }
        #expect(written.pushVariables == d.pushVariables)
        let put = try #require(w.world.journal.entries.last { $0.request.method == "PUT" }?.request)
        #expect(put.bodyText.contains(#"<Tags>tag1</Tags><PushVariables>{"var1":"value1","var2":"two"}</PushVariables><ChannelUri>"#))
        let entry = try #require(w.raw("GET", w.path("registrations/\(id)"))).bodyText
        #expect(entry.contains(#"<Tags>tag1</Tags><PushVariables>{"var1":"value1","var2":"two"}</PushVariables><ChannelUri>"#), "\(entry)")
        #expect(w.byChannel("https://some.url/")?.first?.pushVariables == d.pushVariables)
        // Written again without them, they are gone.
        #expect(try #require(w.put(id, .windows, "https://some.url/")).get().pushVariables.isEmpty)
        for bad in [#"[1]"#, #"{"v":1}"#, "not json"] {
            let body = AtomRegistration.requestBody(RegistrationDescription(platform: .windows, handle: "https://some.url/"))
            let text = String(decoding: body, as: UTF8.self).replacing("<ChannelUri>", with: "<PushVariables>\(bad)</PushVariables><ChannelUri>")
            let r = w.raw("PUT", w.path("registrations/\(id)"), body: Array(text.utf8))
            #expect(r?.status == 400)
            #expect(w.detail(r) == "The PushVariables of the registration must be a JSON object of strings.")
        }
    }

    @Test func putOnAnIdNeverIssuedIsGone() {
        let w = HubWorld(services: false)
        let r = w.raw("PUT", w.path("registrations/6212096863253397582-2617303656836170844-1"),
                      body: AtomRegistration.requestBody(RegistrationDescription(platform: .apple, handle: Self.token)))
        #expect(r?.status == 410)
        #expect(w.detail(r) == Self.gone)
        // The SDK has no dedicated type for 410: a plain MessagingException (NH-DOTNET).
        let viaClient = w.put("made-up-id", .apple, Self.token)
        #expect(viaClient == .failure(HubError(kind: .messaging, status: 410, detail: Self.gone)))
        #expect(w.events("hub.registration-gone").count == 2)
        #expect(w.hub.registrationCount == 0)
    }

    @Test func putOnADeletedRegistrationIsGone() {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token)
        guard case .success? = w.wait({ w.client.deleteRegistration(id, $0) }) else { Issue.record("delete failed"); return }
        let r = w.put(id, .apple, Self.token)
        #expect(r == .failure(HubError(kind: .messaging, status: 410, detail: Self.gone)))
    }

    @Test func putOnAnExpiredRegistrationIsGoneAndUpdatesExtendTheLife() throws {
        let w = HubWorld(services: false, configuration: TestIdentity.configuration(ttl: .days(1)))
        let id = w.register(.apple, Self.token)
        // Just before the day is over, an update starts a new day.
        w.advance(.hours(23))
        guard case .success(let updated)? = w.put(id, .apple, Self.token) else { Issue.record("update failed"); return }
        #expect(updated.expirationTime == w.world.anchor.iso8601(w.world.now + .days(1)))
        w.advance(.hours(23))
        #expect(w.exists(id))
        // A day after the last update, the registration is gone: reads 404, PUT 410.
        w.advance(.hours(2))
        #expect(!w.exists(id))
        let r = w.put(id, .apple, Self.token)
        #expect(r == .failure(HubError(kind: .messaging, status: 410, detail: Self.gone)))
        #expect(w.hub.registrationCount == 0)
    }

    @Test func expiryIsExactlyTheTimeToLiveAfterTheLastUpdate() {
        let w = HubWorld(services: false, configuration: TestIdentity.configuration(ttl: .seconds(100)))
        let id = w.createID()
        let t0 = w.world.now
        // The PUT reaches the hub 10 ms after it is sent.
        _ = w.put(id, .windows, "https://cloud.notify.windows.com/?token=A")
        let updatedAt = t0 + .milliseconds(10)
        // A GET sent so that it arrives 1 ms before the expiry sees the registration, one arriving at the expiry does not.
        w.world.run(until: updatedAt + .microseconds(100_000_000 - 11_000))
        #expect(w.exists(id))
        w.world.run(until: updatedAt + .microseconds(100_000_000 - 10_000))
        #expect(!w.exists(id))
    }

    @Test func expiredRegistrationsAreNotSentTo() {
        let w = HubWorld(services: false, configuration: TestIdentity.configuration(ttl: .days(1)))
        w.register(.apple, Self.token)
        w.advance(.days(2))
        #expect(w.send(format: "apple", body: Payload.apple)?.status == 201)
        #expect(w.events("hub.no-target").count == 1)
        #expect(w.events("hub.pns-request").isEmpty)
    }

    // MARK: Reads

    @Test func readByChannelReturnsDuplicatesOfAHandleInCreationOrder() {
        let w = HubWorld(services: false)
        let channel = "https://cloud.notify.windows.com/?token=SAME"
        let first = w.createID(), second = w.createID(), other = w.createID(), third = w.createID()
        // PUT out of order; the feed follows the ids' creation order, not the PUT order.
        _ = w.put(third, .windows, channel, tags: ["c"])
        _ = w.put(first, .windows, channel, tags: ["a"])
        _ = w.put(other, .windows, "https://cloud.notify.windows.com/?token=OTHER")
        _ = w.put(second, .windows, channel, tags: ["b"])
        // Updating the oldest one does not move it.
        _ = w.put(first, .windows, channel, tags: ["a2"])
        let found = w.byChannel(channel)
        #expect(found?.map { $0.registrationID ?? "" } == [first, second, third])
        #expect(found?.map(\.tags) == [["a2"], ["b"], ["c"]])
        #expect(w.byChannel(channel, top: 2)?.count == 2)
        #expect(w.byChannel("https://cloud.notify.windows.com/?token=NONE")?.isEmpty == true)
    }

    @Test func apnsTokensAreStoredUpperCaseAndFoundOnlyByUpperCase() throws {
        let w = HubWorld(services: false)
        let id = w.createID()
        guard case .success(let d)? = w.put(id, .apple, Self.token) else { Issue.record("no success"); return }
        #expect(d.handle == Self.token.uppercased())
        let upper = w.raw("GET", w.path("registrations/"),
                          query: [("api-version", "2015-01"), ("$filter", "DeviceToken eq '\(Self.token.uppercased())'")])
        #expect(upper?.status == 200)
        #expect(AtomRegistration.parseFeed(upper?.body ?? [])?.map(\.registrationID) == [id])
        let lower = w.raw("GET", w.path("registrations/"),
                          query: [("api-version", "2015-01"), ("$filter", "DeviceToken eq '\(Self.token)'")])
        #expect(AtomRegistration.parseFeed(lower?.body ?? [])?.isEmpty == true)
        // Other platforms' handles are kept as given.
        let fcmID = w.createID()
        guard case .success(let f)? = w.put(fcmID, .fcmV1, "abcDEF:APA91b-xyz") else { Issue.record("no success"); return }
        #expect(f.handle == "abcDEF:APA91b-xyz")
    }

    @Test func readAllListsEveryPlatformInCreationOrder() {
        let w = HubWorld(services: false)
        let a = w.register(.windows, "https://cloud.notify.windows.com/?token=W")
        let b = w.register(.apple, Self.token)
        let c = w.register(.fcmV1, "f:APA91bX")
        let r = w.raw("GET", w.path("registrations/"))
        #expect(AtomRegistration.parseFeed(r?.body ?? [])?.map { $0.registrationID ?? "" } == [a, b, c])
    }

    @Test func unsupportedFilterIsRefused() {
        let w = HubWorld(services: false)
        for filter in ["Tags eq 'a'", "ChannelUri ne 'x'", "ChannelUri eq x", "ChannelUri"] {
            let r = w.raw("GET", w.path("registrations/"), query: [("api-version", "2015-01"), ("$filter", filter)])
            #expect(r?.status == 400, "\(filter)")
        }
    }

    // MARK: Delete

    @Test func deleteAnswers200ThenTheRegistrationIsNotFound() {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token)
        let first = w.raw("DELETE", w.path("registrations/\(id)"), headers: [("If-Match", "*")])
        #expect(first?.status == 200)
        #expect(w.events("hub.registration-deleted").first?[.why] == "delete request")
        let second = w.raw("DELETE", w.path("registrations/\(id)"), headers: [("If-Match", "*")])
        #expect(second?.status == 404)
        #expect(w.raw("GET", w.path("registrations/\(id)"))?.status == 404)
        let viaClient = w.wait { w.client.deleteRegistration(id, $0) }
        if case .failure(let e)? = viaClient { #expect(e.kind == .entityNotFound) } else { Issue.record("expected 404") }
        #expect(w.byChannel(Self.token.uppercased())?.isEmpty == true)
    }

    // MARK: 400s

    private func putBody(_ w: HubWorld, _ body: String) -> HTTPResponse? {
        let id = w.createID()
        return w.raw("PUT", w.path("registrations/\(id)"), body: Array(body.utf8))
    }

    private func entry(_ description: String) -> String {
        "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">\(description)</content></entry>"
    }

    @Test func malformedOrUnknownBodiesAre400() {
        let w = HubWorld(services: false)
        let cases: [(String, String)] = [
            ("<entry><content>", "The request body is not well-formed XML."),
            ("not xml at all", "The request body is not well-formed XML."),
            ("<feed/>", "The request body is not an Atom entry."),
            ("<entry xmlns=\"http://www.w3.org/2005/Atom\"/>", "The Atom entry has no content."),
            (entry("<FooRegistrationDescription><DeviceToken>AB</DeviceToken></FooRegistrationDescription>"),
             "Unknown registration description 'FooRegistrationDescription'."),
            (entry("<AppleRegistrationDescription><Tags>a</Tags></AppleRegistrationDescription>"),
             "The DeviceToken of the registration is missing."),
        ]
        for (body, detail) in cases {
            let r = putBody(w, body)
            #expect(r?.status == 400, "\(body)")
            #expect(w.detail(r) == detail, "\(body)")
        }
        #expect(w.hub.registrationCount == 0)
    }

    @Test func retiredGcmAndMpnsDescriptionsAre400() {
        let w = HubWorld(services: false)
        let gcm = putBody(w, entry("<GcmRegistrationDescription><GcmRegistrationId>abc</GcmRegistrationId></GcmRegistrationDescription>"))
        #expect(gcm?.status == 400)
        #expect(w.detail(gcm)?.hasPrefix("GcmRegistrationDescription is no longer supported") == true)
        let mpns = putBody(w, entry("<MpnsRegistrationDescription><ChannelUri>https://x.notify.live.net/a</ChannelUri></MpnsRegistrationDescription>"))
        #expect(mpns?.status == 400)
        #expect(w.detail(mpns)?.hasPrefix("MpnsRegistrationDescription is no longer supported") == true)
        // The client surfaces it as BadRequestException.
        let viaClient = w.put(w.createID(), .gcm, "abc")
        if case .failure(let e)? = viaClient { #expect(e.kind == .badRequest) } else { Issue.record("expected 400") }
        #expect(w.hub.registrationCount == 0)
    }

    @Test(arguments: [
        ["user/alice"], ["a b"], ["ümlaut"], ["ok", "semi;colon"], ["tab\tbed"],
        [String(repeating: "a", count: 121)],
        (0..<61).map { "t\($0)" },
    ])
    func invalidTagsAre400(tags: [String]) {
        let w = HubWorld(services: false)
        let r = w.put(w.createID(), .apple, Self.token, tags: tags)
        guard case .failure(let e)? = r else { Issue.record("accepted \(tags)"); return }
        #expect(e.status == 400)
        #expect(e.kind == .badRequest)
        #expect(w.hub.registrationCount == 0)
    }

    @Test func tagLimitsAreInclusive() {
        let w = HubWorld(services: false)
        let longest = String(repeating: "x", count: 120)
        let allChars = "Az09_@#.:-"
        let sixty = (0..<60).map { "t\($0)" }
        for tags in [[longest], [allChars], sixty] {
            let r = w.put(w.createID(), .apple, Self.token, tags: tags)
            guard case .success(let d)? = r else { Issue.record("refused \(tags.count) tags: \(String(describing: r))"); continue }
            #expect(d.tags.count == tags.count)
        }
    }

    @Test func tagProblemsAreWorded() {
        #expect(TagRules.problem(with: (0..<61).map { "t\($0)" }) == "A registration can have at most 60 tags; 61 were given.")
        #expect(TagRules.problem(with: ["ok", "no way"])?.hasPrefix("The tag 'no way' is invalid") == true)
        #expect(TagRules.problem(with: ["ok"]) == nil)
        #expect(!TagRules.isValid(""))
    }
}

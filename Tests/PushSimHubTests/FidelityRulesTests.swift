import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// The hub's rules settled from Microsoft's sources (see `HubFidelityRules.swift`), with the
/// default settings, through raw REST requests: `If-Match` on registration updates and deletes,
/// one ETag in header, entry and description, the status of an accepted send, and the 400 for an
/// APNs payload that is not JSON.
@Suite("Hub fidelity rules")
struct FidelityRulesTests {
    static let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let atomType = ("Content-Type", "application/atom+xml;type=entry;charset=utf-8")
    static let stale = "Precondition failed. The current version of the registration does not have the specified ETag."

    private func body(tags: [String] = []) -> [UInt8] {
        AtomRegistration.requestBody(RegistrationDescription(platform: .apple, handle: Self.token, tags: tags))
    }

    private func put(_ w: HubWorld, _ id: String, ifMatch: String?, tags: [String] = [], body: [UInt8]? = nil) -> HTTPResponse? {
        w.raw("PUT", w.path("registrations/\(id)"), headers: [Self.atomType] + (ifMatch.map { [("If-Match", $0)] } ?? []),
              body: body ?? self.body(tags: tags))
    }

    // MARK: If-Match on update

    @Test func anUpdateWithTheCurrentETagInAnySDKsSpellingGoesThroughAndGetsANewETag() {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token)                                   // ETag 1
        // .NET and JavaScript send "n", Java W/"n"; `*` overwrites whatever the version.
        for (k, ifMatch) in ["\"1\"", "W/\"2\"", "3", "*", "\"9\", \"5\""].enumerated() {
            let r = put(w, id, ifMatch: ifMatch, tags: ["v\(k)"])
            #expect(r?.status == 200, "\(ifMatch)")
            #expect(HubWorld.etag(r) == "W/\"\(k + 2)\"", "\(ifMatch)")
        }
        #expect(w.hub.registrationCount == 1)
    }

    @Test func anUpdateWithAStaleETagIs412AndChangesNothing() throws {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token, tags: ["first"])
        #expect(put(w, id, ifMatch: nil, tags: ["second"])?.status == 200)    // ETag 2, no If-Match: overwrites
        let stale = put(w, id, ifMatch: "\"1\"", tags: ["third"])
        #expect(stale?.status == 412)
        #expect(w.detail(stale) == Self.stale)
        let read = w.raw("GET", w.path("registrations/\(id)"))
        #expect(HubWorld.etag(read) == "W/\"2\"")
        #expect(try AtomRegistration.parseEntry(read?.body ?? []).get().tags == ["second"])
        #expect(w.events("hub.precondition-failed").first?[.etag] == .int(2))
        // The SDK classifies 412 as a plain MessagingException (NH-DOTNET ExceptionUtility.cs).
        #expect(HubError(.response(try #require(stale))).kind == .messaging)
        // An empty If-Match names no version: it matches nothing.
        #expect(put(w, id, ifMatch: "", tags: ["fourth"])?.status == 412)
    }

    @Test func preconditionsAreJudgedBeforeTheBody() {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token)
        #expect(put(w, id, ifMatch: "\"7\"", body: Array("<entry/>".utf8))?.status == 412)
        #expect(put(w, id, ifMatch: "\"1\"", body: Array("<entry/>".utf8))?.status == 400)
    }

    @Test func anUpdateWithIfMatchOnAnIdWithoutARegistrationIs404() {
        let w = HubWorld(services: false)
        let id = w.createID()
        let r = put(w, id, ifMatch: "*")
        #expect(r?.status == 404)
        #expect(w.detail(r) == "No registration exists at this location.")
        #expect(w.hub.registrationCount == 0)
        // Without If-Match the same id is created.
        #expect(put(w, id, ifMatch: nil)?.status == 200)
    }

    @Test func goneIdsStay410WithIfMatch() {
        // Expired: the tutorial's defect e depends on the 410, and the id's answer does not depend on
        // If-Match (RFC 9110 §13.2.1). Deleted and never issued likewise.
        let w = HubWorld(services: false, configuration: TestIdentity.configuration(ttl: .days(1)))
        let expired = w.register(.apple, Self.token)
        let deleted = w.register(.apple, Self.token)
        #expect(w.raw("DELETE", w.path("registrations/\(deleted)"), headers: [("If-Match", "*")])?.status == 200)
        w.advance(.days(2))
        for id in [expired, deleted, "reg-000999"] {
            for ifMatch in ["*", "\"1\""] {
                let r = put(w, id, ifMatch: ifMatch)
                #expect(r?.status == 410, "\(id) \(ifMatch)")
                #expect(w.detail(r) == RegistrationTests.gone)
            }
        }
    }

    // MARK: If-Match on delete

    @Test func aDeleteWithAStaleETagIs412AndKeepsTheRegistration() {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token)
        #expect(put(w, id, ifMatch: nil)?.status == 200)                        // ETag 2
        let stale = w.raw("DELETE", w.path("registrations/\(id)"), headers: [("If-Match", "\"1\"")])
        #expect(stale?.status == 412)
        #expect(w.detail(stale) == Self.stale)
        #expect(w.exists(id))
        let current = w.raw("DELETE", w.path("registrations/\(id)"), headers: [("If-Match", "W/\"2\"")])
        #expect(current?.status == 200)
        #expect(!w.exists(id))
    }

    @Test func aDeleteOfAMissingRegistrationIs404WhateverIfMatchSays() {
        let w = HubWorld(services: false)
        for ifMatch in ["*", "\"1\"", nil] as [String?] {
            let r = w.raw("DELETE", w.path("registrations/reg-000042"), headers: ifMatch.map { [("If-Match", $0)] } ?? [])
            #expect(r?.status == 404)
        }
    }

    @Test func aDeleteWithoutIfMatchDeletesByDefault() {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token)
        #expect(w.raw("DELETE", w.path("registrations/\(id)"))?.status == 200)
        #expect(!w.exists(id))
    }

    // MARK: One ETag everywhere

    /// The current service carries the ETag in the entry (`p1:etag`) and the description only; the
    /// classic one in the `ETag` header too (`a:etag`), the same in all three (NH-JS-REC, NH-DOTNET).
    @Test(arguments: HubAnswerShape.allCases)
    func theEntryCarriesTheETagOfTheDescription(shape: HubAnswerShape) throws {
        let w = shape == .classic ? HubWorld.classic(services: false) : HubWorld(services: false)
        let id = w.register(.apple, Self.token)
        #expect(put(w, id, ifMatch: "*")?.status == 200)
        for r in [w.raw("GET", w.path("registrations/\(id)")), put(w, id, ifMatch: "\"2\"")] {
            let response = try #require(r)
            let entry = try XMLDocumentParser.parse(response.body).root
            let etag = try #require(HubWorld.etag(response))
            let prefix = shape == .current ? "p1" : "a"
            #expect(entry.attribute(prefix + ":etag") == etag)
            #expect(entry.attribute("xmlns:" + prefix) == "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata")
            #expect(response.headers["ETag"] == (shape == .classic ? etag : nil))
        }
    }

    // MARK: Send status

    @Test func anAcceptedSendAnswers201AsTheServiceDoes() {
        let w = HubWorld(services: false)
        let send = w.send(format: "apple", body: Payload.apple, tags: "t")
        #expect(send?.status == 201)
        #expect(send?.headers["Location"]?.contains("/messages/\(w.ntf(1))?") == true)
        let test = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("test", "")],
                         headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(test?.status == 201)
    }

    // MARK: APNs payloads that are not JSON

    @Test(arguments: ["{\"aps\":{\"alert\":\"She said \"hi\"\"}}", "not json", "[1,2]", "\"alert\"", ""])
    func anAPNsSendWhosePayloadIsNotAJSONObjectIs400(payload: String) {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "", tags: ["t"])
        let r = w.send(format: "apple", body: payload, tags: "t")
        #expect(r?.status == 400)
        #expect(w.detail(r) == "The supplied notification payload is invalid.")
        #expect(w.events("hub.send-accepted").isEmpty)
        #expect(w.hubRequests(authority: "api.push.apple.com").isEmpty)
        #expect(iphone.pushes.isEmpty)
    }

    @Test func aDirectAPNsSendWhosePayloadIsNotJSONIs400() {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        let r = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("direct", "")],
                      headers: [("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-DeviceHandle", iphone.handle ?? "")],
                      body: Array("{\"aps\":".utf8))
        #expect(r?.status == 400)
        #expect(w.hubRequests(authority: "api.push.apple.com").isEmpty)
        // Through the client the SDK's BadRequestException.
        let viaClient = w.wait { w.client.sendAppleNativeNotification("{oops", $0) }
        #expect(viaClient == .failure(HubError(kind: .badRequest, status: 400, detail: "The supplied notification payload is invalid.")))
    }

    @Test func aValidAPNsPayloadIsStillSent() {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "", tags: ["t"])
        #expect(w.send(format: "apple", body: " {\"aps\":{\"alert\":\"Hi\"},\"x\":[1]} ", tags: "t")?.status == 201)
        #expect(iphone.pushes.count == 1)
    }
}

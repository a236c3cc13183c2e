import PushSimKernel
import PushSimNetwork
@testable import PushSimHub
import Testing

/// Who may call the hub, and how a request must be addressed: SAS tokens and their claims,
/// `api-version`, the hub path.
@Suite("Hub access")
struct HubAccessTests {
    private func registrationID(_ w: HubWorld, auth: HubWorld.Auth) -> HTTPResponse? {
        w.raw("POST", w.path("registrationIDs/"), auth: auth)
    }

    @Test func missingSignatureIs401() {
        let w = HubWorld(services: false)
        let r = registrationID(w, auth: .none)
        #expect(r?.status == 401)
        #expect(w.detail(r) == "MissingToken: The authorization header was not found.")
        #expect(w.events("hub.registration-id-created").isEmpty)
        // Another scheme is no better.
        #expect(registrationID(w, auth: .header("Bearer abc"))?.status == 401)
    }

    @Test func signatureWithTheWrongKeyIs401() {
        let w = HubWorld(services: false)
        let r = registrationID(w, auth: .header(w.sas(TestIdentity.full, key: "not-the-key")))
        #expect(r?.status == 401)
        #expect(w.detail(r) == "InvalidSignature: The token has an invalid signature.")
    }

    @Test func tamperedExpiryBreaksTheSignature() {
        let w = HubWorld(services: false)
        let good = w.sas(TestIdentity.full)
        let se = String(w.world.anchor.unixSeconds(w.world.now) + 3_600)
        let tampered = good.replacing("se=\(se)", with: "se=\(se)9")
        #expect(tampered != good)
        #expect(registrationID(w, auth: .header(tampered))?.status == 401)
        #expect(registrationID(w, auth: .header(good))?.status == 201)
    }

    @Test func unknownKeyNameIs401() {
        let w = HubWorld(services: false)
        let r = registrationID(w, auth: .header(w.sas(TestIdentity.full, keyName: "SomeoneElse")))
        #expect(r?.status == 401)
        #expect(w.detail(r) == "InvalidSignature: The token has an invalid signature.")
    }

    @Test func malformedTokenIs401() {
        let w = HubWorld(services: false)
        let r = registrationID(w, auth: .header("SharedAccessSignature sr=x&sig=y"))
        #expect(r?.status == 401)
        #expect(w.detail(r) == "InvalidSignature: The token is malformed.")
    }

    @Test func expiredTokenIs401() {
        let w = HubWorld(services: false)
        w.advance(.hours(1))
        let now = w.world.anchor.unixSeconds(w.world.now)
        // The request arrives 10 ms later, still inside the same second: `se` equal to now has run out.
        let atNow = registrationID(w, auth: .header(w.sas(expiresAt: now)))
        #expect(atNow?.status == 401)
        #expect(w.detail(atNow) == "ExpiredToken: ")
        #expect(registrationID(w, auth: .header(w.sas(expiresAt: now - 60)))?.status == 401)
        #expect(registrationID(w, auth: .header(w.sas(expiresAt: now + 1)))?.status == 201)
    }

    @Test func tokenMadeEarlierRunsOutInVirtualTime() {
        let w = HubWorld(services: false)
        let token = w.sas() // valid for one hour from zero
        #expect(registrationID(w, auth: .header(token))?.status == 201)
        w.advance(.minutes(61))
        #expect(registrationID(w, auth: .header(token))?.status == 401)
    }

    @Test func listenKeyCannotSend() {
        let w = HubWorld(services: false)
        let r = w.send(format: "apple", body: Payload.apple, auth: .listen)
        #expect(r?.status == 401)
        #expect(w.detail(r) == "Send claim is required for this operation.")
        #expect(w.events("hub.send-accepted").isEmpty)
        // Through the SDK-like client with the listen connection string: UnauthorizedException.
        let listenClient = w.client(rule: TestIdentity.listen)
        let viaClient = w.wait { listenClient.sendAppleNativeNotification(Payload.apple, $0) }
        if case .failure(let e)? = viaClient { #expect(e.kind == .unauthorized && e.status == 401) } else { Issue.record("expected 401") }
    }

    /// Reading registrations by tag is a Manage operation (NH-SEC: Manage covers "read
    /// registrations based on tags"; Listen only single registrations and those of a handle).
    @Test func listenKeyCannotListRegistrationsByTag() {
        let w = HubWorld(services: false)
        _ = w.register(.apple, "AB", tags: ["news"])
        let listenClient = w.client(rule: TestIdentity.listen)
        let byTag = w.wait { listenClient.getRegistrationsByTag("news", top: 10, $0) }
        if case .failure(let e)? = byTag { #expect(e.status == 401) } else { Issue.record("expected 401, got \(String(describing: byTag))") }
        guard case .success(let found)? = w.wait({ w.client.getRegistrationsByTag("news", top: 10, $0) }) else { Issue.record("full key refused"); return }
        #expect(found.count == 1)
    }

    /// Reading every registration is not a Listen operation either (NH-SEC lists, for Listen,
    /// single registrations and "all registrations for a handle"): unfiltered it is refused,
    /// filtered by the handle it is allowed, and the full key reads both.
    @Test func listenKeyReadsTheRegistrationsOfAHandleButNotAllOfThem() {
        let w = HubWorld(services: false)
        _ = w.register(.apple, "AB", tags: ["news"])
        let listenClient = w.client(rule: TestIdentity.listen)
        let all = w.wait { listenClient.getAllRegistrations(top: 10, $0) }
        if case .failure(let e)? = all { #expect(e.status == 401) } else { Issue.record("expected 401, got \(String(describing: all))") }
        guard case .success(let ofHandle)? = w.wait({ listenClient.getRegistrationsByChannel("AB", top: 10, $0) }) else {
            Issue.record("listen key refused the registrations of a handle"); return
        }
        #expect(ofHandle.count == 1)
        guard case .success(let everything)? = w.wait({ w.client.getAllRegistrations(top: 10, $0) }) else { Issue.record("full key refused"); return }
        #expect(everything.count == 1)
    }

    @Test func listenKeyCanRegisterAndFullKeyCanDoBoth() {
        let w = HubWorld(services: false)
        let listenClient = w.client(rule: TestIdentity.listen)
        let id = w.wait { listenClient.createRegistrationId($0) }
        guard case .success(let regID)? = id else { Issue.record("listen key refused: \(String(describing: id))"); return }
        let put = w.wait { listenClient.createOrUpdateRegistration(RegistrationDescription(platform: .apple, handle: "AB", registrationID: regID), $0) }
        if case .failure(let e)? = put { Issue.record("listen key could not register: \(e)") }
        #expect(w.send(format: "apple", body: Payload.apple, auth: .full)?.status == 201)
    }

    @Test func sendOnlyKeyCanSendButNotRegister() {
        let w = HubWorld(services: false)
        #expect(w.send(format: "apple", body: Payload.apple, auth: .sendOnly)?.status == 201)
        let r = registrationID(w, auth: .sendOnly)
        #expect(r?.status == 401)
        #expect(w.detail(r) == "Listen claim is required for this operation.")
    }

    @Test func missingApiVersionIs400() {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("registrationIDs/"), query: [])
        #expect(r?.status == 400)
        #expect(w.detail(r) == "The api-version query parameter is required.")
        #expect(w.raw("POST", w.path("registrationIDs/"), query: [("api-version", "2020-06")])?.status == 201)
    }

    @Test func unknownHubIs404() {
        let w = HubWorld(services: false)
        let r = w.raw("POST", "/otherhub/registrationIDs/")
        #expect(r?.status == 404)
        #expect(w.detail(r) == "The messaging entity 'otherhub' could not be found.")
        let client = NotificationHubClient(connectionString: w.hub.configuration.connectionString(for: TestIdentity.full),
                                           hubPath: "otherhub", world: w.world, caller: HubWorld.caller)!
        let viaClient = w.wait { client.createRegistrationId($0) }
        if case .failure(let e)? = viaClient { #expect(e.kind == .entityNotFound) } else { Issue.record("expected 404") }
    }

    @Test func unknownOperationIs404AndUnknownNamespaceIsNoHost() {
        let w = HubWorld(services: false)
        #expect(w.raw("PATCH", w.path("registrations/reg-000001"))?.status == 404)
        #expect(w.raw("GET", w.path("installations/x"))?.status == 404)
        let client = NotificationHubClient(connectionString: "Endpoint=sb://elsewhere.servicebus.windows.net/;SharedAccessKeyName=a;SharedAccessKey=b",
                                           hubPath: TestIdentity.hubName, world: w.world, caller: HubWorld.caller)!
        let r = w.wait { client.createRegistrationId($0) }
        #expect(r == .failure(HubError(kind: .transport, status: nil, detail: "no such host")))
    }

    @Test func connectionStringMustHaveEveryPart() {
        let world = World(seed: 1)
        #expect(NotificationHubClient(connectionString: "Endpoint=sb://a.servicebus.windows.net/;SharedAccessKeyName=k",
                                      hubPath: "h", world: world, caller: "c") == nil)
        #expect(NotificationHubClient(connectionString: "SharedAccessKeyName=k;SharedAccessKey=v",
                                      hubPath: "h", world: world, caller: "c") == nil)
    }
}

import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimScenario

/// `PUT /api/register/<id>` of the tutorial's RegisterController, defects e, f and i included.
@Suite("Tutorial backend: create or update a registration")
struct RegisterUpsertTests {
    /// Gets an id at 1 s and PUTs `body` to it at 2 s as `user`.
    private func put(_ body: String, as user: String = "alice", options: Simulation.Options = Simulation.Options())
        -> (Simulation, Answer) {
        let sim = Simulation(seed: 1, options: options)
        let id = sim.request(at: t(1), "POST", "/api/register", auth: .user(user))
        let put = sim.request(at: t(2), "PUT", "/api/register/\(id.id)", auth: .user(user), body: body)
        sim.run()
        return (sim, put)
    }

    @Test(arguments: [("apns", "apple"), ("fcm", "fcmV1"), ("wns", "windows")])
    func knownPlatformsAreRegisteredWithTheUserTag(platform: String, hubPlatform: String) {
        let handle = platform == "wns" ? "https://cloud.notify.windows.com/?token=AwYAAAD1" : "AB12CD34"
        let (sim, put) = put(registrationBody(platform: platform, handle: handle))
        #expect(put.status == 200)
        let upserted = sim.events("hub.registration-upserted")
        #expect(upserted.count == 1)
        #expect(upserted.first?[.platform] == .string(hubPlatform))
        #expect(upserted.first?[.tags] == "username:alice")
    }

    @Test func unknownPlatformIs400() {
        let (sim, put) = put(registrationBody(platform: "gcm"))
        #expect(put.status == 400)
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func platformIsMatchedCaseSensitively() {
        // `switch (deviceUpdate.Platform)` compares exactly: "APNS" is not "apns".
        let (_, put) = put(registrationBody(platform: "APNS"))
        #expect(put.status == 400)
    }

    @Test func missingPlatformIs400() {
        // A switch on a null string goes to `default`: BadRequest.
        let (sim, put) = put(registrationBody(platform: nil))
        #expect(put.status == 400)
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func bodyThatIsNotJSONIs500() {
        // The body does not bind: `deviceUpdate` is null and `deviceUpdate.Platform` throws.
        let (sim, put) = put("{\"Platform\": \"apns\",")
        #expect(put.status == 500)
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func missingTagsIs500() {
        // `new HashSet<string>(null)` throws (defect f).
        let (sim, put) = put(registrationBody(tags: nil))
        #expect(put.status == 500)
        #expect(sim.events("backend.exception").first?[.defect] == "f")
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func missingHandleIs500() {
        let (sim, put) = put(registrationBody(handle: nil))
        #expect(put.status == 500)
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func mpnsIsRefusedByTheHubAndAnswered500() {
        let (sim, put) = put(registrationBody(platform: "mpns", handle: "https://db3.notify.live.net/throttledthirdparty/01.00/AQF"))
        // The hub refuses the retired platform (400); defect e turns that into 500.
        #expect(sim.hubCalls == ["POST registrationids", "PUT registrations/76592028274533430-4765052952699024478-2"])
        #expect(sim.hubStatuses.last == 400)
        #expect(put.status == 500)
        #expect(sim.events("backend.exception").first?[.defect] == "e")
    }

    @Test func clientTagsAreAcceptedUncheckedAndTheUserTagAdded() {
        // Defect i: alice may ask for bob's tag.
        let (sim, put) = put(registrationBody(tags: ["username:bob", "sports"]))
        #expect(put.status == 200)
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "sports,username:alice,username:bob")
        #expect(sim.events("backend.tags-unchecked").first?[.defect] == "i")
    }

    @Test func repeatedUserTagIsKeptOnce() {
        let (sim, put) = put(registrationBody(tags: ["username:alice"]))
        #expect(put.status == 200)
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "username:alice")
    }

    @Test func updateOfAnExistingRegistrationReplacesItsTags() {
        let sim = Simulation(seed: 1)
        let id = sim.request(at: t(1), "POST", "/api/register")
        let a = sim.request(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody(tags: ["news"]))
        let b = sim.request(at: t(3), "PUT", "/api/register/\(id.id)", body: registrationBody(tags: ["sports"]))
        sim.run()
        #expect(a.status == 200 && b.status == 200)
        #expect(sim.events("hub.registration-upserted").map { $0[.tags] } == ["news,username:alice", "sports,username:alice"])
        #expect(sim.hub.registrationCount == 1)
    }

    // MARK: Defect e: the hub's "gone" and other errors

    /// A registration that expires after a minute, written at 2 s and written again at 5 min.
    private func putAfterExpiry(sdk: TutorialHubSDK) -> (Simulation, Answer, Answer) {
        var options = Simulation.Options()
        options.registrationTimeToLive = .seconds(60)
        options.hubSDK = sdk
        let sim = Simulation(seed: 1, options: options)
        let id = sim.request(at: t(1), "POST", "/api/register")
        let first = sim.request(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody())
        let late = sim.request(at: t(300), "PUT", "/api/register/\(id.id)", body: registrationBody())
        sim.run()
        return (sim, first, late)
    }

    @Test(arguments: TutorialHubSDK.allCases)
    func hubGoneReachesTheClientAs500(sdk: TutorialHubSDK) {
        let (sim, first, late) = putAfterExpiry(sdk: sdk)
        #expect(first.status == 200)
        #expect(sim.hubStatuses.last == 410)
        #expect(sim.events("hub.registration-gone").count == 1)
        // Never 410: current SDK → null dereference; classic SDK → HttpRequestException.
        #expect(late.status == 500)
        #expect(sim.events("backend.exception").last?[.defect] == "e")
    }

    @Test func classicSDKSwallowsOtherHubErrorsAs200() {
        var options = Simulation.Options()
        options.hubSDK = .classic
        let (sim, put) = put(registrationBody(tags: ["has space"]), options: options)
        #expect(sim.hubStatuses.last == 400)
        #expect(put.status == 200)
        #expect(sim.events("backend.error-swallowed").first?[.hubStatus] == 400)
        // Nothing was registered, though the client was told so.
        #expect(sim.hub.registrationCount == 0)
    }

    @Test func currentSDKTurnsOtherHubErrorsInto500() {
        let (sim, put) = put(registrationBody(tags: ["has space"]))
        #expect(sim.hubStatuses.last == 400)
        #expect(put.status == 500)
        #expect(sim.hub.registrationCount == 0)
    }
}

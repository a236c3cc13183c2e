import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimScenario

/// `PUT /api/register/<id>` of the hardened backend: every field checked before the hub is called
/// (defect f fixed), tags authorised (defect i fixed), the hub's 410 passed through (defect e fixed).
@Suite("Hardened backend: create or update a registration")
struct HardenedUpsertTests {
    /// Gets an id at 1 s and PUTs `body` to it at 2 s as `auth`.
    private func put(_ body: String, as auth: Credentials = aliceLogin) -> (Simulation, Answer) {
        let sim = hardenedWorld()
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: auth)
        let put = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", auth: auth, body: body)
        sim.run()
        return (sim, put)
    }

    /// The hub calls of creating the id; a refused PUT adds none.
    private let createOnly = ["GET registrations", "POST registrationids"]

    @Test(arguments: [("apns", "AB12CD34", "apple"), ("APNS", "AB12CD34", "apple"), ("fcm", "fcm-token-1", "fcmV1"),
                      ("gcm", "fcm-token-1", "fcmV1"), ("wns", "https://cloud.notify.windows.com/?token=AwYAAAD1", "windows")])
    func knownPlatformsAreRegisteredWithTheUserTag(platform: String, handle: String, hubPlatform: String) {
        let (sim, put) = put(registrationBody(platform: platform, handle: handle))
        #expect(put.status == 200)
        let upserted = sim.events("hub.registration-upserted")
        #expect(upserted.count == 1)
        // `gcm`, the old name, registers for FCM v1 (defect b fixed; GCM itself is retired).
        #expect(upserted.first?[.platform] == .string(hubPlatform))
        #expect(upserted.first?[.tags] == "username:alice")
    }

    @Test(arguments: [
        ("not JSON", "{\"Platform\": \"apns\","),
        ("empty", ""),
        ("a JSON string", "\"apns\""),
        ("a JSON array", "[]"),
        ("no Platform", registrationBody(platform: nil)),
        ("unknown Platform", registrationBody(platform: "baidu")),
        ("mpns", registrationBody(platform: "mpns", handle: "https://db3.notify.live.net/throttledthirdparty/01.00/AQF")),
        ("Platform not a string", #"{"Platform": 1, "Handle": "AB12CD34", "Tags": []}"#),
        ("no Handle", registrationBody(handle: nil)),
        ("empty Handle", registrationBody(handle: "")),
        ("Handle not a string", #"{"Platform": "apns", "Handle": 1234, "Tags": []}"#),
        ("APNs Handle not hex", registrationBody(handle: "XYZ123")),
        ("APNs Handle of odd length", registrationBody(handle: "ABC")),
        ("APNs Handle with a space", registrationBody(handle: "AB CD")),
        ("APNs Handle as description", registrationBody(handle: "<ab12cd34>")),
        ("Tags a string", #"{"Platform": "apns", "Handle": "AB12CD34", "Tags": "topic:news"}"#),
        ("Tags of numbers", #"{"Platform": "apns", "Handle": "AB12CD34", "Tags": [1]}"#),
        ("Tags with a null", #"{"Platform": "apns", "Handle": "AB12CD34", "Tags": ["topic:news", null]}"#),
        ("Tags an object", #"{"Platform": "apns", "Handle": "AB12CD34", "Tags": {"topic": "news"}}"#),
    ])
    func malformedBodyIs400AndNothingReachesTheHub(_ why: String, _ body: String) {
        let (sim, put) = put(body)
        #expect(put.status == 400, "\(why)")
        #expect(!errorText(put).isEmpty, "\(why)")
        #expect(sim.hardenedHubCalls == createOnly, "\(why)")
        #expect(sim.events("backend.exception").isEmpty, "\(why)")
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(errorText(put(registrationBody(platform: nil)).1).contains("Platform"))
        #expect(errorText(put(registrationBody(platform: "mpns", handle: "https://db3.notify.live.net/x")).1).contains("mpns"))
        #expect(errorText(put(registrationBody(platform: "baidu")).1).contains("baidu"))
        #expect(errorText(put(registrationBody(handle: nil)).1).contains("Handle"))
        #expect(errorText(put(#"{"Platform": "apns", "Handle": "AB12CD34", "Tags": [1]}"#).1).contains("Tags"))
    }

    @Test(arguments: [
        "http://cloud.notify.windows.com/?token=AwYAAAD1",              // not https
        "cloud.notify.windows.com/?token=AwYAAAD1",                     // not a URL
        "https://evil.example/?token=AwYAAAD1",                         // another host
        "https://evil.example/cloud.notify.windows.com",                // the name in the path
        "https://cloud.notify.windows.com.evil.example/?token=A",       // the name as a prefix
        "https://evilnotify.windows.com/?token=A",                      // not under notify.windows.com
        "https://evil.example#.notify.windows.com/?token=A",            // real host evil.example, the rest a fragment
        "https://evil.example\\.notify.windows.com/?token=A",           // `\` is `/` to WHATWG URL parsers
        "https://cloud.notify.windows.com@evil.example/?token=A",       // user info before the real host
    ])
    func wnsHandleMustBeAnHttpsChannelUnderNotifyWindowsCom(handle: String) {
        let (sim, put) = put(registrationBody(platform: "wns", handle: handle))
        #expect(put.status == 400, "\(handle)")
        #expect(sim.hardenedHubCalls == createOnly, "\(handle)")
    }

    @Test(arguments: ["https://cloud.notify.windows.com/?token=AwYAAAD1", "https://db5.notify.windows.com/?token=AwYAAAD1",
                      "https://notify.windows.com/?token=AwYAAAD1"])
    func wnsChannelsUnderNotifyWindowsComAreAccepted(handle: String) {
        let (_, put) = put(registrationBody(platform: "wns", handle: handle))
        #expect(put.status == 200, "\(handle)")
    }

    // MARK: Tags (defect i fixed)

    @Test func missingTagsAreNoTagsAndTheUserTagIsAdded() {
        // Not 500 as in the tutorial (defect f).
        let (sim, put) = put(registrationBody(tags: nil))
        #expect(put.status == 200)
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "username:alice")
    }

    @Test func ownUserTagAndTopicTagsAreAllowedAndTheUserTagIsKeptOnce() {
        let (sim, put) = put(registrationBody(tags: ["topic:news", "username:alice", "topic:sports", "topic:news"]))
        #expect(put.status == 200)
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "topic:news,topic:sports,username:alice")
        #expect(sim.events("backend.tag-refused").isEmpty)
    }

    @Test func userTagComesFromTheAccountNotTheBody() {
        let (sim, put) = put(registrationBody(tags: ["topic:news"]), as: bobLogin)
        #expect(put.status == 200)
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "topic:news,username:bob")
    }

    @Test(arguments: [["username:bob"], ["from:alice"], ["sports"], ["Username:alice"], ["username:alice2"], ["topic"],
                      ["topic:news", "username:bob"]])
    func anyOtherTagIs403AndNothingIsSentToTheHub(tags: [String]) {
        let (sim, put) = put(registrationBody(tags: tags))
        #expect(put.status == 403, "\(tags)")
        // Refused, not silently dropped, and not partly applied.
        #expect(sim.hardenedHubCalls == createOnly, "\(tags)")
        #expect(!sim.world.journal.requests(to: "hub").contains { $0.request.method == "PUT" }, "\(tags)")
        #expect(sim.hub.registrationCount == 0, "\(tags)")
        let refused = sim.events("backend.tag-refused")
        #expect(refused.count == 1)
        #expect(refused.first?[.tag] == .string(tags.last ?? ""))
        #expect(refused.first?[.user] == "alice")
        #expect(errorText(put).contains(tags.last ?? "?"))
    }

    // MARK: Hub errors (defect e fixed)

    @Test func hubGoneIsAnswered410() {
        let sim = hardenedWorld(registrationTimeToLive: .seconds(60))
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        let first = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody())
        let late = sim.hardened(at: t(300), "PUT", "/api/register/\(id.id)", body: registrationBody())
        sim.run()
        #expect(first.status == 200)
        #expect(sim.hubStatuses(by: .hardened).last == 410)
        #expect(sim.events("hub.registration-gone").count == 1)
        // The client learns the id is dead and can start over (the tutorial answered 500 or 200).
        #expect(late.status == 410)
        #expect(errorText(late).contains("gone"))
    }

    @Test func hubBadRequestIsAnswered400() {
        // An allowed prefix with a value the hub refuses (a space).
        let (sim, put) = put(registrationBody(tags: ["topic:has space"]))
        #expect(sim.hubStatuses(by: .hardened).last == 400)
        #expect(put.status == 400)
        #expect(sim.hub.registrationCount == 0)
        #expect(sim.events("backend.hub-error").count == 1)
    }

    @Test func updateReplacesTheTags() {
        let sim = hardenedWorld()
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        let a = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody(tags: ["topic:news"]))
        let b = sim.hardened(at: t(3), "PUT", "/api/register/\(id.id)", body: registrationBody(tags: []))
        sim.run()
        #expect(a.status == 200 && b.status == 200)
        #expect(sim.events("hub.registration-upserted").map { $0[.tags] } == ["topic:news,username:alice", "username:alice"])
        #expect(sim.hub.registrationCount == 1)
    }
}

/// Registration ownership on PUT: a user may not take over another user's registration by its id.
@Suite("Hardened backend: registration ownership")
struct HardenedOwnershipTests {
    @Test func anotherUsersRegistrationCannotBeOverwritten() {
        let sim = hardenedWorld()
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: bobLogin)
        let bobs = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", auth: bobLogin,
                                body: registrationBody(platform: "apns", handle: "AB12CD34"))
        // Alice knows Bob's id and tries to point it at her own device.
        let takeover = sim.hardened(at: t(3), "PUT", "/api/register/\(id.id)", auth: aliceLogin,
                                    body: registrationBody(platform: "apns", handle: "EE99EE99"))
        sim.run()
        #expect(bobs.status == 200)
        #expect(takeover.status == 403)
        #expect(errorText(takeover).contains("belongs to another user"))
        #expect(sim.events("hub.registration-upserted").count == 1)
        #expect(sim.hub.liveRegistrations(tag: "username:bob", now: sim.world.now) == 1)
    }

    @Test func anotherUserOnTheSameDeviceMayTakeTheRegistrationOver() {
        let sim = hardenedWorld()
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: bobLogin)
        _ = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", auth: bobLogin, body: registrationBody(platform: "apns", handle: "AB12CD34"))
        // Alice logs in on Bob's phone without Bob logging out: same handle, so it is her device now.
        let switched = sim.hardened(at: t(3), "PUT", "/api/register/\(id.id)", auth: aliceLogin,
                                    body: registrationBody(platform: "apns", handle: "ab12cd34"))
        sim.run()
        #expect(switched.status == 200)
        #expect(sim.hub.liveRegistrations(tag: "username:alice", now: sim.world.now) == 1)
        #expect(sim.hub.liveRegistrations(tag: "username:bob", now: sim.world.now) == 0)
    }

    @Test func handleThatCouldBreakTheHubFilterIs400() {
        let sim = hardenedWorld()
        let r = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB' or 1 eq 1 or 'x")], auth: bobLogin)
        sim.run()
        #expect(r.status == 400)
        #expect(sim.hardenedHubCalls.isEmpty)
    }
}

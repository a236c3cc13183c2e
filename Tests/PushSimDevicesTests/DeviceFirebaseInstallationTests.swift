import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// The Firebase installation ID (FID) an Android app has (issue 41 item 8): FID-shaped, kept as
/// long as the app's data, and a target FCM delivers to.
@Suite struct DeviceFirebaseInstallationTests {
    @Test func aFIDHasTheShapeFirebaseGivesIt() {
        let world = World(seed: 3)
        for n in 1...200 {
            let fid = FirebaseInstallationID.make(device: "ann-pixel", installation: n, world: world)
            #expect(fid.utf8.count == 22)
            #expect(["c", "d", "e", "f"].contains(fid.first))
            #expect(FirebaseInstallationID.hasShape(fid))
        }
        #expect(!FirebaseInstallationID.hasShape("not-a-fid"))
        #expect(!FirebaseInstallationID.hasShape("aQw4w9WgXcQ-Abcdefghij"))   // first character outside c–f
        #expect(!FirebaseInstallationID.hasShape("dQw4w9WgXcQ+Abcdefghij"))   // `+` is not base64url
    }

    /// Install, launch and refresh-handle keep the FID; clear-data and a reinstall make a new one;
    /// the same seed gives the same FIDs; iOS and Windows have none.
    @Test func anAndroidAppKeepsItsFIDAsLongAsItsData() {
        func run(seed: UInt64) -> [String?] {
            let sim = Simulation(seed: seed)
            let phone = sim.addDevice("ann-pixel", .android)
            var seen: [String?] = []
            sim.at(t(1), "install") { phone.install() }
            sim.at(t(2), "look") { seen.append(phone.firebaseInstallationID) }
            sim.at(t(3), "launch") { phone.launch() }
            sim.at(t(4), "refresh") { phone.refreshHandle() }
            sim.at(t(5), "look") { seen.append(phone.firebaseInstallationID) }
            sim.at(t(6), "clear data") { phone.clearData() }
            sim.at(t(7), "look") { seen.append(phone.firebaseInstallationID) }
            sim.at(t(8), "uninstall") { phone.uninstall() }
            sim.at(t(9), "look") { seen.append(phone.firebaseInstallationID) }
            sim.at(t(10), "install") { phone.install() }
            sim.at(t(11), "look") { seen.append(phone.firebaseInstallationID) }
            sim.run()
            return seen
        }
        let seen = run(seed: 7)
        #expect(seen.count == 5)
        #expect(seen[0] != nil && seen[0] == seen[1], "launch and refresh-handle keep it")
        #expect(seen[2] != nil && seen[2] != seen[1], "clear-data makes a new one")
        #expect(seen[3] == nil, "no app, no installation")
        #expect(seen[4] != nil && seen[4] != seen[2], "a reinstall makes a new one")
        #expect(run(seed: 7) == seen)
        #expect(run(seed: 8) != seen)

        let sim = Simulation(seed: 7)
        let iphone = sim.addDevice("bob-iphone", .ios), pc = sim.addDevice("dee-pc", .windows)
        sim.at(t(1), "install") { iphone.install(); pc.install() }
        sim.run()
        #expect(iphone.firebaseInstallationID == nil && pc.firebaseInstallationID == nil)
    }

    /// FCM learns the FID with the token request: a send to it is shown on the phone, also after
    /// the token was refreshed; after clear-data the old FID is refused once FCM learns the app
    /// instance is gone.
    @Test func fcmDeliversASendToThePhonesFID() throws {
        let sim = Simulation(seed: 2)
        let phone = sim.addDevice("ann-pixel", .android)
        sim.at(t(1), "install") { phone.install() }
        sim.at(t(2), "refresh") { phone.refreshHandle() }
        sim.run()
        let fid = try #require(phone.firebaseInstallationID)
        let server = FCMSender(sim)
        #expect(server.send(fid: fid, text: "Hello").status == 200)
        sim.run()
        #expect(phone.inbox.map(\.text) == ["Hello"])
        sim.at(sim.world.now + .seconds(1), "clear data") { phone.clearData() }
        sim.run()
        #expect(phone.firebaseInstallationID != fid)
        #expect(server.send(fid: fid, text: "Lost").status == 200)      // accepted; the phone refuses it
        sim.run()
        #expect(server.send(fid: fid, text: "Lost").status == 404)      // UNREGISTERED from then on
        #expect(phone.inbox.map(\.text) == ["Hello"])
    }
}

/// An app server sending straight to the simulation's FCM with its project's service account
/// (an OAuth token for a signed assertion first), as firebase-admin does.
struct FCMSender {
    let sim: Simulation
    let project: FCMProject
    private var accessToken = ""

    init(_ sim: Simulation) {
        self.sim = sim
        project = sim.fcm.projects[0]
        let now = sim.world.anchor.unixSeconds(sim.world.now)
        let assertion = JSONWebToken.make(
            header: ["alg": "RS256", "typ": "JWT"],
            claims: ["iss": .string(project.serviceAccount), "scope": "https://www.googleapis.com/auth/firebase.messaging",
                     "aud": "https://oauth2.googleapis.com/token", "iat": .number(JSONNumber(now)), "exp": .number(JSONNumber(now + 3_600))],
            signingKey: sim.identity.fcmServiceAccountKey)
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        let answer = call(HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token", body: Array(form.utf8)))
        accessToken = (try? JSONParser.parse(answer.body))?["access_token"]?.stringValue ?? ""
    }

    /// `{"message":{"fid":…,"notification":{"body":text}}}`, answered.
    func send(fid: String, text: String) -> HTTPResponse {
        let body = JSONValue.object([("message", .object([("fid", .string(fid)), ("notification", .object([("body", .string(text))]))]))])
        return call(HTTPRequest(method: "POST", authority: FCMService.apiHost, path: "/v1/projects/\(project.projectID)/messages:send",
                                headers: ["authorization": "Bearer " + accessToken, "content-type": "application/json"],
                                body: body.serializedBytes()))
    }

    private func call(_ request: HTTPRequest) -> HTTPResponse {
        var answer = HTTPResponse(status: 0)
        sim.world.call(request, from: "app-server") { answer = $0.response ?? HTTPResponse(status: 0) }
        sim.world.run()
        return answer
    }
}

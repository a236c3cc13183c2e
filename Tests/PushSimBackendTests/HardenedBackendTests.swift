import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimHub
import PushSimDevices
import PushSimScenario

/// Accounts with real passwords (not the tutorial's user = password), given explicitly.
let hardenedAccounts = ["alice": "wonderland", "bob": "builder"]
let aliceLogin = Credentials.basic("alice", "wonderland")
let bobLogin = Credentials.basic("bob", "builder")

/// A world whose devices default to the hardened backend. `accounts` nil: each device's user gets
/// an account whose password is the user name.
func hardenedWorld(accounts: [String: String]? = hardenedAccounts, registrationTimeToLive: VirtualDuration? = nil) -> Simulation {
    var options = Simulation.Options()
    options.backend = .hardened
    options.accounts = accounts
    options.registrationTimeToLive = registrationTimeToLive
    return Simulation(seed: 1, options: options)
}

extension Simulation {
    /// One request to the hardened backend, as alice with her real password unless told.
    @discardableResult
    func hardened(at time: VirtualTime, _ method: String, _ path: @escaping @autoclosure () -> String,
                  query: [(String, String)] = [], auth: Credentials = aliceLogin,
                  body: @escaping @autoclosure () -> String = "") -> Answer {
        request(at: time, method, path(), query: query, auth: auth, body: body(), to: .hardened)
    }

    /// Requests the hardened backend made to the hub, as `METHOD path`.
    var hardenedHubCalls: [String] { hubCalls(by: .hardened) }
}

/// The `"error"` text of a hardened backend's JSON error body, or "".
func errorText(_ answer: Answer) -> String {
    (try? JSONParser.parse(Array(answer.body.utf8)))?["error"]?.stringValue ?? ""
}

/// The hardened backend's front door: accounts, the 401 challenge, body size and routes.
@Suite("Hardened backend: authentication and routes")
struct HardenedBackendTests {
    @Test func missingAuthorizationIs401WithABasicChallenge() {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: .none)
        sim.run()
        // Not 500 (defect c), not 403: the client is told to authenticate, and how.
        #expect(answer.status == 401)
        #expect(answer.result?.response?.headers["WWW-Authenticate"] == #"Basic realm="PushSim""#)
        #expect(!errorText(answer).isEmpty)
        #expect(sim.events("backend.auth-refused").map(\.host) == [HardenedBackend.name])
        #expect(sim.events("backend.auth-refused").first?[.status] == 401)
        #expect(sim.events("backend.exception").isEmpty)
        #expect(sim.hardenedHubCalls.isEmpty)
    }

    @Test(arguments: [
        ("not Basic", Credentials.header("Bearer " + Base64.encode(Array("alice:wonderland".utf8)))),
        ("bad base64", .header("Basic !!not*base64!!")),
        ("no colon", .header("Basic " + Base64.encode(Array("alice".utf8)))),
        ("unknown user", .basic("mallory", "wonderland")),
        ("wrong password", .basic("alice", "alice")),
        ("password of another user", .basic("alice", "builder")),
        ("empty user and password", .basic("", "")),
    ])
    func refusedCredentialsAre401(_ why: String, _ credentials: Credentials) {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: credentials)
        sim.run()
        #expect(answer.status == 401, "\(why)")
        #expect(answer.result?.response?.headers["WWW-Authenticate"] == #"Basic realm="PushSim""#, "\(why)")
        #expect(sim.hardenedHubCalls.isEmpty, "\(why)")
    }

    @Test func rightPasswordPasses() {
        let sim = hardenedWorld()
        let alice = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: aliceLogin)
        let bob = sim.hardened(at: t(2), "POST", "/api/register", query: [("handle", "CD34EF56")], auth: bobLogin)
        // The scheme name is case-insensitive (RFC 7235).
        let shouting = sim.hardened(at: t(3), "POST", "/api/register", query: [("handle", "EF56AB12")],
                                    auth: .header("BASIC " + Base64.encode(Array("alice:wonderland".utf8))))
        sim.run()
        #expect([alice.status, bob.status, shouting.status] == [200, 200, 200])
        #expect(sim.events("backend.auth-refused").isEmpty)
    }

    @Test func passwordMayContainAColon() {
        // Only the first colon separates user from password.
        let sim = hardenedWorld(accounts: ["carol": "a:b:c"])
        let right = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12")], auth: .basic("carol", "a:b:c"))
        let wrong = sim.hardened(at: t(2), "POST", "/api/register", query: [("handle", "AB12")], auth: .basic("carol", "a"))
        sim.run()
        #expect(right.status == 200)
        #expect(wrong.status == 401)
    }

    @Test func explicitAccountsAreTheOnlyAccounts() {
        let sim = hardenedWorld()
        sim.addDevice("carol-iphone", .ios, user: "carol")
        let carol = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12")], auth: .user("carol"))
        sim.run()
        #expect(sim.hardenedBackend.accounts == hardenedAccounts)
        #expect(carol.status == 401)
    }

    @Test func withoutExplicitAccountsEachDeviceUserHasTheirNameAsPassword() {
        let sim = hardenedWorld(accounts: nil)
        let bobPhone = sim.addDevice("bob-iphone", .ios, user: "bob")
        sim.addDevice("carol-pixel", .android, user: "carol", backend: .tutorial)
        sim.addDevice("nobody-pc", .windows)
        installAndLogIn(sim, bobPhone, as: "bob", at: t(1))
        let bob = sim.hardened(at: t(10), "POST", "/api/register", query: [("handle", "AB12")], auth: .user("bob"))
        let bobWrong = sim.hardened(at: t(10), "POST", "/api/register", query: [("handle", "AB12")], auth: .basic("bob", "builder"))
        let dave = sim.hardened(at: t(10), "POST", "/api/register", query: [("handle", "AB12")], auth: .user("dave"))
        sim.run()
        // Every device user gets an account, whichever backend the device uses; devices without a user none.
        #expect(sim.hardenedBackend.accounts == ["bob": "bob", "carol": "carol"])
        #expect(bob.status == 200)
        #expect(bobWrong.status == 401)
        #expect(dave.status == 401)
        // The app on bob's phone logs in with bob/bob and registers through the hardened backend.
        #expect(bobPhone.calls.map(\.operation) == [.createID, .register])
        #expect(bobPhone.calls.map(\.status) == [200, 200])
        #expect(sim.events("hub.registration-upserted").first?[.tags] == "username:bob")
    }

    @Test func bodyOver64KBIs413() {
        let sim = hardenedWorld()
        let json = registrationBody(handle: "AB12CD34")
        let padding = { (n: Int) in json + String(repeating: " ", count: n - json.utf8.count) }
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        let atLimit = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", body: padding(HardenedBackend.maxBody))
        let over = sim.hardened(at: t(3), "PUT", "/api/register/\(id.id)", body: padding(HardenedBackend.maxBody + 1))
        sim.run()
        #expect(HardenedBackend.maxBody == 65_536)
        #expect(atLimit.status == 200)
        #expect(over.status == 413)
        #expect(sim.hardenedHubCalls == ["GET registrations", "POST registrationids", "GET registrations/76592028274533430-4765052952699024478-2", "PUT registrations/76592028274533430-4765052952699024478-2"])
    }

    @Test(arguments: [("GET", "/api/register"), ("POST", "/app/register"), ("POST", "/register"), ("PATCH", "/api/register/x"),
                      ("POST", "/api/notifications/x"), ("GET", "/api/register/76592028274533430-4765052952699024478-2/tags"), ("POST", "/")])
    func unknownRouteIs404(method: String, path: String) {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), method, path, query: [("handle", "AB12")])
        let anonymous = sim.hardened(at: t(2), method, path, query: [("handle", "AB12")], auth: .none)
        sim.run()
        #expect(answer.status == 404)
        #expect(!errorText(answer).isEmpty)
        // Authentication comes first: routes are not revealed to strangers.
        #expect(anonymous.status == 401)
        #expect(sim.hardenedHubCalls.isEmpty)
    }

    // MARK: POST /api/register

    @Test(arguments: [[], [("handle", "")]])
    func createWithoutAHandleIs400(query: [(String, String)]) {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/register", query: query)
        sim.run()
        #expect(answer.status == 400)
        #expect(errorText(answer).contains("handle"))
        #expect(sim.hardenedHubCalls.isEmpty)
    }

    @Test func createWithAnUnknownHandleSearchesThenCreatesAnIdAnsweredAsAJSONString() {
        let sim = hardenedWorld()
        let answer = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        sim.run()
        #expect(answer.status == 200)
        #expect(answer.body == "\"76592028274533430-4765052952699024478-2\"")
        #expect(answer.result?.response?.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(sim.hardenedHubCalls == ["GET registrations", "POST registrationids"])
        #expect(sim.world.journal.requests(to: "hub").first?.request.queryValue("$filter") == "ChannelUri eq 'AB12CD34'")
    }

    @Test func createReusesTheFirstRegistrationForTheHandleAndDeletesTheOthers() {
        let sim = hardenedWorld()
        let first = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        let second = sim.hardened(at: t(2), "POST", "/api/register", query: [("handle", "AB12CD34")])
        let put1 = sim.hardened(at: t(3), "PUT", "/api/register/\(first.id)", body: registrationBody(handle: "AB12CD34"))
        let put2 = sim.hardened(at: t(4), "PUT", "/api/register/\(second.id)", body: registrationBody(handle: "AB12CD34"))
        let again = sim.hardened(at: t(5), "POST", "/api/register", query: [("handle", "AB12CD34")])
        sim.run()
        #expect(put1.status == 200 && put2.status == 200)
        #expect(first.id == "76592028274533430-4765052952699024478-2" && second.id == "4717660804047016587-3598050953566156631-1")
        #expect(again.status == 200)
        #expect(again.body == "\"76592028274533430-4765052952699024478-2\"")
        #expect(Array(sim.hardenedHubCalls.suffix(2)) == ["GET registrations", "DELETE registrations/4717660804047016587-3598050953566156631-1"])
        #expect(sim.hub.registrationCount == 1)
        #expect(sim.events("hub.registration-id-created").count == 2)
    }

    /// A handle that piled up more registrations than one page holds (150 registers of one device
    /// at the same instant each find none and take a new id): the hardened backend follows the
    /// hub's continuation token and deletes every duplicate, on every page. It read only the
    /// first 100 before, and 50 duplicates stayed.
    @Test func createDeletesDuplicatesOnEveryPageOfTheHandle() {
        let sim = hardenedWorld()
        let handle = "AB12CD34"
        let ids = (1...150).map { _ in sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", handle)]) }
        let puts = ids.map { id in sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody(handle: handle)) }
        let again = sim.hardened(at: t(3), "POST", "/api/register", query: [("handle", handle)])
        sim.run()
        #expect(Set(ids.map(\.id)).count == 150)
        #expect(puts.allSatisfy { $0.status == 200 })
        #expect(sim.hub.registrationCount == 1)
        #expect(again.status == 200)
        #expect(again.body == "\"76592028274533430-4765052952699024478-2\"")
        let cleanUp = sim.hardenedHubCalls.suffix(151)
        #expect(cleanUp.filter { $0 == "GET registrations" }.count == 2)
        #expect(cleanUp.filter { $0.hasPrefix("DELETE registrations/") }.count == 149)
        #expect(!cleanUp.contains("DELETE registrations/76592028274533430-4765052952699024478-2"))
    }

    /// The registrations the hub shows for an installation on the same handle belong to it: the
    /// hardened backend neither hands one out as the device's nor deletes it (the hub refuses
    /// both through the registration API). Before, it handed out the installation's registration
    /// id, which the device's next PUT could never use.
    @Test func createLeavesAnInstallationsRegistrationsAlone() throws {
        let sim = hardenedWorld()
        let handle = "AB12CD34"
        let client = try #require(NotificationHubClient(connectionString: sim.hubConnectionString, hubPath: sim.hub.configuration.hubName,
                                                        world: sim.world, caller: "tester"))
        sim.at(t(1), "installation") {
            client.createOrUpdateInstallation(Installation(installationID: "i", platform: .apple, pushChannel: handle)) { _ in }
        }
        let first = sim.hardened(at: t(2), "POST", "/api/register", query: [("handle", handle)])
        let put = sim.hardened(at: t(3), "PUT", "/api/register/\(first.id)", body: registrationBody(handle: handle))
        let again = sim.hardened(at: t(4), "POST", "/api/register", query: [("handle", handle)])
        sim.run()
        #expect(sim.hub.installationCount == 1)
        #expect(first.status == 200)
        #expect(first.body == "\"4717660804047016587-3598050953566156631-1\"")   // 76592028274533430-4765052952699024478-2 is the installation's
        #expect(put.status == 200)
        #expect(again.body == "\"4717660804047016587-3598050953566156631-1\"")
        #expect(!sim.hardenedHubCalls.contains { $0.hasPrefix("DELETE") })
    }

    // MARK: DELETE /api/register/<id>

    @Test func ownerDeletesTheirRegistration() {
        let sim = hardenedWorld()
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        let put = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody())
        let delete = sim.hardened(at: t(3), "DELETE", "/api/register/\(id.id)")
        sim.run()
        #expect(put.status == 200)
        #expect(delete.status == 200)
        #expect(sim.hub.registrationCount == 0)
        #expect(Array(sim.hardenedHubCalls.suffix(2)) == ["GET registrations/76592028274533430-4765052952699024478-2", "DELETE registrations/76592028274533430-4765052952699024478-2"])
    }

    @Test func deletingAnotherUsersRegistrationIs403AndItStays() {
        let sim = hardenedWorld()
        let id = sim.hardened(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")], auth: bobLogin)
        let put = sim.hardened(at: t(2), "PUT", "/api/register/\(id.id)", auth: bobLogin, body: registrationBody())
        let delete = sim.hardened(at: t(3), "DELETE", "/api/register/\(id.id)", auth: aliceLogin)
        sim.run()
        #expect(put.status == 200)
        #expect(delete.status == 403)
        #expect(sim.hub.registrationCount == 1)
        #expect(!sim.hardenedHubCalls.contains { $0.hasPrefix("DELETE") })
    }

    @Test func deletingAnUnknownIdIs404() {
        let sim = hardenedWorld()
        let delete = sim.hardened(at: t(1), "DELETE", "/api/register/reg-999999")
        sim.run()
        // Not 500 as in the tutorial: the hub's 404 is the client's answer.
        #expect(delete.status == 404)
        #expect(sim.hardenedHubCalls == ["GET registrations/reg-999999"])
        #expect(sim.events("backend.exception").isEmpty)
    }
}

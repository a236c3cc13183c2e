import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimScenario

/// `POST /api/register?handle=` and `DELETE /api/register/<id>` of the tutorial's RegisterController.
@Suite("Tutorial backend: create id and delete")
struct RegisterControllerTests {
    @Test func postWithoutHandleCreatesAnIdAnsweredAsAJSONString() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register")
        sim.run()
        #expect(answer.status == 200)
        // Web API serialises the returned string: quoted.
        #expect(answer.body == "\"76592028274533430-4765052952699024478-2\"")
        #expect(answer.result?.response?.headers["Content-Type"]?.hasPrefix("application/json") == true)
        // No handle: the hub is not searched.
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func postWithAnUnknownHandleSearchesThenCreates() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", query: [("handle", "AB12CD34")])
        sim.run()
        #expect(answer.id == "76592028274533430-4765052952699024478-2")
        #expect(sim.hubCalls == ["GET registrations", "POST registrationids"])
        let search = sim.world.journal.requests(to: "hub").first?.request
        #expect(search?.queryValue("$filter") == "ChannelUri eq 'AB12CD34'")
        #expect(search?.queryValue("$top") == "100")
    }

    @Test func postReusesTheFirstRegistrationForTheHandleAndDeletesTheOthers() {
        let sim = Simulation(seed: 1)
        // Two registrations with the same handle (the hub allows duplicates).
        let first = sim.request(at: t(1), "POST", "/api/register")
        let second = sim.request(at: t(2), "POST", "/api/register")
        let put1 = sim.request(at: t(3), "PUT", "/api/register/\(first.id)", body: registrationBody(handle: "AB12CD34"))
        let put2 = sim.request(at: t(4), "PUT", "/api/register/\(second.id)", body: registrationBody(handle: "AB12CD34"))
        let again = sim.request(at: t(5), "POST", "/api/register", query: [("handle", "AB12CD34")])
        sim.run()
        #expect(put1.status == 200 && put2.status == 200)
        #expect(first.id == "76592028274533430-4765052952699024478-2" && second.id == "4717660804047016587-3598050953566156631-1")
        #expect(again.status == 200)
        #expect(again.id == "76592028274533430-4765052952699024478-2")
        // Search, delete the second, and no new id.
        #expect(Array(sim.hubCalls.suffix(2)) == ["GET registrations", "DELETE registrations/4717660804047016587-3598050953566156631-1"])
        #expect(sim.hub.registrationCount == 1)
        #expect(sim.events("hub.registration-id-created").count == 2)
    }

    @Test func deleteAnswers200AndRemovesTheRegistration() {
        let sim = Simulation(seed: 1)
        let id = sim.request(at: t(1), "POST", "/api/register")
        let put = sim.request(at: t(2), "PUT", "/api/register/\(id.id)", body: registrationBody())
        let delete = sim.request(at: t(3), "DELETE", "/api/register/\(id.id)")
        sim.run()
        #expect(put.status == 200)
        #expect(delete.status == 200)
        #expect(sim.hub.registrationCount == 0)
        #expect(sim.hubCalls.last == "DELETE registrations/76592028274533430-4765052952699024478-2")
    }

    @Test func deleteOfAnUnknownIdIs500() {
        let sim = Simulation(seed: 1)
        let delete = sim.request(at: t(1), "DELETE", "/api/register/reg-999999")
        sim.run()
        // The hub's 404 surfaces as MessagingEntityNotFoundException, unhandled.
        #expect(sim.hubStatuses == [404])
        #expect(delete.status == 500)
        #expect(sim.events("backend.exception").first?[.exception]?.description.hasPrefix("MessagingEntityNotFoundException") == true)
    }

    @Test(arguments: [("GET", "/api/register"), ("POST", "/app/register"), ("POST", "/register")])
    func unknownRouteIs404(method: String, path: String) {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), method, path)
        sim.run()
        #expect(answer.status == 404)
        #expect(sim.hubCalls.isEmpty)
    }
}

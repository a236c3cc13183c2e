import Testing
import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimScenario

/// The tutorial's `AuthenticationTestHandler`, request by request: every case is a
/// `POST /api/register` (no handle), which reaches the hub only when the handler lets it through.
@Suite("Tutorial backend: AuthenticationTestHandler")
struct AuthenticationTests {
    @Test func missingAuthorizationHeaderThrowsAnd500s() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .none)
        sim.run()
        // `GetValues("Authorization").First()` throws: 500, not 401 (defect c).
        #expect(answer.status == 500)
        #expect(answer.body == #"{"Message":"An error has occurred."}"#)
        let exception = sim.events("backend.exception")
        #expect(exception.count == 1)
        #expect(exception.first?[.defect] == "c")
        #expect(sim.hubCalls.isEmpty)
    }

    @Test func nonBasicSchemeIsForbidden() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .header("Bearer YWxpY2U6YWxpY2U="))
        sim.run()
        #expect(answer.status == 403)
        #expect(sim.events("backend.auth-refused").count == 1)
        #expect(sim.hubCalls.isEmpty)
    }

    @Test func schemeIsMatchedIgnoringCase() {
        // `StartsWith("Basic ", InvariantCultureIgnoreCase)`.
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register",
                                 auth: .header("bASIC " + Base64.encode(Array("alice:alice".utf8))))
        sim.run()
        #expect(answer.status == 200)
    }

    @Test func badBase64Is500() {
        // `Convert.FromBase64String` throws FormatException.
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .header("Basic !!not*base64!!"))
        sim.run()
        #expect(answer.status == 500)
        #expect(sim.events("backend.exception").first?[.exception]?.description.hasPrefix("FormatException") == true)
        #expect(sim.hubCalls.isEmpty)
    }

    @Test func credentialsWithoutColonAre500() {
        // `Split(':')[1]` throws IndexOutOfRangeException.
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .header("Basic " + Base64.encode(Array("alice".utf8))))
        sim.run()
        #expect(answer.status == 500)
        #expect(sim.events("backend.exception").first?[.exception]?.description.hasPrefix("IndexOutOfRange") == true)
        #expect(sim.hubCalls.isEmpty)
    }

    @Test func userDifferentFromPasswordIsForbidden() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .basic("alice", "secret"))
        sim.run()
        #expect(answer.status == 403)
        #expect(sim.hubCalls.isEmpty)
    }

    @Test func userEqualToPasswordPasses() {
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .basic("alice", "alice"))
        sim.run()
        #expect(answer.status == 200)
        #expect(sim.hubCalls == ["POST registrationids"])
    }

    @Test func onlyTheFirstTwoColonPartsAreCompared() {
        // "alice:alice:extra".Split(':') gives user "alice" and password "alice": accepted.
        let sim = Simulation(seed: 1)
        let accepted = sim.request(at: t(1), "POST", "/api/register", auth: .basic("alice", "alice:extra"))
        let refused = sim.request(at: t(2), "POST", "/api/register", auth: .basic("alice", "extra:alice"))
        sim.run()
        #expect(accepted.status == 200)
        #expect(refused.status == 403)
    }

    @Test func emptyUserAndPasswordPass() {
        // ":" splits into "" and "": equal, so the stand-in check lets an anonymous user in.
        let sim = Simulation(seed: 1)
        let answer = sim.request(at: t(1), "POST", "/api/register", auth: .basic("", ""))
        sim.run()
        #expect(answer.status == 200)
    }
}

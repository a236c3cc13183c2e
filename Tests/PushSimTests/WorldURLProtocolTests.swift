import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import PushSim

/// Unmodified URLSession code reaches the world's hosts in process (WorldURLProtocol).
@Suite("URLSession into the world")
struct WorldURLProtocolTests {
    @Test func urlSessionCodeTalksToTheTutorialBackendAndTheHub() async throws {
        let simulation = Simulation(seed: 3)
        let session = URLSession(configuration: simulation.urlSessionConfiguration())
        var register = URLRequest(url: URL(string: "https://\(TutorialBackend.publicHost)/api/register?handle=ABCD")!)
        register.httpMethod = "POST"
        register.setValue("Basic " + Data("bob:bob".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        let (data, response) = try await session.data(for: register)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "\"76592028274533430-4765052952699024478-2\"")
        // The hub refuses a request without a SAS token, as the real one does.
        var list = URLRequest(url: URL(string: "https://\(simulation.hub.configuration.host)/\(simulation.hubPath)/registrations/?api-version=2015-01")!)
        list.httpMethod = "GET"
        let (_, listed) = try await session.data(for: list)
        #expect((listed as? HTTPURLResponse)?.statusCode == 401)
        // Both went through the world: virtual time moved by their latency, and the trace shows them.
        #expect(simulation.world.now > .zero)
        #expect(simulation.world.trace.events.filter { $0.kind.name == "http.request" && $0.host == "urlsession" }.count == 2)
    }

    @Test func sessionsOfTwoWorldsEachReachTheirOwn() async throws {
        let first = Simulation(seed: 1), second = Simulation(seed: 2)
        let sessions = [URLSession(configuration: first.urlSessionConfiguration()), URLSession(configuration: second.urlSessionConfiguration())]
        var request = URLRequest(url: URL(string: "https://\(TutorialBackend.publicHost)/api/register?handle=AB")!)
        request.httpMethod = "POST"
        request.setValue("Basic " + Data("bob:bob".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        _ = try await sessions[0].data(for: request)
        _ = try await sessions[0].data(for: request)
        _ = try await sessions[1].data(for: request)
        #expect(first.world.trace.events.filter { $0.kind.name == "http.request" && $0.host == "urlsession" }.count == 2)
        #expect(second.world.trace.events.filter { $0.kind.name == "http.request" && $0.host == "urlsession" }.count == 1)
    }

    /// A host that answers with the path and query it was sent, as its body.
    final class PathEcho: WorldHost {
        func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            world.respond(to: exchange, with: HTTPResponse(status: 200, text: request.path + "|" + query))
        }
    }

    /// The path reaches the world as sent, percent escapes and all (an id holding `/` or a space
    /// is one path segment), as it does through `pushsim serve`; query values arrive decoded.
    /// Before the fix, Foundation's decoded `url.path` turned `a%2Fb` into two segments.
    @Test func pathsReachTheWorldEncodedAsSent() async throws {
        let simulation = Simulation(seed: 3)
        simulation.addBackend(PathEcho(), name: "echo")
        let session = URLSession(configuration: simulation.urlSessionConfiguration())
        let (data, _) = try await session.data(from: URL(string: "https://echo/registrations/a%2Fb%20c?tag=x%26y")!)
        #expect(String(decoding: data, as: UTF8.self) == "/registrations/a%2Fb%20c|tag=x&y")
    }

    @Test func aHostTheWorldDoesNotHaveIsNotFound() async throws {
        let simulation = Simulation(seed: 3)
        let session = URLSession(configuration: simulation.urlSessionConfiguration())
        do {
            _ = try await session.data(from: URL(string: "https://example.com/")!)
            Issue.record("a host outside the world answered")
        } catch let error as URLError {
            #expect(error.code == .cannotFindHost)
        }
    }
}

import PushSimKernel
import PushSimNetwork
import PushSimScenario

/// A user's own backend as a host of the world (`backend external "http://127.0.0.1:8080"`):
/// the phones' requests to it are forwarded over loopback HTTP by ``ScenarioLoopback``, and the
/// backend's answers come back as this host's responses.
///
/// The request goes out as the phone sent it (method, path and query, header fields, body), with
/// the address's base path in front, `Host: <host>:<port>` and `Connection: close`. The answer
/// comes back with its status, header fields and body; the framing fields and `Date` and `Server`
/// (the wall clock and the backend's version) stay at the boundary so that the world sees only
/// what the backend decided. When there is no answer, the phone's call fails as a phone's would:
/// `host unreachable` (nothing listens, the connection broke, the answer was not HTTP) or
/// `timed out` (no answer within the loopback's wall-clock timeout); the trace says why
/// (`external.failed`).
final class ExternalBackendHost: PushSimNetwork.Host {
    let address: ExternalBackendAddress
    let loopback: ScenarioLoopback

    init(address: ExternalBackendAddress, loopback: ScenarioLoopback) {
        self.address = address
        self.loopback = loopback
    }

    static let boundaryFields = ["Date", "Server", "Connection", "Keep-Alive", "Content-Length", "Transfer-Encoding"]

    func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        let me = world.primaryName(request.authority) ?? request.authority
        switch loopback.forward(request, to: address, caller: me, world: world) {
        case .success(let answer):
            let kept = answer.headers.fields.filter { field in !Self.boundaryFields.contains { sameFieldName($0, field.name) } }
            world.respond(to: exchange, with: HTTPResponse(status: answer.status, headers: HTTPHeaders(kept.map { ($0.name, $0.value) }),
                                                           body: answer.body))
        case .failure(let failure):
            let (transport, reason): (TransportFailure, String) = switch failure {
            case .timedOut: (.timedOut, "no answer within \(loopback.timeoutSeconds) s (wall clock)")
            case .unreachable(let why): (.unreachable, "cannot reach \(address): \(why)")
            case .malformed(let why): (.unreachable, "the answer is not HTTP: \(why)")
            }
            world.record(layer: "backend", host: me, kind: .externalFailed, [.address: "\(address)", .reason: .string(reason)])
            world.fail(exchange, with: transport)
        }
    }
}

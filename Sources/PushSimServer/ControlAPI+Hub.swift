import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario

extension ControlAPI {
    /// The hub's registrations, read as a client would: `GET /{hub}/registrations` with a
    /// full-rights SAS token, from the in-world host `pushsim-control` (so the read is in the
    /// journal and the trace like any other call), the Atom feed turned into JSON.
    func registrations(top: Int) -> HTTPResponse {
        let hub = state.simulation.hub
        let configuration = hub.configuration
        guard let rule = configuration.accessRules.first(where: { $0.rights.contains(.manage) }) else {
            return ServerAnswer.error(500, "The hub has no access rule with the Manage claim to read registrations with.")
        }
        let world = state.world
        let resource = "https://\(configuration.host)/\(configuration.hubName)"
        let sas = SharedAccessSignature.token(resource: resource, keyName: rule.keyName, key: rule.key,
                                              expiresAtUnixSeconds: world.anchor.unixSeconds(world.now) + 3_600)
        let request = HTTPRequest(method: "GET", authority: configuration.host, path: "/\(configuration.hubName)/registrations",
                                  query: [("api-version", NotificationHub.apiVersion), ("$top", String(max(1, min(top, 1_000))))],
                                  headers: HTTPHeaders("Authorization", sas))
        let response = state.call(request, from: WorldState.controlName)
        guard response.status == 200 else { return response }
        guard let feed = AtomRegistration.parseFeed(response.body) else {
            return ServerAnswer.error(502, "The hub answered a registration feed that could not be read.")
        }
        return ServerAnswer.json(200, .object([
            "count": .number(JSONNumber(Int64(feed.count))),
            "registrations": .array(feed.map { r in
                .object([
                    "registrationId": r.registrationID.map { .string($0) } ?? .null,
                    "platform": .string(r.platform.rawValue),
                    "handle": .string(r.handle),
                    "tags": .array(r.tags.map { .string($0) }),
                    "expirationTime": r.expirationTime.map { .string($0) } ?? .null,
                    "etag": r.etag.map { .string($0) } ?? .null,
                    "template": .bool(r.template != nil),
                ])
            }),
        ]))
    }
}

/// The world's request journal as JSON, from entry `since` on: who called whom, what, when, and
/// the outcome (bodies are left out; the `--record` file has the wire's).
enum ControlJournal {
    static let pageSize = 1_000

    static func json(_ world: World, since: Int) -> JSONValue {
        let entries = world.journal.entries
        let start = min(since, entries.count)
        let end = min(entries.count, start + pageSize)
        return .object([
            "total": .number(JSONNumber(Int64(entries.count))),
            "since": .number(JSONNumber(Int64(start))),
            "next": .number(JSONNumber(Int64(end))),
            "entries": .array((start..<end).map { i in
                let e = entries[i]
                var members: [(String, JSONValue)] = [
                    ("index", .number(JSONNumber(Int64(i)))),
                    ("sentAt", .string(e.sentAt.description)),
                    ("correlation", .string(e.correlation)),
                    ("from", .string(e.from)), ("to", .string(e.to)),
                    ("method", .string(e.request.method)),
                    ("url", .string("https://\(e.request.authority)\(e.request.target)")),
                    ("requestBytes", .number(JSONNumber(Int64(e.request.body.count)))),
                ]
                switch e.result {
                case .response(let r)?: members.append(("status", .number(JSONNumber(Int64(r.status)))))
                case .failure(let f)?: members.append(("failure", .string(f.rawValue)))
                case nil: members.append(("inFlight", .bool(true)))
                }
                if let t = e.completedAt { members.append(("completedAt", .string(t.description))) }
                return .object(members)
            }),
        ])
    }
}

import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario

extension ControlAPI {
    /// The hub's registrations, read as a client would: `GET /{hub}/registrations` with a
    /// full-rights SAS token, from the in-world host `pushsim-control` (so the read is in the
    /// journal and the trace like any other call), the Atom feed turned into JSON.
    func registrations(top: Int) -> Outcome {
        let hub = state.simulation.hub
        let configuration = hub.configuration
        guard let rule = configuration.accessRules.first(where: { $0.rights.contains(.manage) }) else {
            return .answer(ServerAnswer.error(500, "The hub has no access rule with the Manage claim to read registrations with."))
        }
        let world = state.world
        let resource = "https://\(configuration.host)/\(configuration.hubName)"
        let sas = SharedAccessSignature.token(resource: resource, keyName: rule.keyName, key: rule.key,
                                              expiresAtUnixSeconds: world.anchor.unixSeconds(world.now) + 3_600)
        let request = HTTPRequest(method: "GET", authority: configuration.host, path: "/\(configuration.hubName)/registrations",
                                  query: [("api-version", NotificationHub.apiVersion), ("$top", String(max(1, min(top, 1_000))))],
                                  headers: HTTPHeaders("Authorization", sas))
        return state.call(request, from: WorldState.controlName, transform: Self.registrationsJSON)
    }

    /// `{"subject","vapidPublicKey"}`: the public half of the hub's browser credential (NH-BROWSER),
    /// the key a page subscribes with so that the hub's Web Push requests are accepted for its
    /// subscription; 404 when the hub has none. The private key stays in the world.
    func hubBrowserCredentialAnswer() -> HTTPResponse {
        guard let credential = state.simulation.hub.configuration.browser else {
            return ServerAnswer.error(404, "The hub has no browser credential.")
        }
        return ServerAnswer.json(200, .object(["subject": .string(credential.subject), "vapidPublicKey": .string(credential.vapidPublicKey)]))
    }

    /// `{"key":"<policy name>","policies":[…]}`: the policy whose key the world's backends sign
    /// their hub calls with, and every policy the hub has.
    func hubKeyJSON() -> JSONValue {
        let rules = state.simulation.hub.configuration.accessRules
        return .object([
            "key": .string(state.simulation.backendHubKeyName),
            "policies": .array(rules.map { .object(["name": .string($0.keyName), "rights": .array($0.rights.map { .string($0.rawValue) })]) }),
        ])
    }

    /// `POST /_pushsim/hub/key {"key":"full"|"listen"|"<policy name>"}`: the world's backends (the
    /// tutorial's and the hardened one) call the hub from now on with that policy's key, as a
    /// backend deployed with the Listen connection string by mistake would; the hub then refuses
    /// what the key lacks the claim for (a send: 401 `Send claim is required for this operation.`,
    /// NH-SEC). `full` and `listen` name the hub's two default policies. A reset builds the world
    /// again with the key it started with: the full one, or the served scenario's `backend key`.
    func useHubKey(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        let names = state.simulation.hub.configuration.accessRules.map(\.keyName)
        let say = #"Say which key: {"key":"full"}, {"key":"listen"} or {"key":"<policy>"}, a policy of the hub: "# + names.joined(separator: ", ") + "."
        guard let text = body["key"]?.stringValue else { return ServerAnswer.error(400, say) }
        let keyName = ["full": "DefaultFullSharedAccessSignature", "listen": "DefaultListenSharedAccessSignature"][text] ?? text
        guard state.simulation.useBackendHubKey(keyName: keyName) else {
            return ServerAnswer.error(400, "The hub has no policy '\(text)'. " + say)
        }
        return ServerAnswer.json(200, hubKeyJSON())
    }

    /// The hub's Atom feed of registrations as the control API's JSON (other answers as they are).
    private static func registrationsJSON(_ response: HTTPResponse) -> HTTPResponse {
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

/// The world's request journal as JSON: who called whom, what, when, and the outcome (bodies are
/// left out; the `--record` file has the wire's), in pages of at most ``pageSize`` entries.
///
/// Query: `since=n` (the first journal number to look at), `host=` (caller or callee, by primary
/// name), `path=` (a prefix of the request's path), `status=` (a status code, or `failure` for a
/// transport failure), `from=` and `to=` (virtual times since zero: sent at or after `from`,
/// before `to`). The answer says `total` (calls since the world began), `dropped` (the oldest,
/// no longer kept: see ``ServeRetention``), `matched` (kept calls the filters keep, from `since`
/// on), and `next` (where the next page starts).
struct ControlJournal {
    static let pageSize = 1_000

    var since = 0
    var host: String?
    var pathPrefix: String?
    var status: String?
    var from: VirtualTime?
    var to: VirtualTime?

    /// The filters of a query, or the 400 saying which one cannot be read.
    static func parse(_ value: (String) -> String?) -> Result<ControlJournal, ControlRefusal> {
        var filter = ControlJournal()
        if let text = value("since") {
            guard let n = Int(text), n >= 0 else { return .failure(refusal("since", text, "a journal number from 0")) }
            filter.since = n
        }
        filter.host = value("host")
        filter.pathPrefix = value("path")
        if let text = value("status") {
            guard text == "failure" || Int(text).map({ (100...599).contains($0) }) == true else {
                return .failure(refusal("status", text, "a status code from 100 to 599, or failure"))
            }
            filter.status = text
        }
        for (name, keyPath) in [("from", \ControlJournal.from), ("to", \ControlJournal.to)] {
            guard let text = value(name) else { continue }
            guard let d = VirtualDuration.parse(Substring(text)), d.microseconds >= 0 else {
                return .failure(refusal(name, text, "a virtual time since zero, e.g. 90s or 1h"))
            }
            filter[keyPath: keyPath] = .zero + d
        }
        return .success(filter)
    }

    private static func refusal(_ name: String, _ text: String, _ allowed: String) -> ControlRefusal {
        ControlRefusal(response: ServerAnswer.error(400, "'\(text)' is not a value for \"\(name)\": give \(allowed)."))
    }

    func keeps(_ e: RequestJournal.Entry) -> Bool {
        if let host, e.from != host && e.to != host { return false }
        if let pathPrefix, !e.request.path.hasPrefix(pathPrefix) { return false }
        if let from, e.sentAt < from { return false }
        if let to, e.sentAt >= to { return false }
        if let status {
            switch e.result {
            case .response(let r)?: if String(r.status) != status { return false }
            case .failure?: if status != "failure" { return false }
            case nil: return false
            }
        }
        return true
    }

    func json(_ world: World) -> JSONValue {
        let journal = world.journal
        let first = max(since, journal.dropped)
        var page: [JSONValue] = []
        var matched = 0
        var next = journal.count
        for (offset, e) in journal.entries(from: first).enumerated() where keeps(e) {
            matched += 1
            if page.count < Self.pageSize { page.append(Self.entryJSON(e, number: first + offset)) }
            else if next == journal.count { next = first + offset }
        }
        return .object([
            "total": .number(JSONNumber(Int64(journal.count))),
            "dropped": .number(JSONNumber(Int64(journal.dropped))),
            "since": .number(JSONNumber(Int64(first))),
            "matched": .number(JSONNumber(Int64(matched))),
            "next": .number(JSONNumber(Int64(next))),
            "entries": .array(page),
        ])
    }

    static func entryJSON(_ e: RequestJournal.Entry, number: Int) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("index", .number(JSONNumber(Int64(number)))),
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
        if let label = e.injected { members.append(("injected", .string(label))) }
        return .object(members)
    }
}

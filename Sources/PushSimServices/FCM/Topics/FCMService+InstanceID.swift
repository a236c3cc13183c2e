import PushSimKernel
import PushSimNetwork

/// The Instance ID server API on `iid.googleapis.com` (``FCMService/instanceIDHost``), as the
/// Firebase Admin SDKs call it to manage topic subscriptions (Citations §2.7; IID-SERVER,
/// FA-PY-TOPIC, FA-NODE-TOPIC, FA-GO-TOPIC):
///
/// | request | answer |
/// |---|---|
/// | `POST /iid/v1:batchAdd`, `POST /iid/v1:batchRemove` with `{"to":"/topics/<name>","registration_tokens":[…]}` | `200 {"results":[{}, {"error":"NOT_FOUND"}, …]}`, one result per token, in order |
/// | `POST /iid/v1/<token>/rel/topics/<name>` | `200 {}`, or the token's error |
/// | `GET /iid/info/<token>[?details=true]` | `200 {"application":…,"authorizedEntity":…,"platform":"ANDROID"[,"rel":{"topics":{"<name>":{"addDate":"yyyy-MM-dd"}}}]}` |
///
/// Authentication is the same OAuth 2 access token `messages:send` takes (`Authorization: Bearer
/// <token>`, from the service account's JWT-bearer grant), with the header `access_token_auth:
/// true` that tells the API it is one (IID-SERVER; the Admin SDKs send both). Without either, or
/// with a token FCM did not issue or that ran out, the answer is Google's front end's HTML 401
/// page (FA-GO-533). The project is the access token's service account's.
///
/// Per token (IID-SERVER, FA-NODE-TOPIC): `NOT_FOUND` for a token FCM issued that is dead (its
/// app gone, or unused for 270 days) or one that looks like a token but was never issued;
/// `INVALID_ARGUMENT` for text that is no token or a token of another project's sender id;
/// `TOO_MANY_TOPICS` when the token already has 2,000 topics (F-TOPIC-LIMITS). Subscribing twice
/// and removing a topic the token does not have both succeed. A request the API cannot read (not
/// JSON, no `to` of the form `/topics/<valid name>`, no list of 1 to 1,000 token strings,
/// F-TOPIC-LIMITS) is answered `400 {"error":"INVALID_ARGUMENT"}`, the IID error form the Admin
/// SDKs read (`{"error":"<code>"}`, FA-PY-TOPIC); Google's exact codes for these are unconfirmed
/// (Citations §7). The per-project rate limit on new subscriptions (429) is not modelled.
extension FCMService {
    /// Most tokens one `batchAdd` or `batchRemove` takes (F-TOPIC-LIMITS).
    static let maxTokensPerTopicRequest = 1_000

    func handleInstanceID(_ request: HTTPRequest, exchange: Exchange, world: World) {
        func answer(_ status: Int, _ body: String) {
            world.respond(to: exchange, with: HTTPResponse(status: status, headers: Self.jsonContentType, text: body))
        }
        let path = request.path
        let isBatch = request.method == "POST" && (path == "/iid/v1:batchAdd" || path == "/iid/v1:batchRemove")
        let single = request.method == "POST" ? Self.singleRelation(path) : nil
        let info = request.method == "GET" && path.hasPrefix("/iid/info/") && path.utf8.count > "/iid/info/".utf8.count
        guard isBatch || single != nil || info else { return answer(404, #"{"error":"NOT_FOUND"}"#) }
        guard let project = instanceIDProject(request, world: world) else {
            world.record(layer: "fcm", host: Self.name, kind: .fcmRejected, [.status: .int(401), .error: "Unauthorized", .path: .string(path)])
            return world.respond(to: exchange, with: HTTPResponse(status: 401, headers: ["content-type": "text/html; charset=UTF-8"],
                                                                  text: Self.unauthorizedPage))
        }
        if info {
            let details = request.queryValue("details") == "true"
            let (status, body) = tokenInfo(String(path.dropFirst("/iid/info/".count)), project: project, details: details, world: world)
            return answer(status, body)
        }
        if let (token, topic) = single {
            guard FCMTopicName.isValid(topic) else { return answer(400, #"{"error":"INVALID_ARGUMENT"}"#) }
            let error = change(token, topic: topic, add: true, project: project, world: world)
            record(add: true, topic: topic, changed: error == nil ? 1 : 0, refused: error == nil ? 0 : 1, world: world)
            guard let error else { return answer(200, "{}") }
            return answer(error == "NOT_FOUND" ? 404 : 400, JSONValue.object([("error", .string(error))]).serialized())
        }
        guard let json = try? JSONParser.parse(request.body), let to = json["to"]?.stringValue,
              let topic = FCMTopicName.fromInstanceIDTarget(to), case .array(let list)? = json["registration_tokens"],
              (1...Self.maxTokensPerTopicRequest).contains(list.count) else {
            return answer(400, #"{"error":"INVALID_ARGUMENT"}"#)
        }
        let tokens = list.compactMap(\.stringValue)
        guard tokens.count == list.count else { return answer(400, #"{"error":"INVALID_ARGUMENT"}"#) }
        let add = path == "/iid/v1:batchAdd"
        var results: [JSONValue] = []
        results.reserveCapacity(tokens.count)
        var refused = 0
        for token in tokens {
            if let error = change(token, topic: topic, add: add, project: project, world: world) {
                refused += 1
                results.append(.object([("error", .string(error))]))
            } else {
                results.append(.object([]))
            }
        }
        record(add: add, topic: topic, changed: tokens.count - refused, refused: refused, world: world)
        answer(200, JSONValue.object([("results", .array(results))]).serialized())
    }

    /// The project whose service account the request's access token was issued to, when the
    /// request carries a live token and `access_token_auth: true`; nil otherwise.
    private func instanceIDProject(_ request: HTTPRequest, world: World) -> FCMProject? {
        guard request.headers["access_token_auth"]?.lowercased() == "true",
              case .valid(let account)? = accessTokens.check(authorization: request.headers["authorization"], now: world.now) else { return nil }
        return projects.first { $0.serviceAccount == account }
    }

    /// Google's front end's page for a request it will not authenticate (FA-GO-533).
    static let unauthorizedPage = """
        <HTML>
        <HEAD>
        <TITLE>Unauthorized</TITLE>
        </HEAD>
        <BODY BGCOLOR="#FFFFFF" TEXT="#000000">
        <H1>Unauthorized</H1>
        <H2>Error 401</H2>
        </BODY>
        </HTML>

        """

    /// `(<token>, <topic>)` of `/iid/v1/<token>/rel/topics/<topic>`, or nil for another path.
    static func singleRelation(_ path: String) -> (String, String)? {
        let prefix = "/iid/v1/"
        guard path.hasPrefix(prefix) else { return nil }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1] == "rel", parts[2] == "topics", !parts[0].isEmpty else { return nil }
        return (String(parts[0]), String(parts[3]))
    }

    /// Subscribes `token` to `topic` (or, `add` false, unsubscribes it) for `project`; the
    /// per-token error code, or nil when it went through.
    private func change(_ token: String, topic: String, add: Bool, project: FCMProject, world: World) -> String? {
        guard let place = issued.place(of: token) else { return looksLikeFCMToken(token) ? "NOT_FOUND" : "INVALID_ARGUMENT" }
        let record = issued.recordReadInPlace(at: place)
        guard record.environment == project.projectNumber else { return "INVALID_ARGUMENT" }
        if record.invalidatedAt != nil { return "NOT_FOUND" }
        if let limit = tokenInactivityLimit, world.now >= record.lastActiveAt + limit {
            issued.invalidate(token, at: record.lastActiveAt + limit)
            dropTopics(of: token, why: "the token expired", world: world)
            return "NOT_FOUND"
        }
        guard add else {
            topicRegistry.unsubscribe(token, from: topic)
            return nil
        }
        return topicRegistry.subscribe(token, to: topic, project: project.projectNumber, at: world.now) == .subscribed ? nil : "TOO_MANY_TOPICS"
    }

    private func record(add: Bool, topic: String, changed: Int, refused: Int, world: World) {
        world.record(layer: "fcm", host: Self.name, kind: add ? .fcmSubscribed : .fcmUnsubscribed,
                     [.topic: .string(topic), .copies: .int(changed), .refused: .int(refused)])
    }

    /// `GET /iid/info/<token>`: the app and project of a token of `project`, and with `details`
    /// its topics with the day each was added (`addDate`, `yyyy-MM-dd`, IID-SERVER). A token FCM
    /// does not know, or that is dead, is 404 `{"error":"No information found about this instance
    /// id."}`; one of another project 403 (IID-SERVER: the authorization does not match the
    /// token's `authorizedEntity`; the body's wording is unconfirmed).
    private func tokenInfo(_ token: String, project: FCMProject, details: Bool, world: World) -> (Int, String) {
        guard let record = issued[token], record.invalidatedAt == nil,
              tokenInactivityLimit.map({ world.now < record.lastActiveAt + $0 }) ?? true else {
            return (404, #"{"error":"No information found about this instance id."}"#)
        }
        guard record.environment == project.projectNumber else { return (403, #"{"error":"PERMISSION_DENIED"}"#) }
        var members: [(String, JSONValue)] = [("application", .string(record.app)), ("authorizedEntity", .string(record.environment)),
                                              ("platform", "ANDROID")]
        let topics = topicRegistry.topics(of: token)
        if details, !topics.isEmpty {
            let dated = topics.map { ($0.topic, JSONValue.object([("addDate", .string(String(world.anchor.iso8601($0.addedAt).prefix(10))))])) }
            members.append(("rel", .object([("topics", .object(dated))])))
        }
        return (200, JSONValue.object(members).serialized())
    }
}

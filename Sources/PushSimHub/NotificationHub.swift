import PushSimKernel
import PushSimNetwork

/// The fake Azure Notification Hub, reached at `https://<namespace>.servicebus.windows.net/<hub>/…`
/// (Citations §4, NH-REST): registrations (here), installations (+Installations), native and
/// template sends (+Send, TemplateEngine), direct and batch sends (+DirectSend), scheduled sends
/// (+Scheduled), test sends (+TestSend), telemetry and PNS feedback (+Telemetry, +Feedback).
///
/// Registrations follow §4.2 and §5.1: Create Registration ID hands out an id; create-or-update
/// on an id that was never handed out, was deleted, or expired answers 410 "Cannot use specified
/// location" (NH-DN495630); duplicate handles are allowed; a PNS's "dead handle" answer deletes
/// the registration (§4.9, §6). Every call needs a SAS token with the right claim (401 otherwise).
/// Updates and deletes honour `If-Match` (`*` or the ETag; 412 when stale), and the rules Microsoft's
/// sources leave open are settings of ``HubConfiguration`` (see `HubFidelityRules.swift`).
public final class NotificationHub: Host, CallReceiver, FaultHolder {
    /// Its host name on the simulated network (it also answers at ``HubConfiguration/host``).
    public static let name = "hub"
    /// The `api-version` the hub writes into a `Location` when the request somehow has none; any
    /// value is accepted on requests, but one must be present (400 otherwise), and the `Location`s
    /// echo the request's (`echoedAPIVersion(_:)`).
    public static let apiVersion = "2015-01"

    /// The settings it was made with.
    public let configuration: HubConfiguration
    /// Resource URIs a SAS token may name besides `https://<namespace>.servicebus.windows.net/<hub>`
    /// (compared without case): a client signs the endpoint it is given, so `pushsim serve` adds its
    /// own `http://127.0.0.1:<port>/<hub>`. Empty in scenarios.
    public var alsoAcceptedResourceURIs: [String] = []
    /// Test-only: a bug planted on purpose, so that tests can show exploration finds and shrinks
    /// it. True makes PNS feedback record the deletion of a dead handle's registration without
    /// deleting it, so the hub goes on sending to the dead handle. Never set by scenarios.
    public var plantedBugKeepsDeadHandles = false
    // The hot state every notification touches: unchecked for exclusivity in release builds only
    // (see ``HubHotState``), reached through the forwarding properties below.
    #if DEBUG
    var hot: HubHotState
    #else
    @exclusivity(unchecked) var hot: HubHotState
    #endif
    var store: RegistrationStore { _read { yield hot.store } _modify { yield &hot.store } }
    var pnsTokens: PNSAccessTokenCache { _read { yield hot.pnsTokens } _modify { yield &hot.pnsTokens } }
    var pnsHeaders: PNSHeaderMemo { _read { yield hot.pnsHeaders } _modify { yield &hot.pnsHeaders } }
    var streams: PNSStreams { _read { yield hot.streams } _modify { yield &hot.streams } }
    var records: NotificationRecords { _read { yield hot.records } _modify { yield &hot.records } }
    var random: SeededRandom
    /// Where the tracking ids of error answers come from (a stream of their own, so that errors
    /// do not move the ids drawn from ``random``).
    var trackingRandom: SeededRandom
    /// Where notification ids draw their random parts (``NotificationID``): a stream of its own.
    var notificationIDRandom: SeededRandom
    /// Where each Web Push copy's sender key and salt come from (``WebPushAdapter``): its own stream.
    var webPushRandom: SeededRandom
    /// Retries waiting for their time, for the leftovers report.
    var retriesWaiting: [String: Leftover] = [:]   // key → leftover; looked up, reported sorted
    var installations = InstallationStore()
    /// PNS feedback, oldest first.
    var feedbackRecords: [PNSFeedback] = []
    /// Scheduled sends not fired yet, by id (looked up; reported sorted).
    var scheduled: [String: ScheduledSend] = [:]
    /// When the test sends of the last minute were accepted, oldest first.
    var testSendTimes: [VirtualTime] = []
    /// The SAS tokens verified last (their verdicts depend on their text alone).
    var sasMemo = SASVerificationMemo()
    /// Times written lately in registration answers.
    var timeTexts = TimeTextMemo()
    /// Injected faults of the hub itself, asked in order at the top of every REST request; the
    /// first that hits wins (see NotificationHub+Faults.swift). Only whole-service rules are
    /// asked: a rule scoped to a token, a device or an app, or a token refusal, never hits here.
    public var faults: [ServiceFault] = []
    /// Picks the fault that hits a request, drawing from the hub's own `hub/faults` stream.
    var faultInterpreter: ServiceFaultInterpreter
    /// Answers a `.slow` or `.lostAnswer` fault holds back, by the call they answer (looked up only).
    var heldReplies: [UInt64: Reply] = [:]

    /// A hub with no registrations, registered in `world` as ``name`` and as its Service Bus host.
    public init(world: World, configuration: HubConfiguration) {
        self.configuration = configuration
        self.random = world.randomStream(NotificationHub.name)
        self.trackingRandom = world.randomStream(NotificationHub.name + "/tracking")
        self.notificationIDRandom = world.randomStream(NotificationHub.name + "/notification-ids")
        self.webPushRandom = world.randomStream(NotificationHub.name + "/webpush")
        self.faultInterpreter = ServiceFaultInterpreter(world: world, service: NotificationHub.name)
        self.hot = HubHotState(streams: PNSStreams(limit: configuration.maxPNSRequestsInFlight))
        self.hubURL = "https://\(configuration.host)/\(configuration.hubName)"
        self.registrationsURL = hubURL + "/registrations"
        self.resourcesURL = hubURL + "/resources"
        self.writtenRegistrationsURL = "https://\(configuration.namespace).notificationhub.windows.net/\(configuration.hubName)/registrations"
        world.register(self, name: Self.name, aliases: [configuration.host])
    }

    /// `https://<namespace>.servicebus.windows.net/<hub>`
    public let hubURL: String
    /// `<hubURL>/registrations`, where an entry answered on its own lives (``EntryAddress``) in the
    /// classic answers.
    let registrationsURL: String
    /// `<hubURL>/resources`, where the current service says the entries it reads and lists live
    /// (``HubAnswerShape/current``).
    let resourcesURL: String
    /// `https://<namespace>.notificationhub.windows.net/<hub>/registrations`, where the current
    /// service says an entry it created or updated lives (``HubAnswerShape/current``).
    let writtenRegistrationsURL: String

    /// Number of live registrations (expired ones are dropped as they are met).
    public var registrationCount: Int { store.count }

    /// Number of installations (expired ones are dropped as they are met).
    public var installationCount: Int { installations.count }

    /// Live registrations at `now`, all of them or those carrying `tag`.
    public func liveRegistrations(tag: String? = nil, now: VirtualTime) -> Int {
        let expression = tag.map { TagExpression.tag($0) }
        return RegistrationPlatform.allCases.reduce(0) { $0 + store.matching(expression, platform: $1, now: now).count }
    }

    /// Live installations at `now`, all or those carrying `tag` (their own tags, or the implicit
    /// `$InstallationId:{id}` and `$UserId:{id}`).
    public func liveInstallations(tag: String? = nil, now: VirtualTime) -> Int {
        installations.live(now: now).filter { tag.map($0.hasTag) ?? true }.count
    }

    /// Routes a REST call under `/<hub>/`: 404 for another hub path or an unknown operation, 400
    /// without `api-version`, 401 without a SAS token granting the operation's claim (Send for
    /// `messages` and `schedulednotifications`, Manage for feedback, for registrations read by
    /// tag and for all registrations read unfiltered, Listen for the rest, which includes reading
    /// the registrations of one handle with `$filter`).
    public func handle(_ request: HTTPRequest, exchange: Exchange, world: World) {
        // Injected faults of the hub first: an outage answers before the request is read.
        if !faults.isEmpty && answeredByFault(exchange, world) { return }
        // The segments after the hub's name; the empty one before the first `/` and the hub's name
        // are taken off in place (copying the rest into new arrays cost more than the split).
        var rest = ASCIIText.split(request.path, separator: UInt8(ascii: "/"), omittingEmpty: false)
            ?? request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if !rest.isEmpty { rest.removeFirst() }
        guard rest.first == configuration.hubName else {
            return fail(404, "The messaging entity '\(rest.first ?? "")' could not be found.", exchange, world)
        }
        rest.removeFirst()
        guard request.queryValue("api-version") != nil else {
            return fail(400, "The api-version query parameter is required.", exchange, world)
        }
        // Sends (and their telemetry) need the Send claim; registration and installation management
        // needs Listen; PNS feedback, which lists device handles, needs Manage (covers both).
        let right: HubRight
        switch rest.first ?? "" {
        case "messages", "schedulednotifications": right = .send
        case "feedbackcontainer", "feedback": right = .manage
        case "tags": right = .manage   // reading registrations by tag (NH-SEC)
        case "registrations" where request.method == "GET" && (rest.count == 1 || rest[1].isEmpty) && request.queryValue("$filter") == nil:
            right = .manage   // reading every registration: Listen reads only those of a handle (NH-SEC)
        default: right = .listen
        }
        if let problem = authorizationProblem(request.headers["Authorization"], right: right, path: request.path, caller: exchange.caller, world: world) {
            return fail(401, problem, exchange, world)
        }
        switch (request.method, rest.first ?? "", rest.count) {
        // The REST pages write `registrationIDs/`, the .NET SDK `registrationids`: both reach the service.
        case ("POST", let operation, _) where operation.sameBytesIgnoringASCIICase(as: "registrationIDs"): createRegistrationID(request, exchange, world)
        case ("POST", "registrations", _) where rest.count == 1 || (rest.count == 2 && rest[1].isEmpty): createRegistration(request, exchange, world)
        case ("GET", "registrations", _) where rest.count == 1 || rest[1].isEmpty: readRegistrations(request, exchange, world)
        case ("GET", "registrations", 2): readRegistration(rest[1], request, exchange, world)
        case ("GET", "tags", 3) where rest[2] == "registrations": readRegistrations(request, tag: percentDecode(rest[1]), exchange, world)
        case ("PUT", "registrations", 2): createOrUpdate(rest[1], request, exchange, world)
        case ("DELETE", "registrations", 2): delete(rest[1], request, exchange, world)
        case ("PUT", "installations", 2) where !rest[1].isEmpty: putInstallation(percentDecode(rest[1]), request, exchange, world)
        case ("PATCH", "installations", 2) where !rest[1].isEmpty: patchInstallation(percentDecode(rest[1]), request, exchange, world)
        case ("GET", "installations", 2) where !rest[1].isEmpty: getInstallation(percentDecode(rest[1]), exchange, world)
        case ("DELETE", "installations", 2) where !rest[1].isEmpty: deleteInstallation(percentDecode(rest[1]), exchange, world)
        case ("POST", "messages", 2) where rest[1] == "$batch" || rest[1] == "%24batch": batchDirectSend(request, exchange, world)
        case ("POST", "messages", _): send(request, exchange, world)
        case ("GET", "messages", 2) where !rest[1].isEmpty: notificationDetails(rest[1], exchange, world)
        case ("POST", "schedulednotifications", _) where rest.count == 1 || rest[1].isEmpty: schedule(request, exchange, world)
        case ("DELETE", "schedulednotifications", 2): cancelScheduled(rest[1], exchange, world)
        case ("GET", "feedbackcontainer", _): feedbackContainer(exchange, world)
        case ("GET", "feedback", _): feedbackDocument(exchange, world)
        default: fail(404, "No operation at \(request.method) \(request.path).", exchange, world)
        }
    }

    /// Why the request's `Authorization` does not allow an operation needing `right` now (the
    /// 401 detail), or nil. The token's verdict comes from ``SASVerificationMemo`` when the same
    /// token was verified lately; its expiry and claim are checked now in any case, by the clock
    /// of `caller` (``World/unixSeconds(judging:)``).
    func authorizationProblem(_ header: String?, right: HubRight, path: String, caller: String, world: World) -> String? {
        guard let header, header.hasPrefix("SharedAccessSignature ") else {
            return SharedAccessSignature.problem(header, rules: [], right: right, nowUnixSeconds: 0, resource: hubURL)
        }
        let verdict = sasMemo.verdict(header) { [configuration, hubURL, alsoAcceptedResourceURIs] in
            SharedAccessSignature.verdict($0, rules: configuration.accessRules, resource: hubURL, alsoAccepted: alsoAcceptedResourceURIs)
        }
        return SharedAccessSignature.problem(verdict, right: right, nowUnixSeconds: world.unixSeconds(judging: caller)) {
            // The request's URL under the hub's own address and each other one it answers at.
            let below = String(path.utf8.dropFirst(1 + configuration.hubName.utf8.count))!
            return ([hubURL] + alsoAcceptedResourceURIs).map { $0 + below }
        }
    }

    /// Retries waiting for their time, PNS requests in flight or waiting for a stream, and
    /// scheduled sends not fired yet.
    public func leftovers(world: World) -> [Leftover] {
        (retriesWaiting.map { ($0.key, $0.value) } + streams.leftovers).sorted { $0.0 < $1.0 }.map(\.1) + scheduledLeftovers
    }

    // MARK: Registrations

    /// `POST /{hub}/registrationIDs/`: 201, no body, the new id in `Location`, in the answer shape
    /// the hub is set to (``HubConfiguration/answerShape``):
    /// - current, as the live hub answered the JavaScript SDK in 2023 (NH-JS-REC `createregistrationid`):
    ///   `Location: https://<ns>/<hub>/registrationids/<id>`, the id's address and no query, whatever
    ///   `api-version` the request named; `Content-Type: application/atom+xml; type=entry;
    ///   charset=utf-8`, spelt as the service spells it; no `Content-Location`.
    /// - classic: the `Location` with the request's `?api-version=…`, as the .NET SDK's 2018
    ///   recording shows it (`…Tests/MockData/CreateRegistrationIdAsync_CallMethod_GetRegistrationId.http`,
    ///   NH-DOTNET); `Content-Location: …/registrations/<id>?api-version=…` and `Content-Type:
    ///   application/atom+xml;type=entry;charset=utf-8`, as the Create Registration ID page
    ///   describes the answer (NH-REST).
    ///
    /// Both of Microsoft's older SDKs read the id from the `Location` path and only from there: the
    /// .NET SDK takes the fourth path segment after checking that the third is `registrationids/`,
    /// the Java SDK matches `/registrationids/([^?]+)` (NH-DOTNET, NH-JAVA); either shape gives it.
    private func createRegistrationID(_ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        let id = store.issueID()
        world.record(layer: "hub", host: Self.name, kind: .hubRegistrationIDCreated, [.id: .string(id)])
        let headers: HTTPHeaders
        switch configuration.answerShape {
        case .current:
            headers = ["Content-Type": "application/atom+xml; type=entry; charset=utf-8",
                       "Location": String.concatenating(hubURL, "/registrationids/", id)]
        case .classic:
            headers = ["Content-Type": "application/atom+xml;type=entry;charset=utf-8",
                       "Content-Location": registrationURL(id, collection: "registrations", request),
                       "Location": registrationURL(id, collection: "registrationids", request)]
        }
        respond(to: exchange, with: HTTPResponse(status: 201, headers: headers), world)
    }

    /// `<hub URL>/<collection>/<id>?api-version=<the request's>`, as the live hub writes a new
    /// registration's address.
    private func registrationURL(_ id: String, collection: String, _ request: HTTPRequest) -> String {
        String.concatenating(hubURL, "/", collection, "/", id, "?", Self.echoedAPIVersion(request))
    }

    /// `api-version=<the request's>`, the query of every `Location` the hub answers with: the live
    /// hub echoes the version the request asked for (NH-DOTNET's recordings of a live hub: requests
    /// with `?api-version=2017-04` to `registrationids`, `messages` and `schedulednotifications`
    /// get a `Location` ending in `?api-version=2017-04`). The value is form-encoded as
    /// ``EntryAddress`` writes echoed values, so an odd one cannot break the URL; ``apiVersion``
    /// stands in if the request has none.
    static func echoedAPIVersion(_ request: HTTPRequest) -> String {
        var out = Array("api-version=".utf8)
        EntryAddress.formEncode(request.queryValue("api-version") ?? apiVersion, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `$filter=DeviceToken eq '…'` (APNs, upper-case hex), `ChannelUri eq '…'`, `FcmV1RegistrationId eq '…'`,
    /// `GcmRegistrationId eq '…'`; `$top` (default 100). No filter: all registrations. With `tag`
    /// (`GET /tags/<tag>/registrations`, NH-REST "Read Registrations With A Tag"): those carrying
    /// the tag, oldest first; a tag the hub would not store is 400.
    ///
    /// A feed cut by `$top` is one page: the answer carries `x-ms-continuationtoken` and the
    /// feed a `<link rel="next">`, and a request with the token (`ContinuationToken` in any case)
    /// gets the page after it (see ``ContinuationToken``); the last page carries neither. A token
    /// the hub did not hand out is 400.
    private func readRegistrations(_ request: HTTPRequest, tag: String? = nil, _ exchange: Exchange, _ world: World) {
        let top = Int(request.queryValue("$top") ?? "100") ?? 100
        if let tag, let problem = TagRules.problem(with: [tag]) { return fail(400, problem, exchange, world) }
        var resumeAt = 0
        if let text = request.query.first(where: { $0.name.sameBytesIgnoringASCIICase(as: ContinuationToken.queryName) })?.value {
            guard let token = ContinuationToken(queryValue: text) else {
                return fail(400, "The continuation token '\(text)' is not valid.", exchange, world)
            }
            resumeAt = token.nextNumber
        }
        var found: [StoredRegistration]
        if tag == nil, let filter = request.queryValue("$filter") {
            guard let value = Self.handleFilterValue(filter) else {
                return fail(400, "The query '\(filter)' is not supported.", exchange, world)
            }
            found = store.registrations(handle: value, now: world.now)
            if installations.count > 0 {
                found = Self.inNumberOrder(found, installations.installations(channel: value, now: world.now).flatMap(\.registrations))
            }
        } else {
            // All registrations, or those carrying `tag`, oldest first.
            found = RegistrationPlatform.allCases.flatMap { store.matching(tag.map(TagExpression.tag), platform: $0, now: world.now) }
                .sorted { $0.number < $1.number }
            if installations.count > 0 {
                found = Self.inNumberOrder(found, installations.candidates(tag.map(TagExpression.tag), now: world.now).flatMap { i in
                    i.registrations.filter { r in tag.map { i.hasTag($0) || (r.template?.tags.contains($0) ?? false) } ?? true }
                })
            }
        }
        let rest = resumeAt == 0 ? found[...] : found.drop { $0.number < resumeAt }
        let entries = Array(rest.prefix(max(0, top)))
        // A page that returned nothing (`$top=0`) hands out no token: it would name the same start
        // again, and a client following tokens would never get past it.
        let next = entries.isEmpty ? nil : rest.dropFirst(entries.count).first.map { ContinuationToken(nextNumber: $0.number) }
        world.record(layer: "hub", host: Self.name, kind: .hubRegistrationsRead,
                     next.map { [.found: .int(entries.count), .next: .string($0.base64)] } ?? [.found: .int(entries.count)])
        // Current: `application/xml`, the listing and its entries under `<hub>/resources` whatever
        // path was asked (NH-JS-REC `listregistrations`, `listregistrationsbytag`); classic: an
        // Atom feed under the address asked (NH-DOTNET's recordings).
        let shape = configuration.answerShape
        var headers: HTTPHeaders = ["Content-Type": shape == .current ? "application/xml" : "application/atom+xml; type=feed; charset=utf-8"]
        if let next { headers.add(ContinuationToken.headerName, next.headerValue) }
        let listing = shape == .current ? EntryAddress.listing(at: resourcesURL, request) : EntryAddress.listing(host: configuration.host, request)
        respond(to: exchange, with: HTTPResponse(status: 200, headers: headers,
                                                 body: AtomRegistration.feedDocument(entries, url: listing.url, address: listing.entries,
                                                                                    anchor: world.anchor,
                                                                                    updated: timeText(world.now, world),
                                                                                    next: next.map { nextPageURL(request, $0) },
                                                                                    style: EntryStyle(shape: shape, answersWrite: false),
                                                                                    time: { timeText($0, world) })), world)
    }

    /// The registrations `found` and the ones the hub `shown` for installations (see
    /// ``StoredInstallation/registrations``), each in number order, as one list in number order.
    private static func inNumberOrder(_ found: [StoredRegistration], _ shown: [StoredRegistration]) -> [StoredRegistration] {
        shown.isEmpty ? found : (found + shown).sorted { $0.number < $1.number }
    }

    /// The installation whose registration `id` is, and that registration, when it is one the hub
    /// shows for a live installation.
    private func installationRegistration(_ id: String, now: VirtualTime) -> (StoredInstallation, StoredRegistration)? {
        let n = RegistrationStore.number(of: id)
        guard n > 0, RegistrationStore.id(n) == id, let owner = installations.owner(ofRegistrationNumber: n),
              let i = installations.lookup(owner, now: now), let r = i.registration(number: n) else { return nil }
        return (i, r)
    }

    /// Refuses a write or deletion through the registration API of a registration the hub shows
    /// for an installation: 400, naming the installation. What the live hub does there is not
    /// documented; PushSim says so rather than change the installation behind its back or act as
    /// if the registration did not exist. False when `id` is not such a registration.
    private func refusedAsInstallationRegistration(_ id: String, _ exchange: Exchange, _ world: World) -> Bool {
        guard let (i, _) = installationRegistration(id, now: world.now) else { return false }
        fail(400, "The registration '\(id)' belongs to the installation '\(i.id)'; change it through the installations API.", exchange, world)
        return true
    }

    /// The address of the page after `request`'s: its own, with `token` in place of any it had,
    /// encoded once more than the header's value (as the live hub's `next` link is, NH-DOTNET's recording).
    private func nextPageURL(_ request: HTTPRequest, _ token: ContinuationToken) -> String {
        var next = request
        next.query.removeAll { $0.name.sameBytesIgnoringASCIICase(as: ContinuationToken.queryName) }
        next.query.append((ContinuationToken.queryName, token.headerValue))
        return "https://" + configuration.host + next.target
    }

    /// The handle in a `$filter` of the form `<handle field> eq '<handle>'`, or nil when the
    /// filter is another query. The filter is split at its first two runs of spaces (as
    /// `split(separator: " ", maxSplits: 2)` does); a filter written exactly as the SDKs write it,
    /// in ASCII, is read by bytes, with the same answer.
    static func handleFilterValue(_ filter: String) -> String? {
        let fields = handleFilterFields
        let ascii = ASCIIText.isASCII(filter)
        let utf8 = filter.utf8
        if ascii, let space = utf8.firstIndex(of: UInt8(ascii: " ")), space > utf8.startIndex {
            let rest = utf8[utf8.index(after: space)...]
            let quoted = rest.dropFirst(3)
            if rest.starts(with: "eq '".utf8), quoted.count >= 2, quoted.last == UInt8(ascii: "'") {
                guard fields.contains(String(Substring(utf8[..<space]))) else { return nil }
                return String(Substring(quoted.dropFirst().dropLast()))
            }
        }
        let parts = filter.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, parts[1] == "eq", parts[2].hasPrefix("'"), parts[2].hasSuffix("'"), parts[2].count >= 2,
              fields.contains(String(parts[0])) else { return nil }
        return String(parts[2].dropFirst().dropLast())
    }

    /// The handle elements a `$filter` may name: each platform's (`DeviceToken`, `ChannelUri`, …).
    private static let handleFilterFields = RegistrationPlatform.allCases.map(\.handleElement)

    /// `GET /{hub}/registrations/{id}`: the entry, or 404 whose detail has no message before its
    /// tracking part, as the live hub answered the .NET SDK's read of a deleted registration
    /// (NH-DOTNET's recording `RegistrationExistsAsync_GetNonExistingRegistration`).
    private func readRegistration(_ id: String, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard case .live(let r) = store.lookup(id, now: world.now) else {
            if let (_, r) = installationRegistration(id, now: world.now) { return respondEntry(200, r, answersWrite: false, request, exchange, world) }
            return fail(404, "", exchange, world)
        }
        respondEntry(200, r, answersWrite: false, request, exchange, world)
    }

    /// `PUT /{hub}/registrations/{id}`: Create or Update Registration, and Update Registration when
    /// the request carries `If-Match`.
    ///
    /// - Without `If-Match` it creates or overwrites (Create or Update Registration,
    ///   https://learn.microsoft.com/en-us/rest/api/notificationhubs/create-update-registration, takes no
    ///   `If-Match`; the .NET SDK's `CreateOrUpdateRegistrationAsync` sends none,
    ///   https://github.com/Azure/azure-notificationhubs-dotnet/blob/main/src/Microsoft.Azure.NotificationHubs/NotificationHubClient.cs).
    /// - With `If-Match` (`*` or an ETag; the SDK's `UpdateRegistrationAsync` insists on an ETag and sends
    ///   it quoted, `"n"`) it updates only the registration it names (Update Registration,
    ///   https://learn.microsoft.com/en-us/rest/api/notificationhubs/update-registration): a live one whose
    ///   ETag differs answers 412 Precondition Failed, the answer the Delete Registration page gives for a
    ///   stale ETag on the same resource (the Update page lists no 412, HTTP's If-Match requires one,
    ///   RFC 9110 §13.1.1); an id handed out but never written answers 404 "No registration exists at this
    ///   location" as the Update page says, or 412 (``HubConfiguration/ifMatchWithoutRegistration``).
    /// - An id that cannot be used, never handed out, deleted, or expired, answers 410 "Cannot use
    ///   specified location" with or without `If-Match` (NH-DN495630). For an expired registration with
    ///   `If-Match` the sources are silent; PushSim keeps 410 because HTTP evaluates preconditions only
    ///   when the request without them would have succeeded (RFC 9110 §13.2.1,
    ///   https://www.rfc-editor.org/rfc/rfc9110#section-13.2.1), so the id's answer does not depend on
    ///   the header, and the tutorial's handling of 410 (defect e) is the same whichever call is made.
    /// - Preconditions are judged before the body is read (RFC 9110 §13.2.1), so a stale update with a
    ///   bad body answers 412.
    /// - Every successful write gives the registration a new ETag (the previous plus one, as the
    ///   service's recorded answers show `W/"1"` then `W/"2"`), in the entry's ETag attribute, the
    ///   description's `<ETag>` and, in the classic shape, the `ETag` header.
    private func createOrUpdate(_ id: String, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        let existing = store.lookup(id, now: world.now)
        if case .gone = existing {
            if refusedAsInstallationRegistration(id, exchange, world) { return }
            world.record(layer: "hub", host: Self.name, kind: .hubRegistrationGone, [.id: .string(id)])
            return fail(410, "Cannot use specified location. Please use a different registrationid.", exchange, world)
        }
        if let ifMatch = IfMatch(request.headers["If-Match"]) {
            switch existing {
            case .live(let r) where !ifMatch.matches(etag: r.etag):
                return preconditionFailed(id, ifMatch: request.headers["If-Match"] ?? "", etag: r.etag, exchange, world)
            case .issuedUnused:
                world.record(layer: "hub", host: Self.name, kind: .hubPreconditionFailed,
                             [.id: .string(id), .ifMatch: .string(request.headers["If-Match"] ?? ""), .etag: "none"])
                switch configuration.ifMatchWithoutRegistration {
                case .notFound: return fail(404, "No registration exists at this location.", exchange, world)
                case .preconditionFailed: return fail(412, Self.noCurrentRegistration, exchange, world)
                }
            default: break
            }
        }
        guard let (description, template) = checkedDescription(request, exchange, world) else { return }
        write(description, template: template, id: id, existing: existing, status: configuration.registrationWriteStatus.rawValue,
              location: nil, request, exchange, world)
    }

    /// `POST /{hub}/registrations/` (Create Registration,
    /// https://learn.microsoft.com/en-us/rest/api/notificationhubs/create-registration): the hub
    /// picks the id and answers 200 with the entry and its `Content-Location`, as the page says and
    /// the .NET SDK's recording of a live hub shows (`…/MockData/CreateRegistrationAsync_*.http`). The .NET SDK's
    /// `CreateRegistrationAsync` posts here, to `registrations` without the slash, with the
    /// description's `RegistrationId` nil (NH-DOTNET `CreateOrUpdateRegistrationImplAsync`). A body
    /// the hub refuses takes no id.
    private func createRegistration(_ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard let (description, template) = checkedDescription(request, exchange, world) else { return }
        let id = store.issueID()
        world.record(layer: "hub", host: Self.name, kind: .hubRegistrationIDCreated, [.id: .string(id)])
        write(description, template: template, id: id, existing: .issuedUnused, status: 200,
              location: configuration.answerShape == .classic ? registrationURL(id, collection: "registrations", request) : nil,
              request, exchange, world)
    }

    /// The registration description in a create or update body, and its compiled template;
    /// nil after answering 400 for a body, a platform, tags or a template the hub refuses.
    private func checkedDescription(_ request: HTTPRequest, _ exchange: Exchange, _ world: World)
        -> (RegistrationDescription, HubTemplate?)? {
        let description: RegistrationDescription
        switch AtomRegistration.parseEntry(request.body) {
        case .failure(let why): fail(400, why.description, exchange, world); return nil
        case .success(let d): description = d
        }
        if description.platform.isRetired {
            fail(400, "\(description.platform.descriptionElement) is no longer supported by Notification Hubs; use FcmV1RegistrationDescription.", exchange, world)
            return nil
        }
        if let problem = TagRules.problem(with: description.tags) { fail(400, problem, exchange, world); return nil }
        // A template is checked now, so that a malformed one is refused at registration time (NH-TPL).
        var template: HubTemplate?
        if let t = description.template {
            switch HubTemplate.make(platform: description.platform, body: t.bodyTemplate, name: t.templateName,
                                    headers: t.headers(for: description.platform),
                                    expiry: t.expiry) {
            case .failure(let why): fail(400, "The template is invalid: \(why)", exchange, world); return nil
            case .success(let compiled): template = compiled
            }
        }
        return (description, template)
    }

    /// Stores `description` as registration `id` (live `existing` one replaced) and answers
    /// `status` with the entry, and `location` as its `Content-Location` when given.
    private func write(_ description: RegistrationDescription, template: HubTemplate?, id: String, existing: RegistrationStore.Lookup,
                       status: Int, location: String?, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        var tags: [String] = []
        for t in description.tags.sorted() where tags.last != t { tags.append(t) }
        // The hub stores APNs tokens upper-cased (NH-REST).
        let handle = description.platform == .apple ? description.handle.uppercased() : description.handle
        var etag = 1, created: VirtualTime? = nil
        if case .live(let old) = existing { (etag, created) = (old.etag + 1, old.created) }
        let stored = StoredRegistration(number: RegistrationStore.number(of: id), id: id, platform: description.platform,
                                        handle: handle, tags: tags, updatedAt: world.now,
                                        expiresAt: configuration.registrationTimeToLive.map { world.now + $0 }, etag: etag,
                                        template: template, createdAt: created, pushVariables: description.pushVariables)
        store.upsert(stored)
        if template != nil {
            world.record(layer: "hub", host: Self.name, kind: .hubRegistrationUpserted,
                         [.id: .string(id), .platform: .string(description.platform.rawValue), .handle: .string(handleLabel(handle)), .tags: .string(tags.joined(separator: ",")),
                          .expires: .string(stored.expiresAt.map { "\($0)" } ?? "never"), .template: .string(template?.name ?? "(unnamed)")])
        } else {
            world.record(layer: "hub", host: Self.name, kind: .hubRegistrationUpserted,
                         [.id: .string(id), .platform: .string(description.platform.rawValue), .handle: .string(handleLabel(handle)), .tags: .string(tags.joined(separator: ",")),
                          .expires: .string(stored.expiresAt.map { "\($0)" } ?? "never")])
        }
        // The validated entry and its ETag (NH-DN495630); for a PUT 200 as the service answers or
        // 201 as the pages say (``RegistrationWriteStatus``).
        respondEntry(status, stored, location: location, answersWrite: true, request, exchange, world)
    }

    /// `DELETE /{hub}/registrations/{id}` (Delete Registration,
    /// https://learn.microsoft.com/en-us/rest/api/notificationhubs/delete-registration): the page takes
    /// `If-Match` (`*` or an ETag) and answers 200, 404 when the registration does not exist, 412 when
    /// its current version does not have the ETag given. The .NET SDK sends `If-Match: *` or the
    /// quoted ETag and expects 200 (`DeleteRegistrationImplAsync`); the Java SDK sends `*` and takes
    /// a 404 as success. A missing registration answers 404 whatever `If-Match` says (RFC 9110
    /// §13.2.1: preconditions are judged only when the request would otherwise succeed). Without
    /// `If-Match` at all the sources are silent: ``HubConfiguration/deleteWithoutIfMatch``.
    private func delete(_ id: String, _ request: HTTPRequest, _ exchange: Exchange, _ world: World) {
        guard case .live(let r) = store.lookup(id, now: world.now) else {
            if refusedAsInstallationRegistration(id, exchange, world) { return }
            return fail(404, "The registration with id \(id) was not found.", exchange, world)
        }
        if let ifMatch = IfMatch(request.headers["If-Match"]) {
            if !ifMatch.matches(etag: r.etag) {
                return preconditionFailed(id, ifMatch: request.headers["If-Match"] ?? "", etag: r.etag, exchange, world)
            }
        } else if configuration.deleteWithoutIfMatch == .preconditionFailed {
            world.record(layer: "hub", host: Self.name, kind: .hubPreconditionFailed, [.id: .string(id), .ifMatch: "(none)", .etag: .int(r.etag)])
            return fail(412, "ETag header missing or invalid.", exchange, world)
        }
        store.remove(id)
        world.record(layer: "hub", host: Self.name, kind: .hubRegistrationDeleted, [.id: .string(id), .why: "delete request"])
        respond(to: exchange, with: HTTPResponse(status: 200), world)
    }

    static let staleETag = "Precondition failed. The current version of the registration does not have the specified ETag."
    static let noCurrentRegistration = "Precondition failed. No registration exists at this location to match If-Match."

    /// 412 for an `If-Match` the registration's current ETag does not satisfy.
    private func preconditionFailed(_ id: String, ifMatch: String, etag: Int, _ exchange: Exchange, _ world: World) {
        world.record(layer: "hub", host: Self.name, kind: .hubPreconditionFailed, [.id: .string(id), .ifMatch: .string(ifMatch), .etag: .int(etag)])
        fail(412, Self.staleETag, exchange, world)
    }

    /// An entry answer with the live hub's headers in the hub's answer shape
    /// (``HubConfiguration/answerShape``); `answersWrite` for a create or an update, else a read.
    /// - current (NH-JS-REC): no `ETag` header and no `Content-Location`; a write answered
    ///   `application/atom+xml; type=entry; charset=utf-8` with the entry under
    ///   `https://<ns>.notificationhub.windows.net/<hub>/registrations`, a read `application/xml`
    ///   with the entry under `<hub URL>/resources`.
    /// - classic (NH-DOTNET's recordings, NH-REST): `Content-Type` spelt as the hub spells it, the
    ///   weak `ETag`, `Content-Location` when given, the entry under `<hub URL>/registrations`.
    /// The entry's address echoes `request`'s query (``EntryAddress``).
    private func respondEntry(_ status: Int, _ r: StoredRegistration, location: String? = nil, answersWrite: Bool, _ request: HTTPRequest,
                              _ exchange: Exchange, _ world: World) {
        let style = EntryStyle(shape: configuration.answerShape, answersWrite: answersWrite)
        let headers: HTTPHeaders, collection: String
        switch style.shape {
        case .current:
            headers = ["Content-Type": answersWrite ? "application/atom+xml; type=entry; charset=utf-8" : "application/xml"]
            collection = answersWrite ? writtenRegistrationsURL : resourcesURL
        case .classic:
            var h: HTTPHeaders = ["Content-Type": "application/atom+xml; type=entry; charset=utf-8", "ETag": AtomRegistration.weakETag(r.etag)]
            if let location { h.add("Content-Location", location) }
            (headers, collection) = (h, registrationsURL)
        }
        respond(to: exchange, with: HTTPResponse(status: status, headers: headers,
            body: AtomRegistration.entryDocument(r, address: .single(collection, request), anchor: world.anchor, style: style,
                                                 time: { timeText($0, world) })), world)
    }

    /// `world.anchor.iso8601(t)`, remembered for the seconds written lately.
    private func timeText(_ t: VirtualTime, _ world: World) -> String {
        timeTexts.text(t, anchor: world.anchor)
    }

    /// Answers `status` with the hub's error body: `detail`, then the tracking part every live
    /// error carries (``HubErrorDetail``). The trace records `detail` alone.
    func fail(_ status: Int, _ detail: String, _ exchange: Exchange, _ world: World, headers: [(String, String)] = []) {
        world.record(layer: "hub", host: Self.name, kind: .hubRejected, [.status: .int(status), .detail: .string(detail)])
        let text = HubErrorDetail.text(detail, trackingID: HubErrorDetail.trackingID(&trackingRandom),
                                       unixSeconds: world.anchor.unixSeconds(world.now))
        respond(to: exchange, with: HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/xml; charset=utf-8")] + headers),
                                                 body: AtomRegistration.errorDocument(code: status, detail: text)), world)
    }
}

import PushSimKernel
import PushSimNetwork

/// A client for the hub whose operations mirror the `Microsoft.Azure.NotificationHubs` SDK's
/// (`CreateRegistrationIdAsync`, `GetRegistrationsByChannelAsync`, `CreateOrUpdateRegistrationAsync`,
/// `DeleteRegistrationAsync`, `Send…NativeNotificationAsync`). It talks to the hub only over the
/// simulated network, from the host that owns it, with a SAS token built from the connection string.
/// Results arrive in completion handlers, in virtual time.
public final class NotificationHubClient {
    /// The SDK's REST API version (NH-DOTNET defaults to 2020-06).
    public static let apiVersion = "2020-06"

    /// The hub's name, the first segment of every request path.
    public let hubPath: String
    let host: String
    let keyName: String
    let key: String
    /// Unowned: the host that holds this client is owned by the world; a strong reference back
    /// would keep every finished world alive.
    unowned let world: World
    /// The host name calls are made from.
    let caller: String
    /// Like the SDK's `EnableTestSend`: every request carries `&test`, so sends become test sends
    /// (at most 10 targets, per-target outcomes in the answer; §4.8).
    public var enableTestSend = false
    /// `https://<host>/<hub>`, the resource every token is signed for (made once).
    let resource: String
    /// The token in the SDK's cache and when it was signed (virtual time).
    private var cachedToken: (signedAt: VirtualTime, token: String)?
    /// How long a token the SDK signs is valid: 20 minutes (NH-DOTNET
    /// `Auth/SharedAccessSignatureTokenProvider.cs`, `DefaultTokenTimeout`).
    static let tokenTimeToLive = VirtualDuration.minutes(20)
    /// How long the SDK keeps a token in its cache: its lifetime less a 2-minute refresh margin
    /// (`DefaultTokenRefreshTimeMargin`), counted from signing (NH-DOTNET `Auth/TokenProvider.cs`:
    /// absolute expiration), so a token is never sent in the last two minutes of its life.
    static let tokenCacheTime = VirtualDuration.minutes(18)

    /// Parses `Endpoint=sb://<ns>.servicebus.windows.net/;SharedAccessKeyName=…;SharedAccessKey=…`.
    /// Nil when a part is missing.
    public init?(connectionString: String, hubPath: String, world: World, caller: String) {
        var parts: [String: String] = [:]
        for (key, value) in ASCIIText.keyValuePairs(connectionString, separator: UInt8(ascii: ";")) { parts[key] = value }
        guard let endpoint = parts["Endpoint"], let keyName = parts["SharedAccessKeyName"], let key = parts["SharedAccessKey"],
              let scheme = endpoint.byteOffset(of: "://") else { return nil }
        self.host = String(decoding: endpoint.utf8.dropFirst(scheme + 3).prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self)
        self.keyName = keyName
        self.key = key
        self.hubPath = hubPath
        self.world = world
        self.caller = caller
        self.resource = "https://\(self.host)/\(hubPath)"
    }

    // MARK: Registrations

    /// `POST /registrationids` → the id from `Location`. The SDK writes the path so, lower case and
    /// without the slash of the REST pages' `registrationIDs/`, and reads the id only from a
    /// `Location` whose path is `/<hub>/registrationids/<id>` (NH-DOTNET `CreateRegistrationIdAsync`);
    /// any other answer gives it no id, which PushSim reports as a `MessagingException`.
    public func createRegistrationId(_ completion: @escaping (Result<String, HubError>) -> Void) {
        send("POST", "registrationids", expect: 201) { result in
            completion(result.flatMap { r in
                guard let id = Self.registrationID(inLocation: r.headers["Location"]) else {
                    return .failure(HubError(kind: .messaging, status: r.status, detail: "no registration id in the answer"))
                }
                return .success(id)
            })
        }
    }

    /// The id in `https://<host>/<hub>/registrationids/<id>?…`: the URL's path must have exactly
    /// three segments, the second `registrationids` in any case (the SDK's `location.Segments`
    /// check); nil otherwise.
    static func registrationID(inLocation location: String?) -> String? {
        guard let location, let scheme = location.byteOffset(of: "://") else { return nil }
        let afterScheme = location.utf8.dropFirst(scheme + 3)
        guard let slash = afterScheme.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let path = afterScheme[slash...].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        // `/<hub>/registrationids/<id>` splits into "", the hub, `registrationids` and the id.
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == 4, !segments[3].isEmpty,
              segments[2].elementsEqual(registrationIDsSegment, by: { $0.asciiLowercased == $1 }) else { return nil }
        return String(Substring(segments[3]))
    }

    private static let registrationIDsSegment = Array("registrationids".utf8)

    /// `GET /registrations/?$filter=ChannelUri eq '<handle>'&$top=<top>` (the .NET and Java SDKs
    /// filter on `ChannelUri` whatever the platform; the hub matches the handle): the first page.
    /// A blank handle throws `ArgumentNullException` (`pnsHandle`), as in the SDK.
    public func getRegistrationsByChannel(_ handle: String, top: Int,
                                          _ completion: @escaping (Result<[RegistrationDescription], HubError>) -> Void) {
        if isBlank(handle) { return refuse("pnsHandle", completion) }
        readPage("registrations/", filter: Self.channelFilter(handle), continuationToken: "", top: top) { completion($0.flatMap(Self.feed)) }
    }

    /// ``getRegistrationsByChannel(_:top:_:)`` from the page `continuationToken` names (empty or
    /// blank: the first), with the token for the next page (the SDK's
    /// `GetRegistrationsByChannelAsync(pnsHandle, continuationToken, top)`).
    public func getRegistrationsByChannel(_ handle: String, continuationToken: String, top: Int,
                                          _ completion: @escaping (Result<RegistrationPage, HubError>) -> Void) {
        if isBlank(handle) { return refuse("pnsHandle", completion) }
        readPage("registrations/", filter: Self.channelFilter(handle), continuationToken: continuationToken, top: top) { completion($0.flatMap(Self.page)) }
    }

    /// `GET /registrations/?$top=<top>`: every registration, oldest first (the SDK's
    /// `GetAllRegistrationsAsync`); 200 with an Atom feed expected. The first page.
    public func getAllRegistrations(top: Int, _ completion: @escaping (Result<[RegistrationDescription], HubError>) -> Void) {
        readPage("registrations/", continuationToken: "", top: top) { completion($0.flatMap(Self.feed)) }
    }

    /// ``getAllRegistrations(top:_:)`` from the page `continuationToken` names (empty or blank:
    /// the first), with the token for the next page (the SDK's
    /// `GetAllRegistrationsAsync(continuationToken, top)`).
    public func getAllRegistrations(continuationToken: String, top: Int,
                                    _ completion: @escaping (Result<RegistrationPage, HubError>) -> Void) {
        readPage("registrations/", continuationToken: continuationToken, top: top) { completion($0.flatMap(Self.page)) }
    }

    /// `GET /tags/<tag>/registrations?$top=<top>`: the registrations carrying `tag` (the SDK's
    /// `GetRegistrationsByTagAsync`); 200 with an Atom feed expected. The first page. A blank tag
    /// throws `ArgumentNullException` (`tag`), as in the SDK.
    public func getRegistrationsByTag(_ tag: String, top: Int,
                                      _ completion: @escaping (Result<[RegistrationDescription], HubError>) -> Void) {
        if isBlank(tag) { return refuse("tag", completion) }
        readPage("tags/\(percentEncode(tag))/registrations", continuationToken: "", top: top) { completion($0.flatMap(Self.feed)) }
    }

    /// ``getRegistrationsByTag(_:top:_:)`` from the page `continuationToken` names (empty or
    /// blank: the first), with the token for the next page (the SDK's
    /// `GetRegistrationsByTagAsync(tag, continuationToken, top)`).
    public func getRegistrationsByTag(_ tag: String, continuationToken: String, top: Int,
                                      _ completion: @escaping (Result<RegistrationPage, HubError>) -> Void) {
        if isBlank(tag) { return refuse("tag", completion) }
        readPage("tags/\(percentEncode(tag))/registrations", continuationToken: continuationToken, top: top) { completion($0.flatMap(Self.page)) }
    }

    /// The `$filter` the SDKs write for the registrations of a handle.
    private static func channelFilter(_ handle: String) -> (String, String) { ("$filter", "ChannelUri eq '\(handle)'") }

    /// `GET <relative>` for one page of a listing, as the SDK asks for it (`GetAllEntitiesImplAsync`):
    /// `$top` only when above zero, the token (as the hub sent it, which the query carries as it is)
    /// only when not blank; `completion` gets the answer read by ``feed(_:)`` or ``page(_:)``.
    private func readPage(_ relative: String, filter: (String, String)? = nil, continuationToken: String, top: Int,
                          _ completion: @escaping (Result<HTTPResponse, HubError>) -> Void) {
        var query: [(String, String)] = []
        query.reserveCapacity(3)
        if let filter { query.append(filter) }
        if top > 0 { query.append(("$top", String(top))) }
        // The header's value is already percent-encoded; the query's values are encoded on the wire.
        if !isBlank(continuationToken) { query.append((ContinuationToken.queryName, percentDecode(continuationToken))) }
        send("GET", relative, query: query, expect: 200, completion)
    }

    /// The registrations of an Atom feed answer.
    private static func feed(_ r: HTTPResponse) -> Result<[RegistrationDescription], HubError> {
        AtomRegistration.parseFeed(r.body).map { .success($0) }
            ?? .failure(HubError(kind: .messaging, status: r.status, detail: "the feed could not be read"))
    }

    /// The registrations of an Atom feed answer and the token for the next page (`x-ms-continuationtoken`).
    private static func page(_ r: HTTPResponse) -> Result<RegistrationPage, HubError> {
        feed(r).map { RegistrationPage(registrations: $0, continuationToken: r.headers[ContinuationToken.headerName]) }
    }

    /// `POST /registrations` with the description as an Atom entry: the SDK's
    /// `CreateRegistrationAsync`, for which the hub picks the id. The SDK throws `ArgumentException`
    /// for a description that already has an id (NH-DOTNET `CreateRegistrationAsync`).
    public func createRegistration(_ description: RegistrationDescription,
                                   _ completion: @escaping (Result<RegistrationDescription, HubError>) -> Void) {
        if let id = description.registrationID, !isBlank(id) {
            return refuse("registration.RegistrationId should be null or empty", completion)
        }
        send("POST", "registrations", headers: [("Content-Type", Self.atomEntryType)], body: AtomRegistration.requestBody(description),
             expect: [200, 201]) { result in
            completion(result.flatMap { r in
                AtomRegistration.parseEntry(r.body).mapError { HubError(kind: .messaging, status: r.status, detail: $0.description) }
            })
        }
    }

    /// The `Content-Type` of a registration's Atom entry as the SDK writes it: `StringContent`'s
    /// media type and charset, then the `type` parameter it adds (NH-DOTNET `AddEntityToRequestContent`).
    /// The entry itself is PushSim's own writing: the SDK's has no XML declaration and a nil
    /// `RegistrationId` element, which the hub reads alike.
    static let atomEntryType = "application/atom+xml; charset=utf-8; type=entry"

    /// `PUT /registrations/<id>` with the description as an Atom entry, without `If-Match`: create or
    /// overwrite (the SDK's `CreateOrUpdateRegistrationAsync` sends none). 200 and 201 are success,
    /// as for the SDK (`CreateOrUpdateRegistrationImplAsync`).
    public func createOrUpdateRegistration(_ description: RegistrationDescription,
                                           _ completion: @escaping (Result<RegistrationDescription, HubError>) -> Void) {
        putRegistration(description, ifMatch: nil, completion)
    }

    /// `PUT /registrations/<id>` with `If-Match: "<etag>"`: the SDK's `UpdateRegistrationAsync`, which
    /// refuses (`ArgumentNullException`) a description without a registration id or ETag, and quotes
    /// the ETag (NH-DOTNET). The hub answers 412 when the registration has changed since.
    public func updateRegistration(_ description: RegistrationDescription,
                                   _ completion: @escaping (Result<RegistrationDescription, HubError>) -> Void) {
        updateRegistrationAnswered(description) { completion($0.map(\.registration)) }
    }

    /// ``updateRegistration(_:_:)`` that also gives the status the hub answered with (200 or 201,
    /// which the SDK hides): for callers inside PushSim that report the call as the wire saw it.
    package func updateRegistrationAnswered(_ description: RegistrationDescription,
                                            _ completion: @escaping (Result<(registration: RegistrationDescription, status: Int), HubError>) -> Void) {
        guard let etag = description.etag, !etag.isEmpty else { return refuse("registration.ETag", completion) }
        putRegistration(description, ifMatch: "\"\(etag)\"", completion)
    }

    private func putRegistration(_ description: RegistrationDescription, ifMatch: String?,
                                 _ completion: @escaping (Result<RegistrationDescription, HubError>) -> Void) {
        putRegistration(description, ifMatch: ifMatch) { completion($0.map(\.registration)) }
    }

    private func putRegistration(_ description: RegistrationDescription, ifMatch: String?,
                                 _ completion: @escaping (Result<(registration: RegistrationDescription, status: Int), HubError>) -> Void) {
        guard let id = description.registrationID else {
            world.schedule(after: .zero) {
                completion(.failure(HubError(kind: .badRequest, status: nil, detail: "RegistrationId is required")))
            }
            return
        }
        var headers = [("Content-Type", Self.atomEntryType)]
        if let ifMatch { headers.append(("If-Match", ifMatch)) }
        send("PUT", String.concatenating("registrations/", id), headers: headers, body: AtomRegistration.requestBody(description), expect: [200, 201]) { result in
            completion(result.flatMap { r in
                AtomRegistration.parseEntry(r.body).map { ($0, r.status) }
                    .mapError { HubError(kind: .messaging, status: r.status, detail: $0.description) }
            })
        }
    }

    /// `GET /registrations/<id>`.
    public func getRegistration(_ id: String, _ completion: @escaping (Result<RegistrationDescription, HubError>) -> Void) {
        send("GET", "registrations/\(id)", expect: 200) { result in
            completion(result.flatMap { r in
                AtomRegistration.parseEntry(r.body).mapError { HubError(kind: .messaging, status: r.status, detail: $0.description) }
            })
        }
    }

    /// `DELETE /registrations/<id>` with `If-Match: *`, or `If-Match: "<etag>"` when an ETag is given
    /// (the SDK's `DeleteRegistrationAsync(id)` and `DeleteRegistrationAsync(id, etag)`); 200 expected.
    public func deleteRegistration(_ id: String, etag: String? = nil, _ completion: @escaping (Result<Void, HubError>) -> Void) {
        let ifMatch = etag.map { $0.isEmpty ? "*" : "\"\($0)\"" } ?? "*"
        send("DELETE", "registrations/\(id)", headers: [("If-Match", ifMatch)], expect: 200) { completion($0.map { _ in () }) }
    }

    // MARK: Sends

    /// Native APNs send to a tag list: the SDK's `SendAppleNativeNotificationAsync(payload, tags)`,
    /// which sends the tags joined with `||` and throws `ArgumentException` for an empty list.
    public func sendAppleNativeNotification(_ payload: String, tags: [String],
                                            _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: "apple", payload: payload, tags: tags, completion)
    }

    /// Native APNs send to every registration: `SendAppleNativeNotificationAsync(payload)`.
    public func sendAppleNativeNotification(_ payload: String, _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: "apple", payload: payload, expression: nil, completion)
    }

    /// Native FCM v1 send to a tag list (as ``sendAppleNativeNotification(_:tags:_:)``);
    /// `payload` is `{"message":{…}}` without a token.
    public func sendFcmV1NativeNotification(_ payload: String, tags: [String],
                                            _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: "fcmv1", payload: payload, tags: tags, completion)
    }

    /// Native FCM v1 send to every registration: `SendFcmV1NativeNotificationAsync(payload)`.
    public func sendFcmV1NativeNotification(_ payload: String, _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: "fcmv1", payload: payload, expression: nil, completion)
    }

    /// Native WNS send to a tag list (as ``sendAppleNativeNotification(_:tags:_:)``). Like the
    /// SDK's `WindowsNotification`, the `X-WNS-Type` is taken from the payload's root element
    /// (``NotificationPayload/wnsType(of:)``); a payload that is not toast, tile, badge or raw
    /// XML makes the SDK throw `ArgumentException` before any request is sent.
    public func sendWindowsNativeNotification(_ payload: String, tags: [String],
                                              _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: "windows", payload: payload, tags: tags, completion)
    }

    /// Native WNS send to every registration: `SendWindowsNativeNotificationAsync(payload)`.
    public func sendWindowsNativeNotification(_ payload: String, _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: "windows", payload: payload, expression: nil, completion)
    }

    /// A native send to a list of tags: the SDK makes the notification first (a blank payload
    /// throws), then refuses an empty list with `ArgumentException` and sends the others as
    /// `string.Join("||", tags)` (NH-DOTNET `SendNotificationAsync(notification, tags)`).
    private func sendNative(format: String, payload: String, tags: [String],
                            _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        // The payload's own check is the expression path's; only an empty list needs it first here.
        guard !tags.isEmpty else {
            return refuse(isBlank(payload) ? Self.payloadParameter(format) : "tags argument should contain at least one value", completion)
        }
        sendNative(format: format, payload: payload, expression: tags.joined(separator: "||"), completion)
    }

    /// The parameter an `ArgumentNullException` for a blank payload names: `payLoad` in
    /// `WindowsNotification`, `jsonPayload` in the others.
    static func payloadParameter(_ format: String) -> String { format == "windows" ? "payLoad" : "jsonPayload" }

    /// The parameter the SDK's notification class names when it throws `ArgumentNullException`
    /// for a blank payload (`AppleNotification`, `FcmV1Notification`, `WindowsNotification`), or
    /// nil when `payload` is not blank or has another format.
    func blankPayloadParameter(_ payload: NotificationPayload) -> String? {
        ["apple", "fcmv1", "windows"].contains(payload.format) && isBlank(payload.body) ? Self.payloadParameter(payload.format) : nil
    }

    /// Whether .NET's `string.IsNullOrWhiteSpace` holds: empty, or only characters with Unicode's
    /// White_Space property (the set of `char.IsWhiteSpace`).
    func isBlank(_ text: String) -> Bool {
        // A payload's first byte (`{`, `<`) settles it without a Unicode table lookup.
        if let first = text.utf8.first, first < 0x80, first != 0x20, !(0x09...0x0D).contains(first) { return false }
        for b in text.utf8 {
            if b >= 0x80 { return text.unicodeScalars.allSatisfy(\.properties.isWhitespace) }
            if b != 0x20 && !(0x09...0x0D).contains(b) { return false }
        }
        return true
    }

    /// The SDK's `ArgumentException` for a Windows payload ``NotificationPayload/wnsType(of:)``
    /// refuses, with the SDK's message (NH-DOTNET `SRClient.resx`, `NotSupportedXMLFormatAsPayload`).
    private func refuseWindowsPayload(_ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        world.record(layer: "hub-client", host: caller, kind: .sdkArgumentException,
                     [.why: "the Windows payload is not toast, tile, badge or raw XML"])
        refuse("The payload is not in accepted XML format. The first node should be Badge/Tile/Toast. "
               + "If want to send raw notification, please set header to wns/raw.", completion)
    }

    /// Fails `completion` on the next turn, the way the SDK throws before sending anything.
    func refuse<T>(_ detail: String, kind: HubError.Kind = .argument, _ completion: @escaping (Result<T, HubError>) -> Void) {
        world.schedule(after: .zero) { completion(.failure(HubError(kind: kind, status: nil, detail: detail))) }
    }

    /// Native send to a tag expression (the SDK's `SendNotificationAsync(notification, tagExpression)`);
    /// nil, empty or blank sends to everyone, as the SDK then sends no tags header. `format` is
    /// `apple`, `fcmv1` or `windows` (X-WNS-Type from the root, as above).
    public func sendNativeNotification(format: String, payload: String, tagExpression: String?,
                                       _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        sendNative(format: format, payload: payload, expression: tagExpression, completion)
    }

    /// The SDK's native send: the notification's own checks (a blank payload throws
    /// `ArgumentNullException`, a Windows payload is typed by its root), then `POST messages/`
    /// with the media type alone as `Content-Type` (the SDK drops the charset parameter:
    /// `ParseContentType`, then `new MediaTypeHeaderValue(mediaType)`) and the tag expression
    /// unless it is blank (NH-DOTNET `SendNotificationImplAsync`).
    private func sendNative(format: String, payload: String, expression: String?,
                            _ completion: @escaping (Result<NotificationOutcome, HubError>) -> Void) {
        guard !isBlank(payload) else { return refuse(Self.payloadParameter(format), completion) }
        var headers: [(String, String)] = []
        headers.reserveCapacity(4)
        headers.append(("ServiceBusNotification-Format", format))
        if format == "windows" {
            guard let type = NotificationPayload.wnsType(of: payload) else { return refuseWindowsPayload(completion) }
            headers.append(("Content-Type", "application/xml"))
            headers.append(("X-WNS-Type", type))
        } else {
            headers.append(("Content-Type", "application/json"))
        }
        if let expression, !isBlank(expression) { headers.append(("ServiceBusNotification-Tags", expression)) }
        send("POST", "messages/", headers: headers, body: Array(payload.utf8), expect: Self.sendSuccess) { [self] result in
            completion(result.flatMap { outcome(of: $0) })
        }
    }

    /// What the SDK takes as a successful send, test sends included: 200 or 201
    /// (`SendNotificationImplAsync`, NH-DOTNET; see ``SendAcceptedStatus``).
    static let sendSuccess = [200, 201]

    /// `Enqueued` with the id from `Location`; for a test send, the outcome in the body.
    func outcome(of r: HTTPResponse) -> Result<NotificationOutcome, HubError> {
        if enableTestSend {
            return NotificationHub.parseTestOutcome(r.body).map { var o = $0; o.httpStatus = r.status; return .success(o) }
                ?? .failure(HubError(kind: .messaging, status: r.status, detail: "the test send outcome could not be read"))
        }
        return .success(NotificationOutcome(state: .enqueued, notificationID: Self.lastSegment(r.headers["Location"]), trackingID: nil,
                                            httpStatus: r.status))
    }

    /// The last path segment of a URL (`…/messages/NH-…-05?api-version=…` → `NH-…-05`).
    static func lastSegment(_ url: String?) -> String? {
        guard let url else { return nil }
        switch ASCIIText.lastPathSegment(url) {
        case .segment(let s): return s
        case .none: return nil
        case .nonASCII: return url.split(separator: "?").first?.split(separator: "/").last.map(String.init)
        }
    }

    /// The SAS token for requests made now, as the .NET SDK's token provider gives it: from its
    /// cache while the cached one is under 18 minutes old, else newly signed, valid for 20.
    func sasToken() -> String {
        let now = world.now
        if let cached = cachedToken, now < cached.signedAt + Self.tokenCacheTime { return cached.token }
        let expiresAt = world.anchor.unixSeconds(now) + Self.tokenTimeToLive.microseconds / 1_000_000
        let token = SharedAccessSignature.token(resource: resource, keyName: keyName, key: key, expiresAtUnixSeconds: expiresAt)
        cachedToken = (now, token)
        return token
    }

    // MARK: Transport

    func send(_ method: String, _ relative: String, query: [(String, String)] = [], headers: [(String, String)] = [],
              body: [UInt8] = [], expect: Int, _ completion: @escaping (Result<HTTPResponse, HubError>) -> Void) {
        send(method, relative, query: query, headers: headers, body: body, expect: [expect], completion)
    }

    /// As above, any status of `expect` being success.
    func send(_ method: String, _ relative: String, query: [(String, String)] = [], headers: [(String, String)] = [],
              body: [UInt8] = [], expect: [Int], _ completion: @escaping (Result<HTTPResponse, HubError>) -> Void) {
        // Headers and query items are collected into arrays made once at their final size.
        var all = HTTPHeaders(minimumCapacity: 2 + headers.count)
        all.add("Authorization", sasToken())
        all.add("x-ms-version", "2015-01")
        for (n, v) in headers { all.add(n, v) }
        var items: [(String, String)] = []
        items.reserveCapacity(query.count + 2)
        if !query.contains(where: { $0.0 == "api-version" }) { items.append(("api-version", Self.apiVersion)) }
        items += query
        if enableTestSend { items.append(("test", "")) }
        let request = HTTPRequest(method: method, authority: host, path: String.concatenating("/", hubPath, "/", relative),
                                  query: items, headers: all, body: body)
        // The SDK's default operation timeout is 60 s (NH-DOTNET).
        world.call(request, from: caller, timeout: .seconds(60)) { result in
            if let r = result.response, expect.contains(r.status) { completion(.success(r)) } else { completion(.failure(HubError(result))) }
        }
    }
}

import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

/// A world with the fake APNs, one provider and one iPhone whose app has a production token.
final class APNsBench {
    static let bundle = "com.example.notes"
    let world: World
    let apns: APNsService
    /// The provider's `.p8` key, and a key Apple does not have for its key id.
    static let privateKey = DerivedKeyMemo.p256Key(derivedFrom: "APNs bench key")
    static let otherKey = DerivedKeyMemo.p256Key(derivedFrom: "APNs bench: a key Apple does not have")
    let key = APNsSigningKey(keyID: "KEY1234567", teamID: "TEAM123456", privateKey: APNsBench.privateKey)
    let provider: Probe
    let phone: FakeDevice
    /// The phone's production token for ``bundle``.
    var token = ""
    private var providerToken: (jwt: String, iat: Int64)?

    init(seed: UInt64 = 11, unregisteredReportDelay: VirtualDuration = .zero) {
        world = World(seed: seed)
        apns = APNsService(world: world, configuration: APNsConfiguration(keys: [key], unregisteredReportDelay: unregisteredReportDelay))
        provider = Probe(world: world)
        phone = FakeDevice(world: world, name: "iphone", serviceHost: APNsService.deviceHost)
        token = phone.register(app: Self.bundle, environment: "production")
    }

    var unixNow: Int64 { world.anchor.unixSeconds(world.now) }

    /// A provider token (JWT, ES256) signed with `signingKey`; by default the bench's key, issued now.
    func jwt(iat: Int64? = nil, kid: String? = nil, team: String? = nil, signingKey: P256PrivateKey? = nil) -> String {
        JSONWebToken.make(header: ["alg": "ES256", "kid": .string(kid ?? key.keyID)],
                          claims: ["iss": .string(team ?? key.teamID), "iat": .number(JSONNumber(iat ?? unixNow))],
                          signingKey: signingKey ?? Self.privateKey)
    }

    /// The provider's token, renewed after 55 minutes as APNSwift does (never more often than 20 minutes).
    func currentJWT() -> String {
        if let t = providerToken, unixNow - t.iat < 55 * 60 { return t.jwt }
        providerToken = (jwt(), unixNow)
        return providerToken!.jwt
    }

    func request(to token: String? = nil, topic: String? = APNsBench.bundle, headers: [(String, String)] = [],
                 body: String = #"{"aps":{"alert":"Hello"}}"#, auth: Auth = .current,
                 host: String = APNsService.productionHost, method: String = "POST", path: String? = nil) -> HTTPRequest {
        var h = HTTPHeaders()
        switch auth {
        case .current: h.add("authorization", "bearer " + currentJWT())
        case .missing: break
        case .header(let value): h.add("authorization", value)
        }
        if let topic { h.add("apns-topic", topic) }
        for (n, v) in headers { h.add(n, v) }
        return HTTPRequest(method: method, authority: host, path: path ?? "/3/device/" + (token ?? self.token), headers: h, body: Array(body.utf8))
    }

    /// Sends one provider request and returns APNs' answer.
    func send(to token: String? = nil, topic: String? = APNsBench.bundle, headers: [(String, String)] = [],
              body: String = #"{"aps":{"alert":"Hello"}}"#, auth: Auth = .current,
              host: String = APNsService.productionHost, method: String = "POST", path: String? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) -> HTTPResponse {
        provider.roundTrip(request(to: token, topic: topic, headers: headers, body: body, auth: auth, host: host, method: method, path: path),
                           in: world, sourceLocation: sourceLocation)
    }
}

/// `{"aps":{"alert":"…"}}` padded to exactly `bytes` UTF-8 bytes.
func apnsPayload(bytes: Int) -> String {
    let frame = #"{"aps":{"alert":""}}"#
    return #"{"aps":{"alert":""# + filler(bytes - frame.utf8.count) + #""}}"#
}

@Suite("APNs provider API: errors (Citations §1.2–§1.7)")
struct APNsErrorTests {
    /// Expects an APNs error answer: `status`, body exactly `{"reason":"<reason>"}`, JSON content type.
    func expectRejected(_ r: HTTPResponse, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, sourceLocation: sourceLocation)
        #expect(r.bodyText == #"{"reason":"\#(reason)"}"#, sourceLocation: sourceLocation)
        #expect(r.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
    }

    /// The header lookup by length finds what comparing with every known name finds: each known
    /// name in random letter case, names of the same lengths, and random names.
    @Test func headersFastPathAgreesWithComparingEveryName() {
        var random = SeededRandom(seed: 20261128)
        let known = APNsRequestHeaders.names
        var names = known + ["content-type", "apns-ids", "apns-idx", "authorizatio", "apns-prioritx", "x-apns-topic", "", "apns-collapse-i"]
        for _ in 0..<2_000 {
            let base = random.pick(known)!
            names.append(String(decoding: base.utf8.map { random.chance(Ratio(1, 2)) && $0 &- UInt8(ascii: "a") < 26 ? $0 & 0xDF : $0 }, as: UTF8.self))
            names.append(random.string(count: base.utf8.count, from: "aeinoprstyz-ABC"))
        }
        for name in names {
            #expect(APNsHeadersFastPath.index(of: name) == known.firstIndex(where: { sameFieldName($0, name) }), "\(name)")
        }
    }

    /// The fast path's read keeps each known header's value under its name, and a known name twice
    /// (in any case) gives nil, what `DuplicateHeaders` answers.
    @Test func headersFastPathReadsEachKnownHeaderOnce() {
        let read = APNsHeadersFastPath.read(["APNS-Topic": "a.b", "apns-id": "x", "content-type": "y", "apns-collapse-id": "c"])
        #expect(read?.topic == "a.b" && read?.apnsID == "x" && read?.collapseID == "c" && read?.priority == nil)
        var twice = HTTPHeaders()
        twice.add("apns-priority", "10")
        twice.add("APNS-PRIORITY", "5")
        #expect(APNsHeadersFastPath.read(twice) == nil)
    }

    @Test func collapseIdOver64BytesIsBadCollapseId() {
        let bench = APNsBench()
        expectRejected(bench.send(headers: [("apns-collapse-id", filler(65))]), 400, "BadCollapseId")
        #expect(bench.send(headers: [("apns-collapse-id", filler(64))]).status == 200)
        // 64 bytes, not 64 characters: 33 two-byte characters are 66 bytes.
        expectRejected(bench.send(headers: [("apns-collapse-id", String(repeating: "é", count: 33))]), 400, "BadCollapseId")
    }

    @Test func malformedTokenIsBadDeviceToken() {
        let bench = APNsBench()
        expectRejected(bench.send(to: "zz" + String(bench.token.dropFirst(2))), 400, "BadDeviceToken")
        expectRejected(bench.send(to: String(bench.token.dropLast())), 400, "BadDeviceToken") // odd length
    }

    @Test func unknownTokenIsBadDeviceToken() {
        let bench = APNsBench()
        expectRejected(bench.send(to: String(repeating: "ab", count: 32)), 400, "BadDeviceToken")
    }

    @Test func sandboxTokenOnProductionHostIsBadDeviceToken() {
        let bench = APNsBench()
        let sandboxPhone = FakeDevice(world: bench.world, name: "dev-iphone", serviceHost: APNsService.deviceHost)
        let sandboxToken = sandboxPhone.register(app: APNsBench.bundle, environment: "sandbox")
        expectRejected(bench.send(to: sandboxToken, host: APNsService.productionHost), 400, "BadDeviceToken")
        #expect(bench.send(to: sandboxToken, host: APNsService.sandboxHost).status == 200)
        #expect(bench.send(to: sandboxToken, host: APNsService.developmentAlias).status == 200)
        // And the other way round: a production token on the sandbox host.
        expectRejected(bench.send(host: APNsService.sandboxHost), 400, "BadDeviceToken")
    }

    /// The development environment answers an accepted push with an `apns-unique-id` too (a
    /// UUID for the Push Notifications Console, A-RESP); production does not. Before, neither did.
    @Test func onlyTheDevelopmentEnvironmentAnswersWithAUniqueID() {
        let bench = APNsBench()
        let sandboxPhone = FakeDevice(world: bench.world, name: "dev-iphone", serviceHost: APNsService.deviceHost)
        let sandboxToken = sandboxPhone.register(app: APNsBench.bundle, environment: "sandbox")
        let first = bench.send(to: sandboxToken, host: APNsService.sandboxHost)
        let second = bench.send(to: sandboxToken, host: APNsService.sandboxHost)
        #expect(isLowercaseUUIDv4(first.headers["apns-unique-id"] ?? "") && isLowercaseUUIDv4(second.headers["apns-unique-id"] ?? ""))
        #expect(first.headers["apns-unique-id"] != second.headers["apns-unique-id"] && first.headers["apns-id"] != nil)
        #expect(bench.send().headers["apns-unique-id"] == nil)
    }

    @Test func upperCaseHexIsTheSameToken() {
        // Upper-case hex is the same token (the fake accepts either case, §1.5).
        let bench = APNsBench()
        #expect(bench.send(to: bench.token.uppercased()).status == 200)
    }

    @Test(arguments: ["soon", "-1", "1.5", ""])
    func unusableExpirationIsBadExpirationDate(value: String) {
        let bench = APNsBench()
        expectRejected(bench.send(headers: [("apns-expiration", value)]), 400, "BadExpirationDate")
    }

    @Test(arguments: ["not-a-uuid", "3f1c2d4e8a9b4c7d9e0f112233445566", "3f1c2d4e-8a9b-4c7d-9e0f-11223344556g", "3f1c2d4e-8a9b-4c7d-9e0f-1122334455"])
    func malformedApnsIdIsBadMessageId(value: String) {
        let bench = APNsBench()
        let r = bench.send(headers: [("apns-id", value)])
        expectRejected(r, 400, "BadMessageId")
    }

    @Test(arguments: ["7", "0", "high", "11"])
    func priorityOutsideTen5And1IsBadPriority(value: String) {
        let bench = APNsBench()
        expectRejected(bench.send(headers: [("apns-priority", value)]), 400, "BadPriority")
    }

    @Test func backgroundPushWithPriority10IsBadPriority() {
        let bench = APNsBench()
        let silent = #"{"aps":{"content-available":1}}"#
        expectRejected(bench.send(headers: [("apns-push-type", "background"), ("apns-priority", "10")], body: silent), 400, "BadPriority")
        #expect(bench.send(headers: [("apns-push-type", "background"), ("apns-priority", "5")], body: silent).status == 200)
        #expect(bench.phone.pushes.last?.headers["apns-priority"] == "5")
    }

    @Test func voipPushWithoutVoipSuffixIsBadTopic() {
        let bench = APNsBench()
        expectRejected(bench.send(headers: [("apns-push-type", "voip")]), 400, "BadTopic")
        expectRejected(bench.send(topic: APNsBench.bundle + ".complication", headers: [("apns-push-type", "voip")]), 400, "BadTopic")
        #expect(bench.send(topic: APNsBench.bundle + ".voip", headers: [("apns-push-type", "voip")]).status == 200)
    }

    @Test func tokenOfAnotherAppIsDeviceTokenNotForTopic() {
        let bench = APNsBench()
        expectRejected(bench.send(topic: "com.example.other"), 400, "DeviceTokenNotForTopic")
        // The topic must be the app's id exactly (plus the push type's suffix): not a longer or
        // shorter id that shares its start, nor one of the same length.
        expectRejected(bench.send(topic: APNsBench.bundle + "x"), 400, "DeviceTokenNotForTopic")
        expectRejected(bench.send(topic: String(APNsBench.bundle.dropLast())), 400, "DeviceTokenNotForTopic")
        expectRejected(bench.send(topic: String(APNsBench.bundle.dropLast()) + "#"), 400, "DeviceTokenNotForTopic")
    }

    /// Bytes next to the hex ranges in ASCII are not hex digits.
    @Test(arguments: ["g", "G", "@", "`", "/", ":", "é"])
    func tokenWithANonHexCharacterIsBadDeviceToken(character: String) {
        let bench = APNsBench()
        let token = String(bench.token.dropFirst(character.utf8.count)) + character
        expectRejected(bench.send(to: token), 400, "BadDeviceToken")
    }

    @Test func repeatedHeaderIsDuplicateHeaders() {
        let bench = APNsBench()
        expectRejected(bench.send(headers: [("apns-topic", APNsBench.bundle)]), 400, "DuplicateHeaders")
        expectRejected(bench.send(headers: [("apns-priority", "10"), ("APNS-PRIORITY", "10")]), 400, "DuplicateHeaders")
    }

    @Test(arguments: ["banner", "Alert", ""])
    func unknownPushTypeIsInvalidPushType(value: String) {
        let bench = APNsBench()
        expectRejected(bench.send(headers: [("apns-push-type", value)]), 400, "InvalidPushType")
    }

    @Test(arguments: ["/3/device/", "/3/device"])
    func pathWithoutTokenIsMissingDeviceToken(path: String) {
        let bench = APNsBench()
        expectRejected(bench.send(path: path), 400, "MissingDeviceToken")
    }

    @Test func absentTopicIsMissingTopic() {
        let bench = APNsBench()
        expectRejected(bench.send(topic: nil), 400, "MissingTopic")
        expectRejected(bench.send(topic: ""), 400, "MissingTopic")
    }

    @Test func emptyBodyIsPayloadEmpty() {
        let bench = APNsBench()
        expectRejected(bench.send(body: ""), 400, "PayloadEmpty")
    }

    @Test func noAuthorizationIsMissingProviderToken() {
        let bench = APNsBench()
        expectRejected(bench.send(auth: .missing), 403, "MissingProviderToken")
        expectRejected(bench.send(auth: .header("")), 403, "MissingProviderToken")
    }

    @Test func providerTokenWithBadSignatureIsInvalidProviderToken() {
        let bench = APNsBench()
        expectRejected(bench.send(auth: .header("bearer " + bench.jwt(signingKey: APNsBench.otherKey))), 403, "InvalidProviderToken")
        // A claim changed after signing.
        let parts = bench.jwt().split(separator: ".")
        let forged = parts[0] + "." + Base64URL.encode(#"{"iss":"TEAM123456","iat":\#(bench.unixNow + 1)}"#) + "." + parts[2]
        expectRejected(bench.send(auth: .header("bearer " + forged)), 403, "InvalidProviderToken")
        expectRejected(bench.send(auth: .header("bearer not.a.jwt")), 403, "InvalidProviderToken")
        expectRejected(bench.send(auth: .header("basic " + bench.jwt())), 403, "InvalidProviderToken")
    }

    @Test func providerTokenWithUnknownKeyIdIsInvalidProviderToken() {
        let bench = APNsBench()
        expectRejected(bench.send(auth: .header("bearer " + bench.jwt(kid: "KEY7654321"))), 403, "InvalidProviderToken")
    }

    @Test func providerTokenOfAnotherTeamIsInvalidProviderToken() {
        let bench = APNsBench()
        expectRejected(bench.send(auth: .header("bearer " + bench.jwt(team: "OTHERTEAM1"))), 403, "InvalidProviderToken")
    }

    @Test func providerTokenOlderThanOneHourIsExpiredProviderToken() {
        let bench = APNsBench()
        let issued = bench.unixNow
        let token = bench.jwt(iat: issued)
        #expect(bench.send(auth: .header("bearer " + token)).status == 200)
        bench.world.run(until: bench.world.anchor.virtualTime(unixSeconds: issued + 3_600))
        #expect(bench.send(auth: .header("bearer " + token)).status == 200) // exactly one hour old: still valid
        bench.world.advance(by: .seconds(1))
        expectRejected(bench.send(auth: .header("bearer " + token)), 403, "ExpiredProviderToken")
    }

    /// A new provider token within 20 minutes of the last is refused (A-JWT, 429), and keeps being
    /// refused, while the adopted token keeps working; after 20 minutes the change is accepted.
    @Test func changingProviderTokenWithin20MinutesIsTooManyProviderTokenUpdates() {
        let bench = APNsBench()
        let first = bench.jwt()
        #expect(bench.send(auth: .header("bearer " + first)).status == 200)
        bench.world.advance(by: .minutes(5))
        let second = bench.jwt()
        expectRejected(bench.send(auth: .header("bearer " + second)), 429, "TooManyProviderTokenUpdates")
        expectRejected(bench.send(auth: .header("bearer " + second)), 429, "TooManyProviderTokenUpdates")
        #expect(bench.send(auth: .header("bearer " + first)).status == 200)
        bench.world.advance(by: .minutes(16))
        #expect(bench.send(auth: .header("bearer " + second)).status == 200)
        #expect(bench.send(auth: .header("bearer " + second)).status == 200)
    }

    @Test func absurdIssueTimeDoesNotCrash() {
        let bench = APNsBench()
        expectRejected(bench.send(auth: .header("bearer " + bench.jwt(iat: Int64.min))), 403, "ExpiredProviderToken")
    }

    @Test(arguments: ["/3/devices/abc", "/2/device/ab", "/", "/3/device-token/ab"])
    func pathOutsideDeviceIsBadPath(path: String) {
        let bench = APNsBench()
        expectRejected(bench.send(path: path), 404, "BadPath")
    }

    @Test(arguments: ["GET", "PUT", "DELETE"])
    func methodOtherThanPostIsMethodNotAllowed(method: String) {
        let bench = APNsBench()
        expectRejected(bench.send(method: method), 405, "MethodNotAllowed")
    }

    @Test func payloadOver4096BytesIsPayloadTooLarge() {
        let bench = APNsBench()
        #expect(apnsPayload(bytes: 4_096).utf8.count == 4_096)
        #expect(bench.send(body: apnsPayload(bytes: 4_096)).status == 200)
        expectRejected(bench.send(body: apnsPayload(bytes: 4_097)), 413, "PayloadTooLarge")
    }

    @Test func voipPayloadMayReach5120Bytes() {
        let bench = APNsBench()
        let voip: [(String, String)] = [("apns-push-type", "voip")]
        #expect(bench.send(topic: APNsBench.bundle + ".voip", headers: voip, body: apnsPayload(bytes: 5_120)).status == 200)
        expectRejected(bench.send(topic: APNsBench.bundle + ".voip", headers: voip, body: apnsPayload(bytes: 5_121)), 413, "PayloadTooLarge")
    }

    @Test func newProviderTokenWithin20MinutesIsTooManyProviderTokenUpdates() {
        let bench = APNsBench()
        let first = bench.jwt()
        #expect(bench.send(auth: .header("bearer " + first)).status == 200)
        bench.world.advance(by: .minutes(19))
        let second = bench.jwt()
        expectRejected(bench.send(auth: .header("bearer " + second)), 429, "TooManyProviderTokenUpdates")
        #expect(bench.send(auth: .header("bearer " + first)).status == 200) // the adopted token still works
        bench.world.advance(by: .minutes(1))
        #expect(bench.send(auth: .header("bearer " + second)).status == 200) // 20 minutes after the first
        // Each provider host has its own connection: another provider may bring its own token at once.
        let other = Probe(world: bench.world, name: "other-provider")
        let r = other.roundTrip(bench.request(auth: .header("bearer " + bench.jwt(iat: bench.unixNow - 5))), in: bench.world)
        #expect(r.status == 200)
    }

    @Test func rejectionsEchoTheRequestApnsId() {
        let bench = APNsBench()
        let id = "3f1c2d4e-8a9b-4c7d-9e0f-112233445566"
        #expect(bench.send(topic: nil, headers: [("apns-id", id)]).headers["apns-id"] == id)
        #expect(bench.send(headers: [("apns-id", id)], auth: .missing).headers["apns-id"] == id)
        #expect(isLowercaseUUIDv4(bench.send(auth: .missing).headers["apns-id"] ?? ""))
    }
}

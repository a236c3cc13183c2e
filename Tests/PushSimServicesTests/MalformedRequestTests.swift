import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

/// Builds and mutates requests from one seeded stream (never `Int.random`, design rule 4).
struct Fuzzer {
    var random: SeededRandom
    /// Every name the service under test answers to; a mutated request stays on one of them.
    let authorities: [String]
    /// Header names the service reads, so mutations hit real checks.
    let headerNames: [String]

    static let weird: [String] = [
        "", " ", "0", "-1", "1", "5", "10", "3.5s", "0s", "99999999999999999999", "9223372036854775807",
        "-9223372036854775808", "true", "null", "{}", "[]", "\u{0}", "é", "😀", "%ZZ", "a=b&c", "bearer", "Bearer ",
        "wns/toast", "wns/raw", "text/xml", "application/octet-stream", "cache", "no-cache", "ES256", "voip", "background",
        "3f1c2d4e-8a9b-4c7d-9e0f-112233445566", "/3/device/", "<toast/>", String(repeating: "A", count: 5_001),
    ]
    static let alphabet = "abcXYZ019-_.:/?=&%{}[]\"<>& \\é😀"

    mutating func garbage() -> String {
        if random.chance(Ratio(1, 2)) { return random.pick(Self.weird)! }
        return random.string(count: random.int(below: 40), from: Self.alphabet)
    }

    /// A timestamp near `base`, or an extreme value a careless client might sign or send.
    mutating func int64(near base: Int64) -> Int64 {
        switch random.int(below: 6) {
        case 0: return random.pick([Int64.min, Int64.max, Int64.min + 1, Int64.max - 1])!
        case 1: return random.pick([0, -1, 1, 99_999_999_999, -99_999_999_999])!
        case 2: return base - 3_601
        default: return base + random.int(in: -100_000...100_000)
        }
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(random.int(below: 256)) } }

    /// A random JSON value, objects keyed from `keys` (duplicates possible).
    mutating func json(depth: Int = 3, keys: [String]) -> JSONValue {
        switch random.int(below: depth > 0 ? 8 : 5) {
        case 0: return .null
        case 1: return .bool(random.chance(Ratio(1, 2)))
        case 2: return .number(JSONNumber(text: random.pick(["0", "-1", "1", "5", "10", "1.5", "1e400", "9223372036854775808", "-9223372036854775809"])!))
        case 3, 4: return .string(garbage())
        case 5: return .array((0..<random.int(below: 3)).map { _ in json(depth: depth - 1, keys: keys) })
        default:
            return .object((0..<random.int(below: 5)).map { _ in (random.pick(keys)!, json(depth: depth - 1, keys: keys)) })
        }
    }

    /// One to three random changes to `request`.
    mutating func mutate(_ request: HTTPRequest) -> HTTPRequest {
        var r = request
        for _ in 0..<(1 + random.int(below: 3)) {
            var fields = r.headers.fields.map { ($0.name, $0.value) }
            switch random.int(below: 13) {
            case 0: r.method = random.pick(["GET", "PUT", "DELETE", "PATCH", "", "post", "HEAD"])!
            case 1: r.authority = random.pick(authorities)!
            case 2: r.path = String(r.path.prefix(random.int(below: r.path.count + 1)))
            case 3: r.path += garbage()
            case 4: if !fields.isEmpty { fields.remove(at: random.int(below: fields.count)) }
            case 5: if let f = random.pick(fields) { fields.append(f) }
            case 6: if !fields.isEmpty { fields[random.int(below: fields.count)].1 = garbage() }
            case 7: fields.append((random.pick(headerNames)!, garbage()))
            case 8: r.body = Array(r.body.prefix(random.int(below: r.body.count + 1)))
            case 9: if !r.body.isEmpty { r.body[random.int(below: r.body.count)] = UInt8(random.int(below: 256)) }
            case 10: r.body = bytes(random.int(below: 64))
            case 11: r.body = []
            default: r.query = random.chance(Ratio(1, 2)) ? [] : [(name: "token", value: garbage())]
            }
            r.headers = HTTPHeaders(fields)
        }
        return r
    }
}

/// Sends `iterations` requests from `make`, four in five of them mutated, between random pauses
/// and device moves. Every answer must be an HTTP answer with status 2xx or 4xx. Returns the statuses.
func fuzz(_ label: String, seed: UInt64, iterations: Int, world: World, probe: Probe, device: FakeDevice,
          fuzzer: inout Fuzzer, make: (inout Fuzzer) -> HTTPRequest) -> [Int] {
    var statuses: [Int] = []
    for i in 0..<iterations {
        switch fuzzer.random.int(below: 100) {
        case 0..<4: device.goOffline()
        case 4..<8: device.goOnline()
        case 8..<10: device.uninstall()
        case 10..<12: device.reinstall()
        case 12: world.advance(by: .days(31))
        case 13..<18: world.advance(by: .hours(fuzzer.random.int(in: 1...30)))
        default: world.advance(by: .seconds(fuzzer.random.int(in: 0...600)))
        }
        var request = make(&fuzzer)
        if fuzzer.random.chance(Ratio(4, 5)) { request = fuzzer.mutate(request) }
        let r = probe.roundTrip(request, in: world)
        #expect(r.status == 200 || (400..<500).contains(r.status),
                "\(label) seed \(seed) request #\(i): \(request.method) \(request.authority)\(request.target) → \(r.status)")
        statuses.append(r.status)
    }
    return statuses
}

@Suite("Bad requests never crash the fakes")
struct MalformedRequestTests {
    static let seeds: [UInt64] = [1, 42, 2_026]

    static func apnsRun(seed: UInt64) -> (statuses: [Int], bench: APNsBench) {
        let bench = APNsBench(seed: seed)
        var install = 1
        var fuzzer = Fuzzer(random: SeededRandom(seed: seed).fork("fuzz/apns"),
                            authorities: [APNsService.name, APNsService.productionHost, APNsService.sandboxHost,
                                          APNsService.developmentAlias, APNsService.deviceHost],
                            headerNames: APNsRequestHeaders.names)
        let statuses = fuzz("apns", seed: seed, iterations: 300, world: bench.world, probe: bench.provider, device: bench.phone,
                            fuzzer: &fuzzer) { f in
            switch f.random.int(below: 9) {
            case 0:
                // The app relaunches and asks for its token again (a new install after an uninstall).
                if bench.world.isOnline(bench.phone.name) {
                    if !bench.phone.appInstalled { bench.phone.reinstall(); install += 1 }
                    bench.token = bench.phone.register(app: APNsBench.bundle, install: install, environment: "production")
                }
                return bench.request()
            case 1:
                let keys = ["app", "install", "environment"]
                return HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: DeviceChannel.registerPath,
                                   body: Array(f.json(keys: keys).serialized().utf8))
            case 2: return HTTPRequest(method: "POST", authority: APNsService.deviceHost, path: DeviceChannel.connectPath)
            case 3:
                let headers = (0..<f.random.int(below: 4)).map { _ in (f.random.pick(APNsRequestHeaders.names.dropFirst())!, f.garbage()) }
                return bench.request(headers: headers)
            case 4: return bench.request(body: apnsPayload(bytes: 20 + f.random.int(below: 5_200)))
            case 5: return bench.request(topic: APNsBench.bundle + ".voip", headers: [("apns-push-type", "voip"), ("apns-expiration", f.garbage())])
            case 6:
                // A correctly signed provider token with an odd issue time (a provider with a broken clock).
                return bench.request(auth: .header("bearer " + bench.jwt(iat: f.int64(near: bench.unixNow))))
            default: return bench.request(headers: [("apns-expiration", String(f.int64(near: bench.unixNow)))])
            }
        }
        return (statuses, bench)
    }

    @Test(arguments: seeds)
    func apnsAnswersEveryMalformedRequest(seed: UInt64) throws {
        let (statuses, bench) = Self.apnsRun(seed: seed)
        #expect(Set(statuses).isSuperset(of: [200, 400, 403]), "\(Set(statuses).sorted())")
        // Healed phase: the phone is back with a fresh install, and everything kept is settled.
        bench.phone.reinstall()
        bench.phone.goOnline()
        #expect(bench.world.run() == .quiescent)
        #expect(bench.world.leftovers().isEmpty, "\(bench.world.leftovers())")
        let token = bench.phone.register(app: APNsBench.bundle, install: 1_000, environment: "production")
        let before = bench.phone.pushes.count
        #expect(bench.send(to: token).status == 200)
        #expect(bench.phone.pushes.count == before + 1)
    }

    @Test func apnsRunIsDeterministic() {
        let a = Self.apnsRun(seed: 7), b = Self.apnsRun(seed: 7)
        #expect(a.statuses == b.statuses)
        #expect(a.bench.world.trace.events == b.bench.world.trace.events)
        // Every one of the 300 requests leaves at least an http.request and an http.response.
        #expect(a.bench.world.trace.events.count >= 600)
    }

    static func fcmRun(seed: UInt64) -> (statuses: [Int], bench: FCMBench) {
        let bench = FCMBench(seed: seed)
        var install = 1
        var fuzzer = Fuzzer(random: SeededRandom(seed: seed).fork("fuzz/fcm"),
                            authorities: [FCMService.name, FCMService.apiHost, FCMService.oauthHost, FCMService.deviceHost],
                            headerNames: ["authorization", "content-type"])
        let keys = ["token", "topic", "condition", "data", "android", "ttl", "collapse_key", "notification", "apns",
                    "webpush", "message", "validate_only", "title", "body", "from", "google.x", "k"]
        let statuses = fuzz("fcm", seed: seed, iterations: 300, world: bench.world, probe: bench.server, device: bench.phone,
                            fuzzer: &fuzzer) { f in
            bench.renewAccessTokenIfOld()
            switch f.random.int(below: 9) {
            case 0:
                if bench.world.isOnline(bench.phone.name) {
                    if !bench.phone.appInstalled { bench.phone.reinstall(); install += 1 }
                    bench.token = bench.phone.register(app: FCMBench.package, install: install, environment: bench.project.projectNumber)
                }
                return bench.request(raw: JSONValue.object([("message", bench.message())]).serialized())
            case 1:
                return bench.request(raw: JSONValue.object([("message", bench.message(["data": ["k": .string(f.garbage())],
                    "android": .object([("ttl", f.json(depth: 0, keys: keys)), ("collapse_key", .string(f.random.pick(["a", "b", "c", "d", "e"])!))])]))]).serialized())
            case 2:
                var message = f.json(depth: 3, keys: keys)
                if case .object(let members) = message, f.random.chance(Ratio(1, 2)) { message = .object([("token", .string(bench.token))] + members) }
                return bench.request(raw: JSONValue.object([("validate_only", f.json(depth: 0, keys: keys)), ("message", message)]).serialized())
            case 3: return bench.request(raw: f.json(depth: 4, keys: keys).serialized())
            case 4:
                let form = "grant_type=\(percentEncode(f.garbage()))&assertion=\(percentEncode(f.random.chance(Ratio(1, 2)) ? bench.assertion() : f.garbage()))"
                return HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token", body: Array(form.utf8))
            case 5:
                let scope = f.random.chance(Ratio(1, 2)) ? FCMBench.messagingScope : f.garbage()
                let a = bench.assertion(scope: scope, iat: f.int64(near: bench.unixNow), exp: f.int64(near: bench.unixNow))
                return HTTPRequest(method: "POST", authority: FCMService.oauthHost, path: "/token",
                                   body: Array("grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=\(a)".utf8))
            case 6:
                return HTTPRequest(method: "POST", authority: FCMService.deviceHost, path: DeviceChannel.registerPath,
                                   body: Array(f.json(keys: ["app", "install", "environment"]).serialized().utf8))
            case 7: return HTTPRequest(method: "POST", authority: FCMService.deviceHost, path: DeviceChannel.connectPath)
            default:
                return bench.request(raw: JSONValue.object([("message", bench.message(["data": ["k": .string(filler(f.random.int(below: 4_200)))]]))]).serialized(),
                                     project: f.random.pick([bench.project.projectID, bench.project.projectNumber, bench.otherProject.projectID, f.garbage()])!)
            }
        }
        return (statuses, bench)
    }

    @Test(arguments: seeds)
    func fcmAnswersEveryMalformedRequest(seed: UInt64) {
        let (statuses, bench) = Self.fcmRun(seed: seed)
        #expect(Set(statuses).isSuperset(of: [200, 400, 401, 404]), "\(Set(statuses).sorted())")
        bench.phone.reinstall()
        bench.phone.goOnline()
        #expect(bench.world.run() == .quiescent)
        #expect(bench.world.leftovers().isEmpty, "\(bench.world.leftovers())")
        bench.renewAccessTokenIfOld()
        let token = bench.phone.register(app: FCMBench.package, install: 1_000, environment: bench.project.projectNumber)
        let before = bench.phone.pushes.count
        #expect(bench.send(bench.message(token: token)).status == 200)
        #expect(bench.phone.pushes.count == before + 1)
    }

    @Test func fcmRunIsDeterministic() {
        let a = Self.fcmRun(seed: 8), b = Self.fcmRun(seed: 8)
        #expect(a.statuses == b.statuses)
        #expect(a.bench.world.trace.events == b.bench.world.trace.events)
    }

    static func wnsRun(seed: UInt64) -> (statuses: [Int], bench: WNSBench) {
        let bench = WNSBench(seed: seed)
        var install = 1
        var fuzzer = Fuzzer(random: SeededRandom(seed: seed).fork("fuzz/wns"),
                            authorities: [WNSService.name, WNSService.channelHost, WNSService.loginHost, WNSService.deviceHost],
                            headerNames: ["Authorization", "Content-Type", "X-WNS-Type", "X-WNS-Cache-Policy", "X-WNS-Tag",
                                          "X-WNS-TTL", "X-WNS-RequestForStatus", "X-WNS-SuppressPopup"])
        let types = ["wns/toast", "wns/tile", "wns/badge", "wns/raw"]
        let bodies = [WNSBench.toast, WNSBench.tile, #"<badge value="1"/>"#, "raw bytes", "Tom & Jerry", "<toast>"]
        let statuses = fuzz("wns", seed: seed, iterations: 300, world: bench.world, probe: bench.server, device: bench.pc,
                            fuzzer: &fuzzer) { f in
            if bench.world.now >= bench.accessTokenIssuedAt + .hours(23) { bench.renewAccessToken() }
            switch f.random.int(below: 7) {
            case 0:
                if bench.world.isOnline(bench.pc.name) {
                    if !bench.pc.appInstalled { bench.pc.reinstall(); install += 1 }
                    bench.channel = bench.pc.register(app: bench.app.packageFamily, install: install, environment: "")
                }
                return bench.request()
            case 1:
                let type = f.random.pick(types)!
                return bench.request(type: type, contentType: WNSNotificationType(rawValue: type)!.contentType,
                                     body: f.random.pick(bodies)!, headers: [("X-WNS-Cache-Policy", f.random.pick(["cache", "no-cache", f.garbage()])!)])
            case 2: return bench.request(type: f.garbage(), contentType: f.garbage(), body: f.garbage())
            case 3:
                let form = "grant_type=\(f.garbage())&client_id=\(percentEncode(bench.app.packageSID))&client_secret=\(f.garbage())&scope=notify.windows.com"
                return HTTPRequest(method: "POST", authority: WNSService.loginHost, path: "/accesstoken.srf", body: Array(form.utf8))
            case 4:
                return HTTPRequest(method: "POST", authority: WNSService.deviceHost, path: DeviceChannel.registerPath,
                                   body: Array(f.json(keys: ["app", "install", "environment"]).serialized().utf8))
            case 5: return HTTPRequest(method: "POST", authority: WNSService.deviceHost, path: DeviceChannel.connectPath)
            default: return bench.request(type: "wns/tile", body: WNSBench.tile)
            }
        }
        return (statuses, bench)
    }

    @Test(arguments: seeds)
    func wnsAnswersEveryMalformedRequest(seed: UInt64) {
        let (statuses, bench) = Self.wnsRun(seed: seed)
        #expect(Set(statuses).isSuperset(of: [200, 400, 401, 404]), "\(Set(statuses).sorted())")
        bench.pc.reinstall()
        bench.pc.goOnline()
        #expect(bench.world.run() == .quiescent)
        #expect(bench.world.leftovers().isEmpty, "\(bench.world.leftovers())")
        bench.renewAccessToken()
        let channel = bench.pc.register(app: bench.app.packageFamily, install: 1_000, environment: "")
        let before = bench.pc.pushes.count
        #expect(bench.notify(to: channel).status == 200)
        #expect(bench.pc.pushes.count == before + 1)
    }

    @Test func wnsRunIsDeterministic() {
        let a = Self.wnsRun(seed: 9), b = Self.wnsRun(seed: 9)
        #expect(a.statuses == b.statuses)
        #expect(a.bench.world.trace.events == b.bench.world.trace.events)
    }
}

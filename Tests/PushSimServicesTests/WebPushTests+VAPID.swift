import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

@Suite("Web Push VAPID, verified for real (Citations §9.2)")
struct WebPushVAPIDTests {
    @Test func aForgedSignatureIsRefusedByEveryVendor() {
        let bench = WebPushBench()
        // Signed by another key, but naming the subscription's key: the signature does not verify.
        func forged(_ endpoint: String) -> String {
            let token = bench.jwt(bench.otherKey, aud: WebPushBench.origin(endpoint), exp: bench.unixNow + 3600)
            return "vapid t=\(token), k=\(WebPushBench.publicKeyText(bench.vapidKey))"
        }
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        expectFCM(bench.send(chrome, authorization: .some(forged(chrome))), 403, "invalid JWT provided")
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        expectAutopush(bench.send(firefox, authorization: .some(forged(firefox))), 401, errno: 109, "InvalidSignature")
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, authorization: .some(forged(safari))), 403, "BadJwtToken")
        let edge = bench.subscribe(.edge, key: bench.vapidKey)
        #expect(bench.send(edge, authorization: .some(forged(edge))).status == 401)
        // The right key and claims, but the signature's first character changed.
        var flipped = Array(bench.vapid(safari))
        if let dot = flipped.lastIndex(of: ".") { flipped[dot + 1] = flipped[dot + 1] == "A" ? "B" : "A" }
        expectApple(bench.send(safari, authorization: .some(String(flipped))), 403, "BadJwtToken")
        #expect(bench.browser.pushes.isEmpty)
        #expect(bench.world.events("webpush.rejected").count == 5)
    }

    @Test func theAudienceMustBeThePushServicesOrigin() {
        let bench = WebPushBench()
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        expectFCM(bench.send(chrome, authorization: .some(bench.vapid(chrome, aud: "https://example.com"))), 403,
                  "aud claim in the token MUST include the origin of the push resource URL")
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        expectAutopush(bench.send(firefox, authorization: .some(bench.vapid(firefox, aud: "https://updates.push.services.mozilla.com/"))),
                       401, errno: 109, "Invalid VAPID audience")
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, authorization: .some(bench.vapid(safari, aud: "https://fcm.googleapis.com"))), 403, "BadJwtToken")
        let edge = bench.subscribe(.edge, key: bench.vapidKey)
        #expect(bench.send(edge, authorization: .some(bench.vapid(edge, aud: "https://cloud.notify.windows.com"))).status == 401)
    }

    @Test func anExpiryMoreThan24HoursAheadIsRefused() {
        let bench = WebPushBench()
        let tooFar = bench.unixNow + 86_400 + 1
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        expectFCM(bench.send(chrome, authorization: .some(bench.vapid(chrome, exp: tooFar))), 403,
                  "exp claim MUST NOT be more than 24 hours from the time of the request")
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        expectAutopush(bench.send(firefox, authorization: .some(bench.vapid(firefox, exp: tooFar))), 401, errno: 109,
                       "The VAPID token expiration is too long")
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, authorization: .some(bench.vapid(safari, exp: tooFar))), 403, "BadJwtToken")
        // Exactly 24 hours is still allowed.
        #expect(bench.send(safari, authorization: .some(bench.vapid(safari, exp: bench.unixNow + 86_400))).status == 201)
    }

    @Test func anExpiredTokenIsRefusedAutopushAllowingAMinuteOfSkew() {
        let bench = WebPushBench()
        bench.world.advance(by: .hours(1))
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        expectFCM(bench.send(chrome, authorization: .some(bench.vapid(chrome, exp: bench.unixNow - 1))), 403, "token has expired")
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(bench.send(firefox, authorization: .some(bench.vapid(firefox, exp: bench.unixNow - 60))).status == 201)
        expectAutopush(bench.send(firefox, authorization: .some(bench.vapid(firefox, exp: bench.unixNow - 61))), 401, errno: 109, "ExpiredSignature")
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, authorization: .some(bench.vapid(safari, exp: bench.unixNow - 1))), 403, "BadJwtToken")
    }

    @Test func appleWantsAUsableSubjectTheOthersDoNot() {
        let bench = WebPushBench()
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, authorization: .some(bench.vapid(safari, sub: nil))), 403, "BadJwtToken")
        for sub in ["admin@example.com", "mailto: <admin@example.com>", "mailto:push@localhost", "mailto:security@gateway.invalid",
                    "https://localhost:8080", "http://example.com"] {
            expectApple(bench.send(safari, authorization: .some(bench.vapid(safari, sub: sub))), 403, "BadJwtToken")
        }
        for sub in ["mailto:realuser@gmail.com", "https://myhost.tailscale.ts.net", "https://example.org/contact"] {
            #expect(bench.send(safari, authorization: .some(bench.vapid(safari, sub: sub))).status == 201, "\(sub)")
        }
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        #expect(bench.send(chrome, authorization: .some(bench.vapid(chrome, sub: "mailto:push@localhost"))).status == 201)
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(bench.send(firefox, authorization: .some(bench.vapid(firefox, sub: nil))).status == 201)
    }

    @Test func aKeyOtherThanTheSubscriptionsIsEachVendorsMismatch() {
        let bench = WebPushBench()
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        expectFCM(bench.send(chrome, authorization: .some(bench.vapid(chrome, key: bench.otherKey))), 403, FCMWebPushRules.keyMismatchText)
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        expectAutopush(bench.send(firefox, authorization: .some(bench.vapid(firefox, key: bench.otherKey))), 401, errno: 109, "VAPID public key mismatch")
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, authorization: .some(bench.vapid(safari, key: bench.otherKey))), 400, "VapidPkHashMismatch")
        let edge = bench.subscribe(.edge, key: bench.vapidKey)
        #expect(bench.send(edge, authorization: .some(bench.vapid(edge, key: bench.otherKey))).status == 401)
        // An unkeyed Firefox (v1) subscription takes any signer, or none.
        let unkeyed = bench.subscribe(.firefox, key: nil)
        #expect(bench.send(unkeyed, authorization: .some(bench.vapid(unkeyed, key: bench.otherKey))).status == 201)
        #expect(bench.send(unkeyed, authorization: .some(nil)).status == 201)
    }

    @Test func aMissingAuthorizationIsEachVendorsOwnRefusal() {
        let bench = WebPushBench()
        expectFCM(bench.send(bench.subscribe(.chrome, key: bench.vapidKey), authorization: .some(nil)), 401, "authorization header must be specified")
        expectAutopush(bench.send(bench.subscribe(.firefox, key: bench.vapidKey), authorization: .some(nil)), 401, errno: 109, "Missing VAPID public key")
        expectApple(bench.send(bench.subscribe(.safari, key: bench.vapidKey), authorization: .some(nil)), 403, "BadJwtToken")
        #expect(bench.send(bench.subscribe(.edge, key: bench.vapidKey), authorization: .some(nil)).status == 401)
    }

    @Test func theDraftWebPushSchemeWithCryptoKeyIsTakenByFirefoxAndChromeOnly() {
        let bench = WebPushBench()
        func draft(_ endpoint: String) -> [(String, String?)] {
            [("Authorization", "WebPush " + bench.jwt(bench.vapidKey, aud: WebPushBench.origin(endpoint), exp: bench.unixNow + 600)),
             ("Crypto-Key", "p256ecdsa=" + WebPushBench.publicKeyText(bench.vapidKey))]
        }
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(bench.send(firefox, headers: draft(firefox), authorization: .some(nil)).status == 201)
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        #expect(bench.send(chrome, headers: draft(chrome), authorization: .some(nil)).status == 201)
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, headers: draft(safari), authorization: .some(nil)), 400, "BadAuthorizationHeader")
        // Without its Crypto-Key, the draft form is autopush's 400 errno 110 and FCM's 403.
        let jwtOnly: [(String, String?)] = [("Authorization", "WebPush " + bench.jwt(bench.vapidKey, aud: WebPushBench.origin(firefox), exp: bench.unixNow + 600))]
        expectAutopush(bench.send(firefox, headers: jwtOnly, authorization: .some(nil)), 400, errno: 110, "Missing Crypto-Key header")
        expectFCM(bench.send(chrome, headers: jwtOnly, authorization: .some(nil)), 403,
                  "crypto-key header had no public application server key specified. crypto-key header should have the following format: p256ecdsa=base64(publicApplicationServerKey)")
    }

    @Test func fcmNamesWhatIsWrongWithTheKey() {
        let bench = WebPushBench()
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        let token = bench.jwt(bench.vapidKey, aud: WebPushBench.origin(chrome), exp: bench.unixNow + 600)
        func with(key: String) -> HTTPResponse { bench.send(chrome, authorization: .some("vapid t=\(token), k=\(key)")) }
        let good = bench.vapidKey.publicKey.x963Representation
        expectFCM(with(key: Base64URL.encode(Array(good.dropLast()))), 403, "public key must be 65 bytes long")
        expectFCM(with(key: Base64URL.encode([0x05] + good.dropFirst())), 403, "public key must be in uncompressed form. (First byte needs to be 0x04)")
        expectFCM(with(key: Base64URL.encode([0x04] + [UInt8](repeating: 7, count: 64))), 403, "VAPID public key must be on the P-256 curve")
        expectFCM(with(key: "+" + WebPushBench.publicKeyText(bench.vapidKey).dropFirst()), 403,
                  "public application server key in authorization header must be base64 encoded in URL and filename safe format.")
        expectFCM(bench.send(chrome, authorization: .some("vapid t=\(token)")), 403,
                  "authorization header had no public application server key specified. Authorization header should have the following format: vapid t=jwtToken; k=base64(publicApplicationServerKey)")
        expectFCM(bench.send(chrome, authorization: .some("key=AAAA")), 403,
                  "authorization header had invalid format. authorization header should have the following format: t=jwtToken; k=base64(publicApplicationServerKey)")
    }

    @Test func appleSortsKeyProblemsFromTokenProblems() {
        let bench = WebPushBench()
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        let token = bench.jwt(bench.vapidKey, aud: WebPushBench.origin(safari), exp: bench.unixNow + 600)
        expectApple(bench.send(safari, authorization: .some("vapid t=\(token)")), 400, "BadVapidPublicKey")
        expectApple(bench.send(safari, authorization: .some("vapid t=\(token), k=not*base64")), 400, "BadVapidPublicKey")
        expectApple(bench.send(safari, authorization: .some("Bearer \(token)")), 400, "BadAuthorizationHeader")
        expectApple(bench.send(safari, authorization: .some("vapid k=\(WebPushBench.publicKeyText(bench.vapidKey))")), 403, "BadJwtToken")
        expectApple(bench.send(safari, authorization: .some("vapid t=a.b.c, k=\(WebPushBench.publicKeyText(bench.vapidKey))")), 403, "BadJwtToken")
    }

    @Test func autopushSpeaksTheWordsOfItsJWTLibrary() {
        let bench = WebPushBench()
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        let key = WebPushBench.publicKeyText(bench.vapidKey)
        expectAutopush(bench.send(firefox, authorization: .some("vapid t=only-one-part, k=\(key)")), 401, errno: 109, "InvalidToken")
        let noExp = bench.jwt(bench.vapidKey, aud: WebPushBench.origin(firefox), exp: nil)
        expectAutopush(bench.send(firefox, authorization: .some("vapid t=\(noExp), k=\(key)")), 401, errno: 109, "Invalid VAPID token: Missing required exp")
        let hs256 = bench.jwt(bench.vapidKey, aud: WebPushBench.origin(firefox), exp: bench.unixNow + 60, header: #"{"typ":"JWT","alg":"HS256"}"#)
        expectAutopush(bench.send(firefox, authorization: .some("vapid t=\(hs256), k=\(key)")), 401, errno: 109, "InvalidAlgorithm")
        expectAutopush(bench.send(firefox, authorization: .some("Basic dXNlcjpwYXNz")), 401, errno: 109, "Unknown auth scheme")
        expectAutopush(bench.send(firefox, authorization: .some("vapid t=\(noExp), k=ab*cd")), 401, errno: 109, "Invalid VAPID public key: Invalid symbol 42, offset 2.")
        // autopush also takes a key in standard base64 with padding.
        let std = Base64.encode(bench.vapidKey.publicKey.x963Representation)
        let token = bench.jwt(bench.vapidKey, aud: WebPushBench.origin(firefox), exp: bench.unixNow + 60)
        #expect(bench.send(firefox, authorization: .some("vapid t=\(token), k=\(std)")).status == 201)
    }

    @Test func timesAtTheEdgesOfTheRangeDoNotOverflow() {
        // A scenario's epoch can put now far before 1970, and a sender can write any exp: the
        // comparisons once trapped on overflow.
        let bench = WebPushBench()
        let key = WebPushBench.publicKeyText(bench.vapidKey)
        let origin = "https://web.push.apple.com"
        let farAhead = VAPIDAuthorization(scheme: .vapid, token: bench.jwt(bench.vapidKey, aud: origin, exp: .max), key: key)
        #expect(VAPIDVerification(origin: origin, now: .min + 5, expiryLeeway: 60).verify(farAhead) == .failure(.expiryTooFar))
        let longAgo = VAPIDAuthorization(scheme: .vapid, token: bench.jwt(bench.vapidKey, aud: origin, exp: .min), key: key)
        #expect(VAPIDVerification(origin: origin, now: .max, expiryLeeway: 60).verify(longAgo) == .failure(.expired))
    }

    @Test func verificationReadsKeysStrictly() {
        #expect(VAPIDVerification.readKey("") == .failure(.keyLength(0)))
        #expect(VAPIDVerification.readKey("%%%") == .failure(.keyNotBase64))
        #expect(VAPIDVerification.isUsableContact("mailto:a@b.co"))
        #expect(!VAPIDVerification.isUsableContact("mailto:@b.co"))
        #expect(!VAPIDVerification.isUsableContact("https://localhost"))
        #expect(!VAPIDVerification.isUsableContact("https://example.test/x"))
    }
}

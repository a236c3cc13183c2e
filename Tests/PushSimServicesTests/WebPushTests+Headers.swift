import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("Web Push request headers and bodies (Citations §9.3, §9.4)")
struct WebPushHeaderTests {
    @Test func aMissingTTLIsRefusedByEachVendor() {
        let bench = WebPushBench()
        let noTTL: [(String, String?)] = [("TTL", nil)]
        expectFCM(bench.send(bench.subscribe(.chrome, key: bench.vapidKey), headers: noTTL), 400, "")
        expectAutopush(bench.send(bench.subscribe(.firefox, key: bench.vapidKey), headers: noTTL), 400, errno: 111, "Missing TTL value")
        expectApple(bench.send(bench.subscribe(.safari, key: bench.vapidKey), headers: noTTL), 400, "BadTtl")
        #expect(bench.send(bench.subscribe(.edge, key: bench.vapidKey), headers: noTTL).status == 400)
    }

    @Test func oddTTLsAreReadAsEachVendorReadsThem() {
        let bench = WebPushBench()
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        expectAutopush(bench.send(firefox, headers: [("TTL", "soon")]), 400, errno: 111, "Missing TTL value")
        expectAutopush(bench.send(firefox, headers: [("TTL", "-1")]), 400, errno: 114, "ttl: TTL must be greater than 0")
        // Longer than 30 days: kept 30 days, and the answer says so.
        #expect(bench.send(firefox, headers: [("TTL", "99999999")]).headers["ttl"] == "2592000")
        // Apple wants a positive number: 0 is BadTtl there.
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        expectApple(bench.send(safari, headers: [("TTL", "0")]), 400, "BadTtl")
        expectApple(bench.send(safari, headers: [("TTL", "+5")]), 400, "BadTtl")
        #expect(bench.send(safari, headers: [("TTL", "99999999999999999999999")]).status == 201)
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        #expect(bench.send(chrome, headers: [("TTL", "0")]).status == 201)
    }

    @Test func edgeWantsTheCachePolicyToAgreeWithTheTTL() {
        let bench = WebPushBench()
        let edge = bench.subscribe(.edge, key: bench.vapidKey)
        let conflict = bench.send(edge, headers: [("TTL", "0")])
        #expect(conflict.status == 400 && conflict.body.isEmpty)
        #expect(conflict.headers["X-WNS-Error-Description"] == "Ttl value conflicts with X-WNS-Cache-Policy.")
        #expect(conflict.headers["X-WNS-Status"] == "dropped" && conflict.headers["X-WNS-NotificationStatus"] == "dropped")
        #expect(bench.send(edge, headers: [("TTL", "0"), ("X-WNS-Cache-Policy", "no-cache")]).status == 201)
        #expect(bench.send(edge, headers: [("TTL", "60"), ("X-WNS-Cache-Policy", "no-cache")]).status == 400)
        #expect(bench.send(edge, headers: [("TTL", "60"), ("X-WNS-Cache-Policy", "cache")]).status == 201)
    }

    @Test func appleRefusesAnUrgencyOutsideTheFourOthersIgnoreIt() {
        let bench = WebPushBench()
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        for urgency in ["very-low", "low", "normal", "high"] { #expect(bench.send(safari, headers: [("Urgency", urgency)]).status == 201) }
        expectApple(bench.send(safari, headers: [("Urgency", "urgent")]), 400, "BadUrgency")
        #expect(bench.send(bench.subscribe(.firefox, key: bench.vapidKey), headers: [("Urgency", "urgent")]).status == 201)
    }

    @Test func topicsAreCheckedAsEachVendorChecksThem() {
        let bench = WebPushBench()
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(bench.send(firefox, headers: [("Topic", "a-test-topic-which-is-just-right")]).status == 201)
        expectAutopush(bench.send(firefox, headers: [("Topic", "test-topic-which-is-too-long-1234")]), 400, errno: 113,
                       "topic: Topic must be no greater than 32 characters")
        expectAutopush(bench.send(firefox, headers: [("Topic", "new mail")]), 400, errno: 113, "topic: Topic must be URL and Filename safe Base64 alphabet")
        expectAutopush(bench.send(firefox, headers: [("Topic", "a:b:c:d:e:f:g:h:i:j:k:l:m:n:o:p:q")]), 400, errno: 113,
                       "topic: Topic must be no greater than 32 characters, Topic must be URL and Filename safe Base64 alphabet")
        expectAutopush(bench.send(firefox, headers: [("TTL", "-5"), ("Topic", "a b")]), 400, errno: 114,
                       "ttl: TTL must be greater than 0topic: Topic must be URL and Filename safe Base64 alphabet")
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        #expect(bench.send(safari, headers: [("Topic", "neueangebote")]).status == 201)
        // A length base64url cannot have (13 = 4·3 + 1) is refused live; so are padding and other characters.
        for topic in ["frenz-ai-done", "spike", "mail=", "new mail", String(repeating: "a", count: 33)] {
            expectApple(bench.send(safari, headers: [("Topic", topic)]), 400, "BadWebPushTopic")
        }
    }

    @Test func autopushChecksTheCodingHeadersOfABody() {
        let bench = WebPushBench()
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        expectAutopush(bench.send(firefox, headers: [("Content-Encoding", nil)]), 400, errno: 110, "Missing Content-Encoding header")
        expectAutopush(bench.send(firefox, headers: [("Content-Encoding", "gzip")]), 400, errno: 110, "Unknown Content-Encoding header")
        expectAutopush(bench.send(firefox, headers: [("Content-Encoding", "aesgcm")]), 400, errno: 110, "Missing Encryption header")
        expectAutopush(bench.send(firefox, headers: [("Content-Encoding", "aesgcm"), ("Encryption", "keyid=p256dh")]), 400, errno: 110,
                       "Missing salt value in Encryption header")
        #expect(bench.send(firefox, headers: [("Content-Encoding", "aesgcm"), ("Encryption", "salt=\"c2FsdA\""), ("Crypto-Key", "dh=BDw9")]).status == 201)
        expectAutopush(bench.send(firefox, headers: [("Encryption", "salt=c2FsdA")]), 400, errno: 110,
                       "Do not include 'salt' header in aes128gcm Encryption header")
        // An empty body needs no coding.
        #expect(bench.send(firefox, headers: [("Content-Encoding", nil)], body: []).status == 201)
    }

    @Test func appleChecksTheShapeOfAnAes128gcmBodyItCannotRead() {
        let bench = WebPushBench()
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        let good = WebPushBench.encryptedBody(Array("hi".utf8))
        #expect(WebPushContentCoding.headerProblem(good) == nil)
        expectApple(bench.send(safari, body: Array(good.prefix(40))), 400, "BadWebPushRequest")
        var shortKeyID = good
        shortKeyID[20] = 32
        expectApple(bench.send(safari, body: shortKeyID), 400, "BadWebPushRequest")
        var tinyRecords = good
        tinyRecords[16...19] = [0, 0, 0, 17]
        expectApple(bench.send(safari, body: tinyRecords), 400, "BadWebPushRequest")
        expectApple(bench.send(safari, headers: [("Content-Encoding", nil)]), 400, "BadWebPushRequest")
        #expect(bench.send(safari, headers: [("Content-Encoding", nil)], body: []).status == 201)
        #expect(WebPushContentCoding.headerProblem(Array(good.prefix(86 + 10))) == .noCiphertext)
    }

    @Test func payloadsOverEachVendorsLimitAreRefused() {
        let bench = WebPushBench()
        #expect(WebPushBench.body(ofSize: 4096).count == 4096 && WebPushBench.body(ofSize: 5631).count == 5631)
        let safari = bench.subscribe(.safari, key: bench.vapidKey)
        #expect(bench.send(safari, body: WebPushBench.body(ofSize: 4096)).status == 201)
        expectApple(bench.send(safari, body: WebPushBench.body(ofSize: 4097)), 413, "PayloadTooLarge")
        // FCM answers 400, not 413 (Chromium's own sender says so).
        let chrome = bench.subscribe(.chrome, key: bench.vapidKey)
        #expect(bench.send(chrome, body: WebPushBench.body(ofSize: 4096)).status == 201)
        expectFCM(bench.send(chrome, body: WebPushBench.body(ofSize: 4097)), 400, "")
        let firefox = bench.subscribe(.firefox, key: bench.vapidKey)
        #expect(bench.send(firefox, body: WebPushBench.body(ofSize: 5630)).status == 201)
        expectAutopush(bench.send(firefox, body: WebPushBench.body(ofSize: 5631)), 413, errno: 104, "A payload reached size limit.")
        let edge = bench.subscribe(.edge, key: bench.vapidKey)
        #expect(bench.send(edge, body: WebPushBench.body(ofSize: 5000)).status == 201)
        #expect(bench.send(edge, body: WebPushBench.body(ofSize: 5001)).status == 413)
    }
}

import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel

@Suite("FCM OAuth token endpoint (Citations §2.1)")
struct FCMOAuthTests {
    @Test func signedAssertionGetsAOneHourAccessToken() {
        let bench = FCMBench()
        let r = bench.requestAccessToken(bench.assertion())
        #expect(r.status == 200)
        let body = json(r)
        #expect(body?["access_token"]?.stringValue?.hasPrefix("ya29.") == true)
        #expect(body?["expires_in"]?.int64Value == 3_599)
        #expect(body?["token_type"]?.stringValue == "Bearer")
        #expect(bench.world.events("fcm.access-token-issued").count == 2) // the bench's own and this one
        // The cloud-platform scope also works.
        #expect(bench.requestAccessToken(bench.assertion(scope: "https://www.googleapis.com/auth/cloud-platform")).status == 200)
    }

    @Test func badSignatureIsInvalidGrant() {
        let bench = FCMBench()
        let r = bench.requestAccessToken(bench.assertion(signingKey: FCMBench.chessKey))
        #expect(r.status == 400)
        #expect(r.bodyText == #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
        // An unknown service account is refused the same way.
        let unknown = bench.requestAccessToken(bench.assertion(iss: "nobody@example.iam.gserviceaccount.com"))
        #expect(unknown.status == 400 && unknown.bodyText == r.bodyText)
    }

    @Test func wrongScopeIsInvalidScope() {
        let bench = FCMBench()
        let r = bench.requestAccessToken(bench.assertion(scope: "https://www.googleapis.com/auth/userinfo.email"))
        #expect(r.status == 400)
        #expect(r.bodyText == #"{"error":"invalid_scope","error_description":"Invalid OAuth scope or ID token audience provided."}"#)
    }

    @Test func longLivedOrExpiredAssertionIsInvalidGrant() {
        let bench = FCMBench()
        let expected = #"{"error":"invalid_grant","error_description":"Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."}"#
        let tooLong = bench.requestAccessToken(bench.assertion(exp: bench.unixNow + 3_601))
        #expect(tooLong.status == 400 && tooLong.bodyText == expected)
        let expired = bench.requestAccessToken(bench.assertion(iat: bench.unixNow - 7_200, exp: bench.unixNow - 3_600))
        #expect(expired.status == 400 && expired.bodyText == expected)
        let absurd = bench.requestAccessToken(bench.assertion(iat: Int64.min, exp: Int64.max))
        #expect(absurd.status == 400 && absurd.bodyText == expected)
    }

    @Test func otherGrantTypeIsUnsupported() {
        let bench = FCMBench()
        let r = bench.requestAccessToken(bench.assertion(), grantType: "client_credentials")
        #expect(r.status == 400)
        #expect(r.bodyText == #"{"error":"unsupported_grant_type","error_description":"Invalid grant_type: client_credentials"}"#)
    }

    @Test func accessTokenExpiresAfterOneHour() {
        let bench = FCMBench()
        bench.world.advance(by: .minutes(59))
        #expect(bench.send(bench.message()).status == 200)
        bench.world.advance(by: .minutes(1))
        let r = bench.send(bench.message())
        let e = GoogleError(r)
        #expect(r.status == 401)
        #expect(e.code == 401 && e.status == "UNAUTHENTICATED")
        #expect(e.message == "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.")
        // No FcmError detail for a caller credential problem (§2.3), but Google's ErrorInfo saying
        // why, as the live answer quoted in PyFCM#334 shows; PyFCM renews its token on that reason only.
        #expect(e.fcmErrorCode == nil)
        #expect(e.details == [.object([("@type", "type.googleapis.com/google.rpc.ErrorInfo"), ("reason", "ACCESS_TOKEN_EXPIRED"),
                                       ("domain", "googleapis.com"),
                                       ("metadata", .object([("method", "google.firebase.fcm.v1.FcmService.SendMessage"),
                                                             ("service", "fcm.googleapis.com")]))])])
        #expect(bench.phone.pushes.count == 1)
    }
}

import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

/// Service-account assertions' RS256 signatures at Google's token endpoint (Citations §2.1:
/// GCP-PY-10004, GAPI-147).
@Suite("FCM OAuth token endpoint: signatures (Citations §2.1)")
struct FCMSignatureTests {
    static let invalidSignature = #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#

    @Test func anAssertionSignedByAnotherKeyIsInvalidGrant() {
        let bench = FCMBench()
        let r = bench.requestAccessToken(bench.assertion(signingKey: FCMBench.chessKey))
        #expect(r.status == 400 && r.bodyText == Self.invalidSignature)
        #expect(r.headers["content-type"] == "application/json")
    }

    @Test func anAssertionWithAnotherAlgorithmOrNoSignatureIsInvalidGrant() throws {
        let bench = FCMBench()
        let good = bench.assertion()
        let parts = good.split(separator: ".")
        let hs256 = Base64URL.encode(#"{"alg":"HS256","typ":"JWT"}"#) + "." + parts[1] + "." + parts[2]
        for assertion in [hs256, parts[0] + "." + parts[1] + ".", parts[0] + "." + parts[1] + "." + String(parts[2].dropLast(4))] {
            let r = bench.requestAccessToken(assertion)
            #expect(r.status == 400 && r.bodyText == Self.invalidSignature, "\(assertion.prefix(40))")
        }
    }

    /// A second key of the same account (Google lets an account hold several) is accepted once registered.
    @Test func aSecondKeyOfTheAccountIsAcceptedOnceRegistered() {
        let bench = FCMBench()
        let assertion = bench.assertion(signingKey: FCMBench.chessKey)
        #expect(bench.requestAccessToken(assertion).status == 400)
        bench.fcm.register(serviceAccountKey: FCMBench.chessKey.publicKey, for: bench.project.serviceAccount)
        #expect(bench.requestAccessToken(assertion).status == 200)
        #expect(bench.requestAccessToken(bench.assertion()).status == 200)   // the first key still works
    }

    /// A service account no project knew, registered with its key, may send to the first project.
    @Test func aNewServiceAccountRegisteredMaySend() {
        let bench = FCMBench()
        let email = "ci@notes-app.iam.gserviceaccount.com"
        #expect(bench.requestAccessToken(bench.assertion(iss: email, signingKey: FCMBench.chessKey)).status == 400)
        bench.fcm.register(serviceAccountKey: FCMBench.chessKey.publicKey, for: email)
        let token = bench.requestAccessToken(bench.assertion(iss: email, signingKey: FCMBench.chessKey))
        #expect(token.status == 200)
        #expect(bench.fcm.projects.map(\.serviceAccount).contains(email))
    }

    @Test func structureOnlyTakesAnySignatureButChecksTheClaims() {
        let bench = FCMBench()
        bench.fcm.checkSignatures(.structureOnly)
        #expect(bench.requestAccessToken(bench.assertion(signingKey: FCMBench.chessKey)).status == 200)
        let unknown = bench.requestAccessToken(bench.assertion(iss: "nobody@example.iam.gserviceaccount.com"))
        #expect(unknown.status == 400 && unknown.bodyText == Self.invalidSignature)
    }
}

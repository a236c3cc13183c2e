import Testing
@testable import PushSimServices
import PushSimNetwork
import PushSimKernel
import PushSimCrypto

/// Provider tokens' ES256 signatures, verified with the registered key's public key (Citations
/// §1.6: A-JWT, APNSWIFT-36).
@Suite("APNs provider tokens: signatures (Citations §1.6)")
struct APNsSignatureTests {
    private func expectInvalid(_ r: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 403 && r.bodyText == #"{"reason":"InvalidProviderToken"}"#, sourceLocation: sourceLocation)
    }

    /// `jwt` with its signature replaced by `signature`'s bytes.
    private func resigned(_ jwt: String, _ signature: [UInt8]) -> String {
        String(jwt[..<jwt.lastIndex(of: ".")!]) + "." + Base64URL.encode(signature)
    }

    @Test func aTokenSignedWithTheRegisteredKeyIsAccepted() {
        let bench = APNsBench()
        #expect(bench.send(auth: .header("bearer " + bench.jwt())).status == 200)
    }

    /// A forger who knows the key id and team but not the key: the signature does not verify.
    @Test func aTokenForgedWithAnotherKeyIsInvalidProviderToken() {
        let bench = APNsBench()
        expectInvalid(bench.send(auth: .header("bearer " + bench.jwt(signingKey: APNsBench.otherKey))))
    }

    /// APNs takes an ES256 signature in DER as well as JOSE's 64 bytes (APNSWIFT-36): the same
    /// signature re-encoded is accepted; another key's, in DER, is not.
    @Test func aDEREncodedSignatureIsAcceptedAsAPNsAcceptsIt() throws {
        let bench = APNsBench()
        let jwt = bench.jwt()
        let raw = try #require(JSONWebToken.parse(jwt)?.signatureBytes)
        let der = try P256Signature(rawRepresentation: raw).derRepresentation
        #expect(der.count != 64 && der.first == 0x30)
        #expect(bench.send(auth: .header("bearer " + resigned(jwt, der))).status == 200)
        let forged = try #require(JSONWebToken.parse(bench.jwt(iat: bench.unixNow - 1, signingKey: APNsBench.otherKey))?.signatureBytes)
        expectInvalid(bench.send(auth: .header("bearer " + resigned(bench.jwt(iat: bench.unixNow - 1),
                                                                      try P256Signature(rawRepresentation: forged).derRepresentation))))
    }

    @Test func aSignatureOfTheWrongShapeIsInvalidProviderToken() throws {
        let bench = APNsBench()
        let jwt = bench.jwt()
        let raw = try #require(JSONWebToken.parse(jwt)?.signatureBytes)
        for signature in [Array(raw.dropLast()), raw + [0], [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xFF, count: 64), [0x30, 0x00]] {
            expectInvalid(bench.send(auth: .header("bearer " + resigned(jwt, signature))))
        }
        expectInvalid(bench.send(auth: .header("bearer " + String(jwt[...jwt.lastIndex(of: ".")!]))))   // no signature
        // alg none, as RFC 7519's unsecured JWT: APNs takes ES256 only (A-JWT).
        let parts = jwt.split(separator: ".")
        expectInvalid(bench.send(auth: .header("bearer " + Base64URL.encode(#"{"alg":"none","kid":"KEY1234567"}"#) + "." + parts[1] + ".")))
    }

    /// A key registered later (a second key of the team) is accepted from then on.
    @Test func aKeyRegisteredLaterIsAccepted() {
        let bench = APNsBench()
        let token = bench.jwt(kid: "KEY7654321", signingKey: APNsBench.otherKey)
        expectInvalid(bench.send(auth: .header("bearer " + token)))
        bench.apns.register(APNsSigningKey(keyID: "KEY7654321", teamID: bench.key.teamID, publicKey: APNsBench.otherKey.publicKey))
        #expect(bench.send(auth: .header("bearer " + token)).status == 200)
        #expect(bench.apns.configuration.keys.map(\.keyID) == ["KEY1234567", "KEY7654321"])
    }

    /// `pushsim serve --signatures structure-only`: any base64url signature under ES256 passes,
    /// and every claim is still checked.
    @Test func structureOnlyTakesAnySignatureButChecksTheClaims() {
        let bench = APNsBench()
        bench.apns.checkSignatures(.structureOnly)
        #expect(bench.send(auth: .header("bearer " + resigned(bench.jwt(), [1, 2, 3]))).status == 200)
        expectInvalid(bench.send(auth: .header("bearer " + bench.jwt(team: "OTHERTEAM1", signingKey: APNsBench.otherKey))))
        bench.apns.checkSignatures(.verify)
        expectInvalid(bench.send(auth: .header("bearer " + resigned(bench.jwt(iat: bench.unixNow - 2), [1, 2, 3]))))
    }
}

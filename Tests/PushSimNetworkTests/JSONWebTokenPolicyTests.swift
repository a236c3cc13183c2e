import Foundation
import Testing
import PushSimKernel
import PushSimCrypto
@testable import PushSimNetwork

/// Tokens made and checked with real keys: ES256 (JOSE's `r ‖ s`, and the DER form APNs also
/// takes), RS256, and the structure-only check `pushsim serve --signatures structure-only` opts into.
@Suite("JWT signatures")
struct JSONWebTokenPolicyTests {
    private let header = JSONValue.object([("alg", .string("ES256")), ("kid", .string("K1"))])
    private let claims = JSONValue.object([("iss", .string("TEAM")), ("iat", .number(JSONNumber(1_767_225_600)))])
    private static let key = DerivedKeyMemo.p256Key(derivedFrom: "jwt tests")
    private static let otherKey = DerivedKeyMemo.p256Key(derivedFrom: "jwt tests: another key")

    @Test func anES256TokenVerifiesWithItsKeyOnly() throws {
        let jwt = try #require(JSONWebToken.parse(JSONWebToken.make(header: header, claims: claims, signingKey: Self.key)))
        #expect(jwt.signatureBytes?.count == 64)
        #expect(jwt.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: false))
        #expect(!jwt.hasValidES256Signature(by: Self.otherKey.publicKey, acceptingDER: true))
        // The same signature in DER: taken only when DER is accepted.
        let signature = try P256Signature(rawRepresentation: try #require(jwt.signatureBytes))
        var der = jwt
        der.signature = Base64URL.encode(signature.derRepresentation)
        #expect(!der.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: false))
        #expect(der.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: true))
        // A changed claim no longer verifies.
        var changed = jwt
        changed.signingInput += "x"
        #expect(!changed.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: true))
    }

    @Test func anRS256TokenVerifiesWithItsKeyOnly() throws {
        let rsa = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.sampleServiceAccountSeed)
        let other = DerivedKeyMemo.rsaKey(derivedFrom: DerivedKeyMemo.wrongServiceAccountSeed)
        let token = JSONWebToken.make(header: .object([("alg", .string("RS256"))]), claims: claims, signingKey: rsa)
        let jwt = try #require(JSONWebToken.parse(token))
        #expect(jwt.signatureBytes?.count == 256)
        #expect(jwt.hasValidRS256Signature(by: rsa.publicKey))
        #expect(!jwt.hasValidRS256Signature(by: other.publicKey))
        #expect(!jwt.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: true))
    }

    @Test func structureOnlyTakesAnyBase64URLSignatureUnderTheRightAlgorithm() throws {
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        let real = try #require(JSONWebToken.parse(input + ".MEUCIQDk3o1-real-looking_signature"))
        #expect(real.hasSignatureShape(algorithm: "ES256"))
        #expect(!real.hasSignatureShape(algorithm: "RS256"))   // wrong alg
        #expect(!real.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: true))
        let unsigned = try #require(JSONWebToken.parse(input + "."))
        #expect(!unsigned.hasSignatureShape(algorithm: "ES256"))
        #expect(!unsigned.hasValidES256Signature(by: Self.key.publicKey, acceptingDER: true))
        let garbage = try #require(JSONWebToken.parse(input + ".not*base64"))
        #expect(!garbage.hasSignatureShape(algorithm: "ES256"))
    }

    /// The compact form is three base64url parts joined by `.` octets (RFC 7515 §7.1): split by
    /// bytes, so anything but three parts, or any character outside ASCII, is no token.
    @Test func onlyThreeASCIIPartsAreAToken() {
        let token = JSONWebToken.make(header: header, claims: claims, signingKey: Self.key)
        #expect(JSONWebToken.parse(token)?.signingInput == String(token[..<token.lastIndex(of: ".")!]))
        #expect(JSONWebToken.parse(token + ".x") == nil)
        #expect(JSONWebToken.parse(String(token[..<token.lastIndex(of: ".")!])) == nil)
        #expect(JSONWebToken.parse(token + "é") == nil)
        #expect(JSONWebToken.parse(token.replacingOccurrences(of: ".", with: ".\u{301}")) == nil)
    }
}

import Foundation
import Testing
import PushSimKernel
@testable import PushSimNetwork

/// How the fakes accept a token's signature: PushSim's stand-in (in-world), or, behind
/// `pushsim serve`, structure and algorithm only (real ES256/RS256 signatures are not verified).
@Suite("JWT signature policies")
struct JSONWebTokenPolicyTests {
    private let header = JSONValue.object([("alg", .string("ES256")), ("kid", .string("K1"))])
    private let claims = JSONValue.object([("iss", .string("TEAM")), ("iat", .number(JSONNumber(1_767_225_600)))])

    @Test func theStandInMustBeSignedWithTheSecret() throws {
        let jwt = try #require(JSONWebToken.parse(JSONWebToken.make(header: header, claims: claims, secret: "s")))
        #expect(jwt.isAccepted(with: "s", policy: .simulated, algorithm: "ES256"))
        #expect(!jwt.isAccepted(with: "other", policy: .simulated, algorithm: "ES256"))
    }

    @Test func structureOnlyTakesAnyBase64URLSignatureUnderTheRightAlgorithm() throws {
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        let real = try #require(JSONWebToken.parse(input + ".MEUCIQDk3o1-real-looking_signature"))
        #expect(real.isAccepted(with: "whatever", policy: .structureOnly, algorithm: "ES256"))
        #expect(!real.isAccepted(with: "whatever", policy: .structureOnly, algorithm: "RS256"))   // wrong alg
        #expect(!real.isAccepted(with: "whatever", policy: .simulated, algorithm: "ES256"))
        let unsigned = try #require(JSONWebToken.parse(input + "."))
        #expect(!unsigned.isAccepted(with: "whatever", policy: .structureOnly, algorithm: "ES256"))
        let garbage = try #require(JSONWebToken.parse(input + ".not*base64"))
        #expect(!garbage.isAccepted(with: "whatever", policy: .structureOnly, algorithm: "ES256"))
    }

    /// The compact form is three base64url parts joined by `.` octets (RFC 7515 §7.1): split by
    /// bytes, so anything but three parts, or any character outside ASCII, is no token.
    @Test func onlyThreeASCIIPartsAreAToken() {
        let token = JSONWebToken.make(header: header, claims: claims, secret: "s")
        #expect(JSONWebToken.parse(token)?.signingInput == String(token[..<token.lastIndex(of: ".")!]))
        #expect(JSONWebToken.parse(token + ".x") == nil)
        #expect(JSONWebToken.parse(String(token[..<token.lastIndex(of: ".")!])) == nil)
        #expect(JSONWebToken.parse(token + "é") == nil)
        #expect(JSONWebToken.parse(token.replacingOccurrences(of: ".", with: ".\u{301}")) == nil)
    }
}

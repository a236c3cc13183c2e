import PushSimKernel
import PushSimNetwork
import PushSimCrypto

/// Checks a VAPID token for real (RFC 8292, Citations §9.2): the public key is read as a P-256
/// point, the JWT's ES256 signature is verified with it (PushSimCrypto's ECDSA), and its claims
/// are judged against the request's time and push resource. What each vendor then answers for a
/// failure is the vendor's own (`WebPushRefusal`).
///
/// The order is that of autopush (WP-AUTOPUSH `subscription.rs`, which hands the token to the
/// `jsonwebtoken` crate): the key, the header's algorithm, the signature, the required `exp` and
/// `aud`, an `exp` in the past, the audience, then an `exp` too far ahead; the subject last,
/// for the services that judge it.
package struct VAPIDVerification {
    /// What a token's claims said, once the token passed.
    package struct Claims: Equatable {
        /// The origin the token is for.
        package var audience: String
        /// Unix seconds after which the token is no good.
        package var expiry: Int64
        /// The sender's contact (`mailto:` or `https:`), if given.
        package var subject: String?
    }

    /// Why a token is refused.
    package enum Failure: Error, Equatable {
        /// The key is not base64url (nor standard base64).
        case keyNotBase64
        /// The key decodes to this many bytes, not 65.
        case keyLength(Int)
        /// The key's first byte is not 0x04 (not an uncompressed point).
        case keyNotUncompressed
        /// The key is not a point of P-256.
        case keyNotOnCurve
        /// Not three base64url parts, or the first two not JSON objects.
        case malformedToken
        /// The header's `alg` is not `ES256`.
        case wrongAlgorithm
        /// The signature is not 64 bytes, or does not verify with the key.
        case badSignature
        /// No `exp` claim.
        case missingExpiry
        /// No `aud` claim.
        case missingAudience
        /// `exp` or `aud` (or `sub`) of the wrong JSON type (`"exp":"12345"`).
        case claimOfWrongType
        /// `exp` is past (beyond the service's leeway).
        case expired
        /// `aud` is not the push resource's origin.
        case wrongAudience
        /// `exp` is more than 24 hours after now.
        case expiryTooFar
        /// No `sub`, for a service that wants one.
        case missingSubject
        /// A `sub` that is not a usable `mailto:` or `https:` contact.
        case unusableSubject
    }

    /// The key the token was checked with, and its claims.
    package struct Verified: Equatable {
        /// The application server's public key, uncompressed (65 bytes).
        package var key: [UInt8]
        /// The token's claims.
        package var claims: Claims
    }

    /// The service's expectations: the origin `aud` must name (`https://` and the host the request
    /// went to), the time now in Unix seconds, how many seconds past `exp` still pass (autopush:
    /// `jsonwebtoken`'s default 60; the others: none known, 0), and whether `sub` is judged.
    package var origin: String
    package var now: Int64
    package var expiryLeeway: Int64
    package var judgesSubject: Bool

    /// A verifier for one request; see the properties.
    package init(origin: String, now: Int64, expiryLeeway: Int64 = 0, judgesSubject: Bool = false) {
        self.origin = origin; self.now = now; self.expiryLeeway = expiryLeeway; self.judgesSubject = judgesSubject
    }

    /// RFC 8292 section 2: `exp` must not be more than 24 hours after the request.
    static let longestLifetime: Int64 = 86_400

    /// Checks `authorization`; the verified key and claims, or the first failure.
    package func verify(_ authorization: VAPIDAuthorization) -> Result<Verified, Failure> {
        let key: P256PublicKey, keyBytes: [UInt8]
        switch Self.readKey(authorization.key) {
        case .failure(let f): return .failure(f)
        case .success(let k): (key, keyBytes) = (k, k.x963Representation)
        }
        guard let token = JSONWebToken.parse(authorization.token) else { return .failure(.malformedToken) }
        let claims = token.claims
        guard token.header["alg"]?.stringValue == "ES256" else { return .failure(.wrongAlgorithm) }
        // JOSE's 64-byte `r || s` only; the verdict is kept for the process (`JWTSignatureMemo`),
        // since an application server signs one token for many messages.
        guard token.hasValidES256Signature(by: key, acceptingDER: false) else { return .failure(.badSignature) }
        guard let expValue = claims["exp"], expValue != .null else { return .failure(.missingExpiry) }
        guard let audValue = claims["aud"], audValue != .null else { return .failure(.missingAudience) }
        guard let exp = expValue.int64Value, let audience = audValue.stringValue else { return .failure(.claimOfWrongType) }
        let subValue = claims["sub"]
        if let subValue, subValue != .null, subValue.stringValue == nil { return .failure(.claimOfWrongType) }
        // Compared without overflow: `exp` is whatever the sender wrote, and `now` follows the
        // scenario's epoch.
        let earliest = now.subtractingReportingOverflow(expiryLeeway)
        guard earliest.overflow || exp >= earliest.partialValue else { return .failure(.expired) }
        guard audience == origin else { return .failure(.wrongAudience) }
        let ahead = exp.subtractingReportingOverflow(now)
        guard !ahead.overflow, ahead.partialValue <= Self.longestLifetime else { return .failure(.expiryTooFar) }
        let subject = subValue?.stringValue
        if judgesSubject {
            guard let subject else { return .failure(.missingSubject) }
            guard Self.isUsableContact(subject) else { return .failure(.unusableSubject) }
        }
        return .success(Verified(key: keyBytes, claims: Claims(audience: audience, expiry: exp, subject: subject)))
    }

    /// Reads a sent key: base64url, padded or not; standard base64 too when it has `+` or `/`
    /// (autopush tolerates both, WP-AUTOPUSH `decode_public_key`); then a 65-byte uncompressed
    /// point of P-256.
    static func readKey(_ text: String) -> Result<P256PublicKey, Failure> {
        let unpadded = String(text.reversed().drop { $0 == "=" }.reversed())
        let standard = unpadded.contains("+") || unpadded.contains("/")
        let bytes = standard ? Base64.decode(unpadded + String(repeating: "=", count: (4 - unpadded.utf8.count % 4) % 4))
                             : Base64URL.decode(unpadded)
        guard let bytes else { return .failure(.keyNotBase64) }
        guard bytes.count == 65 else { return .failure(.keyLength(bytes.count)) }
        guard bytes[0] == 0x04 else { return .failure(.keyNotUncompressed) }
        guard let key = try? P256PublicKey(x963Representation: bytes) else { return .failure(.keyNotOnCurve) }
        return .success(key)
    }

    /// Whether `subject` is a contact Apple takes (Citations §9.2, WP-APPLE-SUB): `mailto:` and an
    /// address, or an `https:` URL, whose domain has a dot and is not `localhost` nor under the
    /// reserved `.localhost`, `.invalid` or `.test` (RFC 2606); no spaces or angle brackets
    /// (`mailto: <a@b.c>` is refused).
    static func isUsableContact(_ subject: String) -> Bool {
        guard !subject.contains(where: { $0 == " " || $0 == "<" || $0 == ">" }) else { return false }
        let domain: Substring
        if subject.hasPrefix("mailto:") {
            let address = subject.dropFirst("mailto:".count)
            guard let at = address.lastIndex(of: "@"), at != address.startIndex else { return false }
            domain = address[address.index(after: at)...]
        } else if subject.hasPrefix("https://") {
            let rest = subject.dropFirst("https://".count)
            domain = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
        } else {
            return false
        }
        let host = domain.lowercased()
        let reserved = [".localhost", ".invalid", ".test"]
        return host.contains(".") && !host.hasSuffix(".") && host != "localhost" && !reserved.contains { host.hasSuffix($0) }
    }
}

import PushSimKernel
import PushSimNetwork

/// What an application server's request says about who sent it (RFC 8292, Citations §9.2): the
/// signed token and the public key it claims to be signed with, read from the headers but not
/// yet checked.
///
/// Two forms are in use:
/// - RFC 8292 section 3: `Authorization: vapid t=<JWT>, k=<base64url public key>`;
/// - the drafts before it (draft-ietf-webpush-vapid-01), still sent by older libraries:
///   `Authorization: WebPush <JWT>` and the key in `Crypto-Key: p256ecdsa=<key>`. autopush also
///   takes `Bearer` for it (WP-AUTOPUSH `vapid.rs`, `ALLOWED_SCHEMES`).
///
/// The scheme is compared without regard to case, and the `t=`/`k=` list may be separated by
/// commas (RFC 8292, what libraries send) or semicolons (the form FCM's errors spell out,
/// WP-CHROMIUM); white space around them is ignored, as autopush strips it.
package struct VAPIDAuthorization: Equatable {
    /// Which form the request used.
    package enum Scheme: Equatable {
        /// `vapid t=…, k=…` (RFC 8292).
        case vapid
        /// `WebPush <JWT>` or `Bearer <JWT>` with `Crypto-Key: p256ecdsa=…` (the drafts).
        case cryptoKey
    }

    /// Why the headers name no token and key.
    package enum Problem: Error, Equatable {
        /// No `Authorization` header.
        case missing
        /// A scheme other than `vapid`, `WebPush` or `Bearer`, or nothing after it.
        case unknownScheme
        /// `vapid` without `t=`.
        case missingToken
        /// `vapid` without `k=`.
        case missingKey
        /// `vapid` with an empty `k=`.
        case emptyKey
        /// The draft form without a `Crypto-Key` header.
        case missingCryptoKeyHeader
        /// The draft form whose `Crypto-Key` has no `p256ecdsa=`.
        case cryptoKeyWithoutP256ECDSA
        /// The draft form whose `Crypto-Key` has an empty `p256ecdsa=`.
        case emptyP256ECDSA
    }

    /// The form used.
    package var scheme: Scheme
    /// The JSON Web Token, as sent.
    package var token: String
    /// The public key, as sent (base64url, maybe padded or in standard base64).
    package var key: String

    /// Reads the `Authorization` (and, for the draft form, `Crypto-Key`) headers of `headers`.
    package static func read(_ headers: HTTPHeaders) -> Result<VAPIDAuthorization, Problem> {
        guard let header = headers["authorization"] else { return .failure(.missing) }
        let trimmed = trimSpaces(header)
        guard let space = trimmed.firstIndex(of: " ") else { return .failure(.unknownScheme) }
        let scheme = trimmed[..<space].lowercased()
        let rest = String(trimmed[trimmed.index(after: space)...]).filter { $0 != " " }
        guard !rest.isEmpty else { return .failure(.unknownScheme) }
        switch scheme {
        case "vapid":
            let items = parameters(rest, separators: [",", ";"])
            guard let token = items["t"] else { return .failure(.missingToken) }
            guard let key = items["k"] else { return .failure(.missingKey) }
            guard !key.isEmpty else { return .failure(.emptyKey) }
            return .success(VAPIDAuthorization(scheme: .vapid, token: token, key: key))
        case "webpush", "bearer":
            guard let cryptoKey = headers["crypto-key"] else { return .failure(.missingCryptoKeyHeader) }
            guard let key = parameters(cryptoKey.filter { $0 != " " }, separators: [",", ";"])["p256ecdsa"] else {
                return .failure(.cryptoKeyWithoutP256ECDSA)
            }
            guard !key.isEmpty else { return .failure(.emptyP256ECDSA) }
            return .success(VAPIDAuthorization(scheme: .cryptoKey, token: rest, key: key))
        default:
            return .failure(.unknownScheme)
        }
    }

    /// `name=value` items split at any of `separators`; a value's quotes are dropped (as
    /// autopush's `CryptoKeyHeader` drops them); the first of a repeated name wins.
    static func parameters(_ text: String, separators: Set<Character>) -> [String: String] {
        var items: [String: String] = [:]
        for item in text.split(whereSeparator: { separators.contains($0) }) {
            guard let eq = item.firstIndex(of: "=") else { continue }
            let name = String(item[..<eq]).lowercased()
            let value = String(item[item.index(after: eq)...]).filter { $0 != "\"" }
            if items[name] == nil { items[name] = value }
        }
        return items
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimSpaces(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }
}

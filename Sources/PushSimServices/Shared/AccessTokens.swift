import PushSimNetwork
import PushSimKernel

/// Bearer access tokens a service handed out, with their holder and expiry (OAuth 2 for FCM,
/// the Live login service for WNS). Expired or unknown tokens are refused by the caller.
struct AccessTokens {
    struct Grant { var principal: String; var expiresAt: VirtualTime }
    private var grants: [String: Grant] = [:]   // looked up only

    /// The last `Authorization` value found valid and its grant: the copies of one fan-out carry
    /// the same header, so it is looked up once.
    private var lastAccepted: (header: String, grant: Grant)?

    mutating func issue(_ token: String, to principal: String, expiresAt: VirtualTime) {
        grants[token] = Grant(principal: principal, expiresAt: expiresAt)
        lastAccepted = nil
    }

    enum Check: Equatable { case valid(principal: String), expired, unknown }

    func check(_ token: String, now: VirtualTime) -> Check {
        guard let grant = grants[token] else { return .unknown }
        return now < grant.expiresAt ? .valid(principal: grant.principal) : .expired
    }

    /// Checks the token in an `Authorization: Bearer <token>` value; nil when there is no bearer
    /// token in it (absent, or another scheme).
    mutating func check(authorization header: String?, now: VirtualTime) -> Check? {
        if let header, let last = lastAccepted, last.header == header {
            return now < last.grant.expiresAt ? .valid(principal: last.grant.principal) : .expired
        }
        guard let token = bearerToken(header) else { return nil }
        let result = check(token, now: now)
        if case .valid = result, let header { lastAccepted = (header, grants[token]!) }
        return result
    }
}

/// Reads `Bearer <token>` (scheme case-insensitive); nil when absent or another scheme.
func bearerToken(_ authorization: String?) -> String? {
    guard let authorization else { return nil }
    // "Bearer <token>": the scheme is case-insensitive; the token is the rest after one space.
    guard fieldName(authorization, hasPrefix: "bearer "), authorization.utf8.count > 7 else { return nil }
    let token = String(authorization.utf8.dropFirst(7))!
    return token
}

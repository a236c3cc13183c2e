import PushSimKernel
import PushSimNetwork

/// The endpoints each vendor hands out, made from the service's seeded random stream in the
/// shapes of live ones (Citations §9.1), and how a request's URL names one.
enum WebPushEndpoints {
    static let base64URLDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// A new token and its endpoint for `vendor`; `keyed` says whether the subscription names an
    /// application server key (Firefox then hands out a `v2` endpoint, else `v1`).
    ///
    /// - Chrome: an FCM registration token, 11 characters, `:APA91b` and 134 more, under
    ///   `/fcm/send/` (WP-FCM-201, WP-FCM-410).
    /// - Firefox: a Fernet token (it starts `gAAAAAB`): 183 characters for the 64 bytes of a `v2`
    ///   endpoint (the browser and channel ids and the key's SHA-256), 140 for the 32 of a `v1`
    ///   one (WP-AUTOPUSH `endpoint.rs`).
    /// - Safari: base64url starting with `Q` (WP-APPLE-ENDPOINT), 171 characters (the length of one
    ///   live endpoint: PushSim's reading).
    /// - Edge: the base64 of 245 bytes starting `05 06 00 00 00` (so the text starts `BQYAAA`),
    ///   percent-encoded in the query, on one of the regional hosts (WP-EDGE-ENDPOINT).
    static func make(_ vendor: WebPushVendor, keyed: Bool, random: inout SeededRandom) -> (token: String, endpoint: String) {
        switch vendor {
        case .chrome:
            let token = random.string(count: 11, from: base64URLDigits) + ":APA91b" + random.string(count: 134, from: base64URLDigits)
            return (token, "https://fcm.googleapis.com/fcm/send/" + token)
        case .firefox:
            let token = "gAAAAAB" + random.string(count: keyed ? 176 : 133, from: base64URLDigits)
            return (token, "https://updates.push.services.mozilla.com/wpush/" + (keyed ? "v2/" : "v1/") + token)
        case .safari:
            let token = "Q" + random.string(count: 170, from: base64URLDigits)
            return (token, "https://web.push.apple.com/" + token)
        case .edge:
            var bytes: [UInt8] = [0x05, 0x06, 0x00, 0x00, 0x00]
            for _ in 0..<240 { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
            let token = Base64.encode(bytes)
            let host = vendor.hosts[random.int(below: vendor.hosts.count)]
            return (token, "https://\(host)/w/?token=" + percentEncodedToken(token))
        }
    }

    /// A base64 token as Edge's endpoints carry it: `+`, `/` and `=` as `%2b`, `%2f`, `%3d`
    /// (lower-case, as live endpoints show them, WP-EDGE-ENDPOINT).
    static func percentEncodedToken(_ token: String) -> String {
        var out = ""
        for c in token {
            switch c {
            case "+": out += "%2b"
            case "/": out += "%2f"
            case "=": out += "%3d"
            default: out.append(c)
            }
        }
        return out
    }

    /// Where a request to a push service's host points.
    enum Target: Equatable {
        /// A push resource path naming `token`; for Firefox, `version` is the path's `v1` or `v2`
        /// (1 when the path has none, as autopush's `/wpush/{token}` route takes it).
        case token(String, version: Int)
        /// Not a push resource of this vendor's (unknown path, empty token, unknown API version).
        case notFound
    }

    /// What `request`, sent to `vendor`'s host, points at.
    static func target(of request: HTTPRequest, vendor: WebPushVendor) -> Target {
        let path = request.path
        switch vendor {
        case .chrome:
            for prefix in ["/fcm/send/", "/wp/"] where path.hasPrefix(prefix) {
                let token = String(path.dropFirst(prefix.count))
                return token.isEmpty || token.contains("/") ? .notFound : .token(token, version: 1)
            }
            return .notFound
        case .firefox:
            guard path.hasPrefix("/wpush/") else { return .notFound }
            let parts = path.dropFirst("/wpush/".count).split(separator: "/", omittingEmptySubsequences: false)
            switch parts.count {
            case 1 where !parts[0].isEmpty: return .token(String(parts[0]), version: 1)
            case 2 where (parts[0] == "v1" || parts[0] == "v2") && !parts[1].isEmpty:
                return .token(String(parts[1]), version: parts[0] == "v2" ? 2 : 1)
            default: return .notFound
            }
        case .safari:
            let token = String(path.dropFirst())
            return path.hasPrefix("/") && !token.isEmpty && !token.contains("/") ? .token(token, version: 1) : .notFound
        case .edge:
            guard path == "/w/" || path == "/w", let token = request.queryValue("token"), !token.isEmpty else { return .notFound }
            return .token(token, version: 1)
        }
    }

    /// Whether a path on `fcm.googleapis.com` is FCM's web push endpoint (`/fcm/send/<token>`,
    /// `/wp/<token>`) rather than its HTTP v1 API or the retired legacy `/fcm/send`.
    static func isChromePushPath(_ path: String) -> Bool { path.hasPrefix("/fcm/send/") || path.hasPrefix("/wp/") }
}

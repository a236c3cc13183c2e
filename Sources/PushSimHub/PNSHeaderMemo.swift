import PushSimNetwork

/// The headers of the last native send's copies, per PNS: every copy of one native send to one
/// PNS carries the same headers (credential, topic, push type, the sender's `apns-*`/`X-WNS-*`),
/// so a fan-out builds them for its first copy and shares them with the rest. Template sends
/// render headers per target and do not use the memo.
struct PNSHeaderMemo {
    private struct Entry {
        var notification: HubNotification
        /// The credential the headers carry (APNs provider token, FCM or WNS access token): a
        /// renewed one makes new headers.
        var credential: String
        var headers: HTTPHeaders
    }
    private var entries: [Entry?] = [nil, nil, nil]   // apple, fcmV1, windows

    /// The headers for a copy of `n` to `platform` with `credential`, built by `build` unless the
    /// previous copy had the same notification and credential.
    mutating func headers(_ n: HubNotification, _ platform: RegistrationPlatform, credential: String,
                          build: () -> HTTPHeaders) -> HTTPHeaders {
        let slot: Int
        switch platform {
        case .apple: slot = 0
        case .fcmV1: slot = 1
        case .windows: slot = 2
        case .gcm, .mpns: return build()
        }
        if let e = entries[slot], e.notification === n, e.credential == credential { return e.headers }
        let headers = build()
        entries[slot] = Entry(notification: n, credential: credential, headers: headers)
        return headers
    }
}

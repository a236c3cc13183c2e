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
    /// By the platform's storage code.
    private var entries = [Entry?](repeating: nil, count: RegistrationPlatform.storageCodeCount)

    /// The headers for a copy of `n` to `platform` with `credential`, built by `build` unless the
    /// previous copy had the same notification and credential.
    mutating func headers(_ n: HubNotification, _ platform: RegistrationPlatform, credential: String,
                          build: () -> HTTPHeaders) -> HTTPHeaders {
        guard !platform.isRetired else { return build() }   // never sent to: nothing worth remembering
        let slot = Int(platform.storageCode)
        if let e = entries[slot], e.notification === n, e.credential == credential { return e.headers }
        let headers = build()
        entries[slot] = Entry(notification: n, credential: credential, headers: headers)
        return headers
    }
}

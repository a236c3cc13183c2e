import PushSimKernel

/// Whose push service a browser uses: each browser vendor runs its own, on its own host, and each
/// answers the same RFC 8030 request in its own words (Citations §9, §9.1).
///
/// | vendor | browser | push service | endpoint |
/// |---|---|---|---|
/// | ``chrome`` | Chrome (and other Chromium browsers but Edge) | Firebase Cloud Messaging | `https://fcm.googleapis.com/fcm/send/<token>` (also `/wp/<token>`) |
/// | ``firefox`` | Firefox | Mozilla's autopush | `https://updates.push.services.mozilla.com/wpush/v2/<token>` (`v1` without a key) |
/// | ``safari`` | Safari (macOS 13, iOS 16.4 and later) | Apple's web push service, on APNs | `https://web.push.apple.com/<token>` |
/// | ``edge`` | Microsoft Edge | Windows Push Notification Services | `https://wns2-<region>.notify.windows.com/w/?token=<token>` |
public enum WebPushVendor: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Chrome's push service, FCM's web push endpoint (WP-CHROMIUM, WP-FCM-201).
    case chrome
    /// Firefox's push service, autopush (WP-AUTOPUSH).
    case firefox
    /// Safari's push service, Apple's (WP-APPLE).
    case safari
    /// Edge's push service, WNS (WP-EDGE-ENDPOINT).
    case edge

    /// `chrome`, `firefox`, `safari`, `edge`.
    public var description: String { rawValue }

    /// How people name the service: `Chrome (FCM)`, `Firefox (autopush)`, `Safari (Apple)`, `Edge (WNS)`.
    public var displayName: String {
        switch self {
        case .chrome: return "Chrome (FCM)"
        case .firefox: return "Firefox (autopush)"
        case .safari: return "Safari (Apple)"
        case .edge: return "Edge (WNS)"
        }
    }

    /// The host names its endpoints use. Edge's endpoints name a WNS region; the four here are
    /// regions seen in live endpoints (WP-EDGE-ENDPOINT), and a subscription gets one of them.
    public var hosts: [String] {
        switch self {
        case .chrome: return ["fcm.googleapis.com"]
        case .firefox: return ["updates.push.services.mozilla.com"]
        case .safari: return ["web.push.apple.com"]
        case .edge: return ["wns2-bl2p", "wns2-db5p", "wns2-par02p", "wns2-pn1p"].map { $0 + ".notify.windows.com" }
        }
    }

    /// The vendor whose push service answers at `host` (lower-case), if any.
    public static func serving(host: String) -> WebPushVendor? { allCases.first { $0.hosts.contains(host) } }

    /// The largest body the service takes, in bytes; one more is refused (Citations §9.3).
    /// RFC 8030 section 7.2 forbids refusing 4096 bytes or fewer. Chrome and Safari stop at 4096
    /// (WP-CHROMIUM: "the maximum size accepted by FCM is 4096"; WP-APPLE: "over the limit of
    /// 4 KB"); autopush at its `max_data_bytes`, 5630 by default (WP-AUTOPUSH `settings.rs`; its
    /// error page says 4028 characters, unconfirmed); Edge at WNS's 5000 (W-HDR; unconfirmed for
    /// web push).
    public var maxPayloadBytes: Int {
        switch self {
        case .chrome, .safari: return 4096
        case .firefox: return 5630
        case .edge: return 5000
        }
    }

    /// The longest a message is kept, in seconds: a longer `TTL` is cut to this (RFC 8030 section
    /// 5.2 lets a push service do so). autopush: 30 days (`MAX_NOTIFICATION_TTL_SECS`,
    /// WP-AUTOPUSH); Safari: "30 days or fewer" (WP-APPLE); Chrome: FCM's 4 weeks (F-MSG); Edge:
    /// 30 days (unconfirmed: no source gives WNS's limit for web push).
    public var maxTTLSeconds: Int64 {
        switch self {
        case .chrome: return 2_419_200
        case .firefox, .safari, .edge: return 2_592_000
        }
    }

    /// How long a subscription lives without its browser connecting: past it, the service has
    /// forgotten it. FCM treats a token unseen for 270 days as expired and answers 404 (F-TOK,
    /// WP-FCM-404); autopush drops a browser that has not connected for 60 days and answers 410
    /// (WP-AUTOPUSH-776, `MAX_ROUTER_TTL_SECS`). Apple and WNS publish none: nil.
    public var inactivityLimit: VirtualDuration? {
        switch self {
        case .chrome: return .days(270)
        case .firefox: return .days(60)
        case .safari, .edge: return nil
        }
    }

    /// Whether a subscription must name an application server key: Chrome, Safari and Edge refuse
    /// `subscribe()` without one (WP-APPLE asks for a VAPID key pair; Chrome dropped the
    /// `gcm_sender_id` path, WP-CHROMIUM); Firefox makes a `v1` endpoint that takes unsigned
    /// messages (WP-AUTOPUSH `endpoint.rs`).
    public var requiresApplicationServerKey: Bool { self != .firefox }

    /// Whether the service still takes the older VAPID form, `Authorization: WebPush <JWT>` with
    /// the key in `Crypto-Key: p256ecdsa=…` (draft-ietf-webpush-vapid-01). autopush accepts the
    /// `webpush` and `bearer` schemes (WP-AUTOPUSH `vapid.rs`); FCM answers that form's own errors
    /// (WP-CHROMIUM `web_push_common.cc`). Safari and Edge: the `vapid` scheme only (PushSim's
    /// reading: WP-APPLE names only it).
    public var acceptsCryptoKeyScheme: Bool { self == .chrome || self == .firefox }
}

/// Which browser a simulated browser is, which decides the push service its subscriptions come
/// from: Chrome's (on FCM's host), Firefox's (autopush), Safari's (Apple's web push) or Edge's
/// (on WNS). The raw value is what the browser names in its `POST /subscribe` on
/// `WebPushChannel`, and the vendor name PushSimServices' `WebPushVendor` reads.
public enum BrowserVendor: String, Sendable, CaseIterable {
    /// Google Chrome: endpoints on `fcm.googleapis.com`.
    case chrome
    /// Mozilla Firefox: endpoints on `updates.push.services.mozilla.com`.
    case firefox
    /// Apple Safari (macOS 13 and later, iOS 16.4 and later): endpoints on `web.push.apple.com`.
    case safari
    /// Microsoft Edge: endpoints on WNS's `wns2-<region>.notify.windows.com` hosts.
    case edge
}

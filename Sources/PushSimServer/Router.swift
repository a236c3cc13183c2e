import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimHub
import PushSimBackend
import PushSimScenario

/// Where a request on the one port goes: the control API, or one of the world's hosts under the
/// name the real service has (so the fake sees the same `authority` a scenario's caller sends).
///
/// 1. `/_pushsim` and below: the control API.
/// 2. A `Host` header (or absolute-form target) naming a public host of the world, such as
///    `api.sandbox.push.apple.com` or `pushsim.servicebus.windows.net` (a client whose DNS or
///    hosts file points those names here): that host, whatever the path.
/// 3. Otherwise by path, as the real services lay theirs out (each fake names its own paths:
///    `FakePushService.loopbackHost(path:target:)`):
///    - `/{hub}/…` (the hub's name first) → the notification hub (`<namespace>.servicebus.windows.net`);
///    - `/v1/projects/…` → FCM HTTP v1 (`fcm.googleapis.com`);
///    - `/token`, `/oauth2/v4/token` → Google's OAuth token endpoint (`oauth2.googleapis.com`);
///    - `/iid/…` → the Instance ID API, FCM's topic subscriptions (`iid.googleapis.com`);
///    - `/3/device/…` and `/4/broadcasts/…` → APNs production (`api.push.apple.com`; the sandbox
///      through its `Host`); `/1/apps/…` → APNs' channel management API
///      (`api-manage-broadcast.push.apple.com`; the sandbox's through its `Host`);
///    - `/accesstoken.srf` → the Live token endpoint for WNS (`login.live.com`);
///    - `/?token=…` → a WNS channel URI (`cloud.notify.windows.com`);
///    - the browsers' push endpoints (`WebPushService.loopbackHost(path:target:)`): `/fcm/send/…`
///      and `/wp/…` (Chrome's, on `fcm.googleapis.com`), `/wpush/…` (Firefox's), `/w/?token=…`
///      (Edge's), `/Q…` (Safari's);
///    - `/api/…` → the tutorial's app backend.
/// 4. Anything else: nil (the server answers 404 with JSON).
package struct Router: Sendable {
    /// Where route(_:) sends a request.
    public enum Route: Sendable, Equatable {
        /// The control API: `/_pushsim` and below.
        case control
        /// A world host, by the authority to put on the in-world request.
        case host(authority: String)
    }

    /// The hub's name: the first path segment of its REST API.
    public var hubName: String
    /// The hub's host (`pushsim.servicebus.windows.net`).
    public var hubHost: String
    /// Public host names of the world a `Host` header may pick (lower-case).
    public var publicHosts: [String]

    /// A router for the hub `hubName` at `hubHost`; the other public hosts are APNs', FCM's,
    /// WNS's, the browsers' push services' and the two backends'.
    public init(hubName: String, hubHost: String) {
        self.hubName = hubName
        self.hubHost = hubHost
        self.publicHosts = [hubHost.lowercased()] + SimulatedPushServices.fakes.flatMap { $0.publicHosts } + WebPushService.registeredHosts
            + [TutorialBackend.publicHost, HardenedBackend.publicHost].map { $0.lowercased() }
    }

    /// Where `request` goes, by the rules above, in that order; nil when nothing is served there.
    public func route(_ request: WireRequest) -> Route? {
        let path = request.path
        if path == "/_pushsim" || path.hasBytePrefix("/_pushsim/") { return .control }
        if let host = request.hostName, publicHosts.contains(host) { return .host(authority: host) }
        for fake in SimulatedPushServices.fakes {
            if let host = fake.loopbackHost(path: path, target: request.target) { return .host(authority: host) }
        }
        if let host = WebPushService.loopbackHost(path: path, target: request.target) { return .host(authority: host) }
        if path.hasBytePrefix("/api/") { return .host(authority: TutorialBackend.publicHost) }
        let segment = path.utf8.dropFirst().prefix { $0 != UInt8(ascii: "/") }
        if !segment.isEmpty && percentDecode(String(decoding: segment, as: UTF8.self)).asciiLowercased() == hubName.asciiLowercased() { return .host(authority: hubHost) }
        return nil
    }

    /// The in-world request for a routed wire request: same method, path (as sent), query,
    /// header fields (in order) and body. The hop-by-hop and framing fields of this connection
    /// (`Host`, `Connection`, `Keep-Alive`, `Transfer-Encoding`, `TE`, `Upgrade`, `Expect`,
    /// `Content-Length`, `Trailer`, `Proxy-*`) stay at the boundary: in the world the request is already
    /// framed, and its authority says where it goes.
    public static func worldRequest(_ request: WireRequest, authority: String) -> HTTPRequest {
        let (path, query) = splitTarget(request.target)
        var headers = HTTPHeaders(minimumCapacity: request.headers.count)
        for field in request.headers where !isBoundaryField(field.name) { headers.add(field.name, field.value) }
        return HTTPRequest(method: request.method, authority: authority, path: path, query: query, headers: headers, body: request.body)
    }

    static let boundaryFields = ["Host", "Connection", "Keep-Alive", "Transfer-Encoding", "TE", "Upgrade", "Expect",
                                 "Content-Length", "Trailer"]

    static func isBoundaryField(_ name: String) -> Bool {
        boundaryFields.contains { sameFieldName($0, name) } || fieldName(name, hasPrefix: "Proxy-")
    }
}

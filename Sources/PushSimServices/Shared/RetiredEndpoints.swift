import PushSimKernel
import PushSimNetwork

/// Push endpoints that were shut down, answering as they do today, so that a client still
/// pointed at one fails the way it would in production.
///
/// The Citations article only says these APIs were deprecated and shut down (§2.8 F-MIG, GCM-EOL;
/// §3.8 MPNS-NH). What they answer now is PushSim's reading of public reports, recorded here:
///
/// | endpoint | PushSim answers | based on |
/// |---|---|---|
/// | `https://fcm.googleapis.com/fcm/send` (FCM legacy HTTP; deprecated 2023-06-20, shutdown began 2024-07-22, F-MIG) | **404**, `application/json`, `{"error":"Deprecated endpoint, see https://firebase.google.com/docs/cloud-messaging/migrate-v1"}` | the body is quoted verbatim by users from August–September 2024 (github.com/smartnav/fcm-notification issue 19, github.com/itisnajim/strapi-plugin-fcm issue 25); those reports do not give the status. firebase-admin-node treats it as an HTTP error, so it is not 2xx; 404 is PushSim's choice, the status Google's front end gives the other removed legacy path (`/batch`, github.com/firebase/firebase-admin-go issue 664) |
/// | `https://gcm-http.googleapis.com/gcm/send`, `https://android.googleapis.com/gcm/send` (GCM; removed 2019, GCM-EOL) | **400**, `text/plain`, `Error=DeprecatedEndpoint` | reported with status 400 since August 2019 (github.com/Redth/PushSharp issue 907, github.com/danhper/pushex issue 11) and still in 2021 for gcm-http (github.com/mitch-tofi/PushSharp.Core pull 4) |
/// | MPNS channel URIs `http(s)://*.notify.live.net/…` (Windows Phone; service ended ~2018, MPNS-NH "deprecated and no longer supported") | **no such host**: no PushSim host answers to these names, so every call fails with ``TransportFailure/noSuchHost`` | no source says what the hosts do today; "the names no longer resolve" is PushSim's reading of a retired service, and the one that makes a provider fail without a response |
///
/// Earlier shutdown behaviours are not modelled: the 2024 ramp-down, when some legacy sends still
/// succeeded and others got `{"results":[{"error":"DeprecatedApi"}]}` (github.com/jlcvp/fcm-node
/// issue 100), nor the XMPP endpoints.
///
/// The Google hosts are aliases of ``FCMService`` (Google's front end owns them); MPNS needs no
/// code, only the promise that nothing registers a `notify.live.net` name.
package enum RetiredEndpoints {
    /// Host names of the retired GCM HTTP API (GCM-EOL).
    public static let gcmHosts = ["gcm-http.googleapis.com", "android.googleapis.com"]
    /// The path of the retired FCM legacy HTTP API on `fcm.googleapis.com` (F-MIG).
    public static let legacyFCMPath = "/fcm/send"
    /// The domain under which MPNS channel URIs lived (MPNS-NH); nothing answers there.
    public static let mpnsDomain = "notify.live.net"

    /// True for a host name under the retired MPNS domain, e.g. `db3.notify.live.net`.
    public static func isMPNSHost(_ host: String) -> Bool {
        host == mpnsDomain || host.hasSuffix("." + mpnsDomain)
    }

    /// What `fcm.googleapis.com/fcm/send` answers today (any method, any body, any key).
    public static var legacyFCMResponse: HTTPResponse {
        HTTPResponse(status: 404, headers: ["content-type": "application/json; charset=UTF-8"],
                     text: #"{"error":"Deprecated endpoint, see https://firebase.google.com/docs/cloud-messaging/migrate-v1"}"#)
    }

    /// What the GCM hosts answer today (any path).
    public static var gcmResponse: HTTPResponse {
        HTTPResponse(status: 400, headers: ["content-type": "text/plain; charset=UTF-8"], text: "Error=DeprecatedEndpoint")
    }

    /// Answers a request to a retired Google endpoint and traces `endpoint.retired`.
    static func answer(_ request: HTTPRequest, exchange: Exchange, world: World, service: String) {
        let response = gcmHosts.contains(request.authority) ? gcmResponse : legacyFCMResponse
        world.record(layer: service, host: service, kind: .endpointRetired,
                     [.authority: .string(request.authority), .path: .string(request.path), .status: .int(response.status)])
        world.respond(to: exchange, with: response)
    }

    /// True when `request` is for a retired Google endpoint that ``FCMService`` answers.
    static func isRetiredGoogle(_ request: HTTPRequest) -> Bool {
        // The send path first: a fan-out asks this of every copy, and its path is never these.
        (request.path.utf8.count == legacyFCMPath.utf8.count && request.authority == FCMService.apiHost && request.path == legacyFCMPath)
            || (request.authority != FCMService.apiHost && gcmHosts.contains(request.authority))
    }
}

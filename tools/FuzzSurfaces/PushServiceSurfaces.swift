import PushSim

/// The fake push services' provider APIs, fed ``RequestScript`` inputs in a fresh
/// ``ServiceBench`` world whose iPhone, Android phone and Windows PC hold real handles:
/// - `apns`: `POST /3/device/<token>` over HTTP/2 in reality; the fake checks the provider token
///   (ES256 JWT: 403 `InvalidProviderToken`, `ExpiredProviderToken`), path, `apns-*` headers and
///   payload (400 `BadDeviceToken`, `PayloadTooLarge` 413, …) and delivers to the phone; and the
///   broadcast channel API (§1.20): channel management on `api-manage-broadcast.push.apple.com`,
///   `POST /4/broadcasts/apps/<bundle id>` (`MissingChannelId`, `ChannelNotRegistered`, …).
/// - `fcm`: Google's OAuth token endpoint (`invalid_grant`) and HTTP v1 `messages:send`
///   (`INVALID_ARGUMENT`, `UNREGISTERED`, `UNAUTHENTICATED` with Google RPC error bodies).
/// - `wns`: the `login.live.com` token endpoint and channel URIs (`X-WNS-Type`, `X-WNS-TTL`,
///   `X-WNS-Cache-Policy`, …; 400/401/404/406/410/413 with `X-WNS-Error-Description`).
/// Each script may also reach the service's device channel, as a stranger would.
public enum PushServiceSurfaces {
    static func request(_ line: String, _ headers: [String], _ body: String = "") -> String {
        ([line + " HTTP/1.1"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// The `apns` surface.
    public static func apns() -> FuzzSurface {
        let auth = ["authorization: bearer {{APNS-JWT}}", "apns-topic: {{TOPIC}}"]
        func push(_ headers: [String], _ body: String, host: String = "api.push.apple.com") -> String {
            request("POST https://\(host)/3/device/{{IOS}}", auth + headers, body)
        }
        func manage(_ method: String, _ headers: [String], _ body: String = "", path: String = "/1/apps/{{TOPIC}}/channels") -> String {
            request("\(method) https://api-manage-broadcast.push.apple.com\(path)", ["authorization: bearer {{APNS-JWT}}"] + headers, body)
        }
        let scripts: [[String]] = [
            [push(["apns-push-type: alert", "apns-priority: 10", "apns-expiration: 0", "apns-id: 3f1c2d4e-8a9b-4c7d-9e0f-112233445566",
                   "apns-collapse-id: c1"], #"{"aps":{"alert":{"title":"T","body":"B"},"badge":1,"sound":"default"},"k":"v"}"#)],
            [push(["apns-push-type: background", "apns-priority: 5"], #"{"aps":{"content-available":1}}"#),
             push(["apns-push-type: alert", "apns-expiration: 1767229200"], #"{"aps":{"alert":"again"}}"#)],
            [push(["apns-push-type: alert"], #"{"aps":{"alert":"sandbox"}}"#, host: "api.sandbox.push.apple.com"),
             request("POST https://api.push.apple.com/3/device/0123456789abcdef", auth, #"{"aps":{"alert":"bad token"}}"#)],
            [push(["apns-push-type: alert"], #"{"aps":{"alert":"one"}}"#), "WAIT 61m", push(["apns-push-type: alert"], #"{"aps":{"alert":"expired"}}"#)],
            [push(["apns-push-type: voip"], #"{"aps":{}}"#).replacing("apns-topic: {{TOPIC}}", with: "apns-topic: {{TOPIC}}.voip"),
             push(["apns-push-type: liveactivity"], #"{"aps":{"timestamp":1767225600,"event":"update","content-state":{}}}"#)],
            [request("POST https://courier.push.apple.com/register", ["content-type: application/json"],
                     #"{"app":"{{TOPIC}}","install":9,"environment":"production"}"#),
             request("GET https://api.push.apple.com/3/device/{{IOS}}", auth)],
            // Live Activities: ActivityKit's token request on the device channel, then a liveactivity
            // push with the Live Activity topic to the app's device token (400 DeviceTokenNotForTopic).
            [request("POST https://courier.push.apple.com/live-activity-token", ["content-type: application/json"],
                     #"{"app":"{{TOPIC}}","environment":"production","generation":1,"install":1,"kind":"push-to-start","subject":"MatchAttributes"}"#),
             push(["apns-push-type: liveactivity", "apns-priority: 10"],
                  #"{"aps":{"timestamp":1767225600,"event":"start","content-state":{"home":0},"attributes-type":"MatchAttributes","attributes":{},"input-push-token":1}}"#)
                .replacing("apns-topic: {{TOPIC}}", with: "apns-topic: {{TOPIC}}.push-type.liveactivity")],
            // Broadcast channels (§1.20): the channel management API, a broadcast, a device's subscription.
            [manage("POST", [], #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#),
             manage("GET", ["apns-channel-id: dHN0LXNyY2gtY2hubA=="], path: "/1/apps/{{TOPIC}}/all-channels"),
             manage("GET", ["apns-channel-id: dHN0LXNyY2gtY2hubA==", "apns-request-id: 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"]),
             manage("DELETE", ["apns-channel-id: dHN0LXNyY2gtY2hubA=="])],
            [request("POST https://api.push.apple.com/4/broadcasts/apps/{{TOPIC}}",
                     ["authorization: bearer {{APNS-JWT}}", "apns-channel-id: dHN0LXNyY2gtY2hubA==", "apns-push-type: liveactivity",
                      "apns-expiration: 0", "apns-priority: 5"],
                     #"{"aps":{"timestamp":1767225600,"event":"update","content-state":{"score":"1-0"}}}"#),
             request("POST https://courier.push.apple.com/broadcast-channels", ["content-type: application/json"],
                     #"{"channel":"dHN0LXNyY2gtY2hubA==","delete":false,"token":"{{IOS}}"}"#)],
        ]
        return FuzzSurface(name: "apns", summary: "request scripts to the fake APNs provider API (400/403/404/405/410/413 with a reason)",
                           corpus: scripts.map(RequestScript.join), prefersText: true, inputsPerProcess: 10_000) { bytes in
            ServiceBench().run(bytes, defaultAuthority: "api.push.apple.com")
        }
    }

    /// The `fcm` surface.
    public static func fcm() -> FuzzSurface {
        let auth = ["Authorization: Bearer {{FCM-BEARER}}", "Content-Type: application/json; charset=UTF-8"]
        func send(_ body: String) -> String { request("POST https://fcm.googleapis.com/v1/projects/{{PROJECT}}/messages:send", auth, body) }
        let scripts: [[String]] = [
            [send(#"{"message":{"token":"{{ANDROID}}","notification":{"title":"T","body":"B"},"data":{"k":"v"},"android":{"priority":"high","ttl":"3.5s","collapse_key":"c"}}}"#)],
            [send(#"{"message":{"token":"{{ANDROID}}","data":{"only":"data"}},"validate_only":true}"#),
             send(#"{"message":{"topic":"news","notification":{"body":"b"}}}"#)],
            [request("POST https://oauth2.googleapis.com/token", ["Content-Type: application/x-www-form-urlencoded"],
                     "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion={{FCM-ASSERTION}}"),
             send(#"{"message":{"token":"{{ANDROID}}","notification":{"body":"after oauth"}}}"#)],
            [send(#"{"message":{"token":"{{ANDROID}}","notification":{"body":"1"}}}"#), "WAIT 2h",
             send(#"{"message":{"token":"{{ANDROID}}","notification":{"body":"expired token"}}}"#)],
            [send(#"{"message":{"condition":"'a' in topics && 'b' in topics","notification":{"body":"c"}}}"#),
             request("POST https://fcm.googleapis.com/fcm/send", ["Authorization: key=AAAA", "Content-Type: application/json"], #"{"to":"{{ANDROID}}"}"#),
             request("POST https://gcm-http.googleapis.com/gcm/send", ["Authorization: key=AAAA"], #"{"to":"x"}"#)],
            [request("POST https://mtalk.google.com/register", ["Content-Type: application/json"],
                     #"{"app":"com.pushsim.notifyusers","install":7,"environment":"production"}"#),
             send(#"{"message":{"token":"{{ANDROID}}","apns":{"payload":{}},"webpush":{},"fcm_options":{"analytics_label":"x"}}}"#)],
            // Topics: the Instance ID API as firebase-admin calls it, the device's own subscription, a topic and a condition send.
            [request("POST https://iid.googleapis.com/iid/v1:batchAdd", auth + ["access_token_auth: true"],
                     #"{"to":"/topics/news","registration_tokens":["{{ANDROID}}","not-a-token"]}"#),
             request("GET https://iid.googleapis.com/iid/info/{{ANDROID}}?details=true", auth + ["access_token_auth: true"], ""),
             send(#"{"message":{"condition":"!('news' in topics) || ('a' in topics && 'b' in topics)","data":{"k":"v"}}}"#)],
            // The FCM → APNs relay: an iPhone app's FCM token, its apns block, a token request naming an APNs token.
            [send(#"{"message":{"token":"{{IOS-FCM}}","notification":{"title":"T","body":"B"},"data":{"k":"v"},"apns":{"headers":{"apns-priority":"5","apns-collapse-id":"c"},"payload":{"aps":{"alert":"A","badge":1},"k":"p"}}}}"#),
             request("POST https://mtalk.google.com/register", ["Content-Type: application/json"],
                     #"{"app":"com.pushsim.notifyusers","install":3,"environment":"{{PROJECT}}","apns_token":"s_00ff"}"#),
             send(#"{"message":{"token":"{{IOS-FCM}}","data":{"only":"data"},"apns":{"payload":{"aps":{"content-available":1}}}}}"#)],
            // apns.live_activity_token: relayed to that token (unknown to APNs: BadDeviceToken, so 404 UNREGISTERED).
            [send(#"{"message":{"token":"{{IOS-FCM}}","apns":{"live_activity_token":"00ff","payload":{"aps":{"timestamp":1767225600,"event":"update","content-state":{}}}}}}"#)],
            [request("POST https://iid.googleapis.com/iid/v1/{{ANDROID}}/rel/topics/sport", auth + ["access_token_auth: true"], ""),
             request("POST https://mtalk.google.com/topics", ["Content-Type: application/json"],
                     #"{"token":"{{ANDROID}}","topic":"/topics/news","delete":false}"#),
             send(#"{"message":{"topic":"sport","android":{"ttl":"0s"},"data":{"k":"v"}}}"#),
             request("POST https://iid.googleapis.com/iid/v1:batchRemove", auth + ["access_token_auth: true"],
                     #"{"to":"/topics/sport","registration_tokens":["{{ANDROID}}"]}"#)],
        ]
        return FuzzSurface(name: "fcm", summary: "request scripts to the fake FCM OAuth, HTTP v1 send and Instance ID endpoints (Google RPC error bodies)",
                           corpus: scripts.map(RequestScript.join), prefersText: true, inputsPerProcess: 10_000) { bytes in
            ServiceBench().run(bytes, defaultAuthority: "fcm.googleapis.com")
        }
    }

    /// The `wns` surface.
    public static func wns() -> FuzzSurface {
        func push(_ type: String, _ contentType: String, _ extra: [String], _ body: String) -> String {
            request("POST {{WINDOWS}}", ["Authorization: Bearer {{WNS-BEARER}}", "X-WNS-Type: \(type)", "Content-Type: \(contentType)"] + extra, body)
        }
        let toast = #"<toast launch="app"><visual><binding template="ToastGeneric"><text>Hi</text><text>there</text></binding></visual></toast>"#
        let scripts: [[String]] = [
            [push("wns/toast", "text/xml", ["X-WNS-RequestForStatus: true", "X-WNS-Tag: t1", "X-WNS-TTL: 60"], toast)],
            [push("wns/tile", "text/xml", ["X-WNS-Cache-Policy: cache"], #"<tile><visual><binding template="TileSmall"><text>1</text></binding></visual></tile>"#),
             push("wns/badge", "text/xml", [], #"<badge value="7"/>"#)],
            [push("wns/raw", "application/octet-stream", ["X-WNS-Cache-Policy: no-cache"], "raw bytes \u{1}\u{2}"),
             push("wns/toast", "text/xml", ["X-WNS-SuppressPopup: true"], toast)],
            [request("POST https://login.live.com/accesstoken.srf", ["Content-Type: application/x-www-form-urlencoded"],
                     "grant_type=client_credentials&client_id={{WNS-SID}}&client_secret={{WNS-SECRET}}&scope=notify.windows.com"),
             push("wns/toast", "text/xml", [], toast)],
            [push("wns/toast", "text/xml", [], toast), "WAIT 25h", push("wns/toast", "text/xml", [], toast)],
            [request("POST https://client.wns.windows.com/register", ["Content-Type: application/json"],
                     #"{"app":"com.pushsim.notifyusers","install":3,"environment":"production"}"#),
             push("wns/toast", "text/xml", ["X-WNS-TTL: 9223372036854775807"], toast)],
        ]
        return FuzzSurface(name: "wns", summary: "request scripts to the fake WNS login and channel URIs (X-WNS-* answers)",
                           corpus: scripts.map(RequestScript.join), prefersText: true, inputsPerProcess: 10_000) { bytes in
            ServiceBench().run(bytes, defaultAuthority: "cloud.notify.windows.com")
        }
    }
}

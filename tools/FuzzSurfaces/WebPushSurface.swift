import PushSim

/// The browsers' Web Push services (`WebPushService`), fed ``RequestScript`` inputs in a fresh
/// ``ServiceBench`` world that holds one subscription per vendor (Chrome, Firefox, Safari, Edge)
/// made with a fixed VAPID key, whose signed `Authorization` values the scripts name:
/// `{{ENDPOINT-CHROME}}` … and `{{VAPID-CHROME}}` …, valid for 12 hours of virtual time. The
/// service parses the `Authorization` and `Crypto-Key` headers, verifies ES256 signatures,
/// reads `TTL`, `Urgency`, `Topic` and `Content-Encoding`, and looks at an `aes128gcm` header;
/// the messages are kept for the absent browser (no browser is simulated yet).
extension PushServiceSurfaces {
    /// The `webpush` surface.
    public static func webPush() -> FuzzSurface {
        func post(_ vendor: String, _ headers: [String], _ body: String = "") -> String {
            request("POST {{ENDPOINT-\(vendor)}}", headers, body)
        }
        let scripts: [[String]] = [
            [post("FIREFOX", ["TTL: 60", "Authorization: {{VAPID-FIREFOX}}", "Topic: mail", "Urgency: high"])],
            [post("CHROME", ["TTL: 0", "Authorization: {{VAPID-CHROME}}", "Content-Encoding: aes128gcm"], "\u{3}\u{3}\u{3}body"),
             post("CHROME", ["TTL: 60", "Authorization: WebPush x.y.z", "Crypto-Key: p256ecdsa=BAAA"])],
            [post("SAFARI", ["TTL: 3600", "Authorization: {{VAPID-SAFARI}}", "Topic: abcd", "Urgency: very-low"]),
             post("SAFARI", ["TTL: 3600", "Authorization: {{VAPID-SAFARI}}", "Topic: abcd"]), "WAIT 13h",
             post("SAFARI", ["TTL: 60", "Authorization: {{VAPID-SAFARI}}"])],
            [post("EDGE", ["TTL: 0", "X-WNS-Cache-Policy: no-cache", "Authorization: {{VAPID-EDGE}}"]),
             post("EDGE", ["TTL: 60", "Authorization: vapid t=a.b.c, k=BAAA"])],
            [post("FIREFOX", ["TTL: 99999999999", "Authorization: {{VAPID-FIREFOX}}", "Content-Encoding: aesgcm",
                              "Encryption: salt=c2FsdA", "Crypto-Key: dh=BDw9"], "ciphertext"),
             request("POST https://updates.push.services.mozilla.com/wpush/v3/x", ["TTL: 1"])],
            [request("POST https://webpush/subscribe", ["Content-Type: application/json"], #"{"vendor":"safari","applicationServerKey":"BAAA"}"#),
             request("GET {{ENDPOINT-SAFARI}}", ["TTL: 1"])],
        ]
        return FuzzSurface(name: "webpush", summary: "request scripts to the browsers' Web Push endpoints (VAPID, TTL, Topic; each vendor's refusals)",
                           corpus: scripts.map(RequestScript.join), prefersText: true, inputsPerProcess: 10_000) { bytes in
            ServiceBench(webPush: true).run(bytes, defaultAuthority: "updates.push.services.mozilla.com")
        }
    }
}

import PushSim

/// The fake Notification Hub's REST surface, fed ``RequestScript`` inputs in a fresh
/// ``ServiceBench`` world: registration ids, Atom XML registrations (native and template, on every
/// platform), installations (JSON PUT, JSON Patch), native, template, direct, batch, test and
/// scheduled sends with their `ServiceBusNotification-*` headers and tag expressions, reads,
/// telemetry and PNS feedback. The hub then really calls the fake APNs, FCM and WNS, which
/// deliver to the devices. The real hub answers every malformed request with a 4xx and an XML
/// `<Error>`; so must this one, and nothing may trap.
public enum HubSurface {
    static let hub = "/notifyusers"
    static let api = "?api-version=2015-01"

    /// One request's text (`POST /path` + headers + body).
    static func request(_ line: String, _ headers: [String], _ body: String = "") -> String {
        ([line + " HTTP/1.1"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    static func atom(_ platform: RegistrationPlatform, _ handle: String, tags: [String], template: String? = nil) -> String {
        String(decoding: AtomRegistration.requestBody(RegistrationDescription(
            platform: platform, handle: handle, tags: tags, template: template.map { RegistrationTemplate(bodyTemplate: $0, templateName: "t1") })),
            as: UTF8.self)
    }

    static let auth = "Authorization: {{SAS}}"
    static let atomType = "Content-Type: application/atom+xml;type=entry;charset=utf-8"

    static func register(_ id: String, _ platform: RegistrationPlatform, _ handle: String, tags: [String], template: String? = nil) -> [String] {
        [request("POST \(hub)/registrationIDs/\(api)", [auth]),
         request("PUT \(hub)/registrations/\(id)\(api)", [auth, atomType], atom(platform, handle, tags: tags, template: template))]
    }

    static func send(_ format: String, tags: String?, _ body: String, contentType: String = "application/json;charset=utf-8",
                     query: String = "", extra: [String] = []) -> String {
        request("POST \(hub)/messages/\(api)\(query)",
                [auth, "ServiceBusNotification-Format: \(format)", "Content-Type: \(contentType)"]
                    + (tags.map { ["ServiceBusNotification-Tags: \($0)"] } ?? []) + extra, body)
    }

    /// Valid scripts, one per family of hub operation.
    static var corpus: [[UInt8]] {
        let toast = #"<toast><visual><binding template="ToastText01"><text id="1">Hi</text></binding></visual></toast>"#
        let installation = InstallationJSON.encode(Installation(
            installationID: "inst-1", platform: .apple, pushChannel: "{{IOS}}", tags: ["username:bob", "sports"],
            templates: ["t1": InstallationTemplate(body: #"{"aps":{"alert":"$(message)"}}"#, tags: ["news"])], userID: "bob"))
        let batch = MultipartBody(parts: [
            .init(headers: [.init("Content-Disposition", "inline; name=notification")], body: Array(#"{"aps":{"alert":"batch"}}"#.utf8)),
            .init(headers: [.init("Content-Disposition", "inline; name=devices")], body: Array(#"["{{IOS}}","0123"]"#.utf8)),
        ])
        let scripts: [[String]] = [
            register("76592028274533430-4765052952699024478-2", .apple, "{{IOS-UPPER}}", tags: ["username:bob", "sports"])
                + [send("apple", tags: "(username:bob && !muted) || sports", #"{"aps":{"alert":"Hi Bob","badge":3}}"#)],
            register("76592028274533430-4765052952699024478-2", .fcmV1, "{{ANDROID}}", tags: ["username:alice"], template: #"{"message":{"notification":{"body":"$(message)"}}}"#)
                + [send("template", tags: "username:alice", #"{"message":"Hi Alice"}"#)],
            register("76592028274533430-4765052952699024478-2", .windows, "{{WINDOWS}}", tags: ["username:carol"])
                + [send("windows", tags: "username:carol", toast, contentType: "application/xml", extra: ["X-WNS-Type: wns/toast"])],
            register("76592028274533430-4765052952699024478-2", .apple, "{{IOS-UPPER}}", tags: ["a"], template: ##"{"aps":{"alert":"{'From ' + $(user) + ': ' + $(message)}","badge":"#(badge)"}}"##)
                + [send("template", tags: "a", #"{"user":"alice","message":"Hi","badge":"2"}"#)],
            [request("PUT \(hub)/installations/inst-1\(api)", [auth, "Content-Type: application/json"], installation),
             request("PATCH \(hub)/installations/inst-1\(api)", [auth, "Content-Type: application/json-patch+json"],
                     #"[{"op":"add","path":"/tags","value":"extra"},{"op":"replace","path":"/pushChannel","value":"{{IOS}}"},{"op":"remove","path":"/templates/t1"}]"#),
             request("GET \(hub)/installations/inst-1\(api)", [auth]),
             send("apple", tags: "$InstallationId:{inst-1} || $UserId:{bob}", #"{"aps":{"alert":"to inst"}}"#)],
            // An installation listed as registrations, read by id, and refused as one to write.
            [request("PUT \(hub)/installations/inst-1\(api)", [auth, "Content-Type: application/json"], installation),
             request("GET \(hub)/registrations/\(api)&$top=1", [auth]),
             request("GET \(hub)/registrations/4717660804047016587-3598050953566156631-1\(api)", [auth]),
             request("PUT \(hub)/registrations/76592028274533430-4765052952699024478-2\(api)", [auth, atomType], atom(.apple, "{{IOS-UPPER}}", tags: ["x"])),
             send("template", tags: "news", #"{"message":"to the template"}"#)],
            // The Java SDK's spellings: a patch as plain JSON whose template is a string of JSON,
            // and an Apple send's expiry in the SDKs' date form.
            [request("PUT \(hub)/installations/inst-1\(api)", [auth, "Content-Type: application/json"], installation),
             request("PATCH \(hub)/installations/inst-1\(api)", [auth, "Content-Type: application/json; charset=UTF-8"],
                     #"[{"op":"replace","path":"/templates/t1","value":"{\"body\":\"{\\\"aps\\\":{\\\"alert\\\":\\\"$(m)\\\"}}\"}"}]"#),
             send("apple", tags: "username:bob", #"{"aps":{"alert":"expiring"}}"#, extra: ["ServiceBusNotification-Apns-Expiry: 01/01/2030 13:00:00"])],
            [send("apple", tags: nil, #"{"aps":{"alert":"direct"}}"#, query: "&direct", extra: ["ServiceBusNotification-DeviceHandle: {{IOS}}"]),
             request("POST \(hub)/messages/$batch\(api)&direct", [auth, "ServiceBusNotification-Format: apple", "Content-Type: \(batch.contentType)"],
                     String(decoding: batch.bytes, as: UTF8.self))],
            register("76592028274533430-4765052952699024478-2", .fcmV1, "{{ANDROID}}", tags: ["beta"])
                + [send("fcmv1", tags: "beta", #"{"message":{"notification":{"title":"T","body":"B"},"data":{"k":"v"}}}"#, query: "&test")],
            register("76592028274533430-4765052952699024478-2", .apple, "{{IOS-UPPER}}", tags: ["later"])
                + [request("POST \(hub)/schedulednotifications/\(api)", [auth, "ServiceBusNotification-Format: apple",
                    "ServiceBusNotification-Tags: later", "ServiceBusNotification-ScheduleTime: {{LATER}}", "Content-Type: application/json"],
                    #"{"aps":{"alert":"scheduled"}}"#), "WAIT 2h"],
            register("76592028274533430-4765052952699024478-2", .apple, "{{IOS-UPPER}}", tags: ["x"])
                + [request("GET \(hub)/registrations/\(api)&$filter=DeviceToken%20eq%20'{{IOS-UPPER}}'&$top=10", [auth]),
                   request("GET \(hub)/registrations/76592028274533430-4765052952699024478-2\(api)", [auth]), request("GET \(hub)/registrations/\(api)", [auth]),
                   send("apple", tags: "x", #"{"aps":{"alert":"x"}}"#), request("GET \(hub)/messages/NH-20260101000000000-00000000000000000000000000000000-00\(api)", [auth]),
                   request("GET \(hub)/feedbackcontainer\(api)", [auth]), request("DELETE \(hub)/registrations/76592028274533430-4765052952699024478-2\(api)", [auth, "If-Match: *"])],
            register("76592028274533430-4765052952699024478-2", .apple, "{{IOS-UPPER}}", tags: ["old"])
                + ["WAIT 91d", request("PUT \(hub)/registrations/76592028274533430-4765052952699024478-2\(api)", [auth, atomType], atom(.apple, "{{IOS-UPPER}}", tags: ["new"]))],
            // A listing in pages: `$top`, then the token read back (the .NET SDK's and the Java SDK's spellings).
            register("76592028274533430-4765052952699024478-2", .fcmV1, "{{ANDROID}}", tags: ["p"]) + register("4717660804047016587-3598050953566156631-1", .fcmV1, "{{ANDROID}}", tags: ["p"])
                + [request("GET \(hub)/tags/p/registrations\(api)&$top=1", [auth]),
                   request("GET \(hub)/registrations\(api)&$top=1&continuationtoken=Mg%3D%3D", [auth]),
                   request("GET \(hub)/registrations\(api)&%24top=1&ContinuationToken=Mg%253D%253D", [auth])],
            // The .NET SDK's own paths: `registrationids`, and Create Registration's POST.
            [request("POST \(hub)/registrationids\(api)", [auth]),
             request("POST \(hub)/registrations\(api)", [auth, "Content-Type: application/atom+xml; charset=utf-8; type=entry"],
                     atom(.fcmV1, "fcm-token-1", tags: ["a"]))],
            [request("POST \(hub)/registrationIDs/\(api)", ["Authorization: {{SAS-LISTEN}}"]),
             send("gcm", tags: "a || b", #"{"data":{"m":"x"}}"#).replacing("{{SAS}}", with: "{{SAS-LISTEN}}")],
        ]
        return scripts.map(RequestScript.join)
    }

    /// The surface.
    public static func make() -> FuzzSurface {
        FuzzSurface(name: "hub", summary: "request scripts to the fake Notification Hub in a fresh world (4xx + <Error> for anything malformed)",
                    corpus: corpus, prefersText: true, inputsPerProcess: 10_000) { bytes in
            ServiceBench().run(bytes, defaultAuthority: "pushsim.servicebus.windows.net", readsDates: true)
        }
    }
}

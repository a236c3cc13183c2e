import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario

/// What a client needs to talk to the fakes through the server: printed at start, served at
/// `GET /_pushsim/info`, and the contents of the service-account file.
public struct ConnectionInfo: Sendable, Equatable {
    /// `http://127.0.0.1:<port>`
    public var baseURL: String
    public var hubName: String
    /// The hub's real-looking host; the SAS `sr` a client signs must name `https://<hubHost>/<hubName>`.
    public var hubHost: String
    /// Full-rights and listen-only connection strings (`Endpoint=sb://<hubHost>/;…`).
    public var hubConnectionString: String
    public var hubListenConnectionString: String
    public var fcmProjectID: String
    public var fcmServiceAccount: String
    /// The stand-in for the service account's private key (see the DocC article: not RS256).
    public var fcmKeySecret: String
    public var apnsKeyID: String
    public var apnsTeamID: String
    public var apnsKeySecret: String
    public var bundleID: String
    public var wnsPackageSID: String
    public var wnsSecret: String
    /// The Unix second of virtual time zero.
    public var anchorUnixSeconds: Int64

    init(simulation: Simulation, baseURL: String) {
        let hub = simulation.hub.configuration
        let id = simulation.identity
        self.baseURL = baseURL
        hubName = hub.hubName
        hubHost = hub.host
        let full = hub.accessRules.first { $0.rights.contains(.manage) } ?? hub.accessRules[0]
        let listen = hub.accessRules.first { $0.rights == [.listen] } ?? full
        hubConnectionString = hub.connectionString(for: full)
        hubListenConnectionString = hub.connectionString(for: listen)
        fcmProjectID = id.fcmProjectID
        fcmServiceAccount = id.fcmServiceAccount
        fcmKeySecret = id.fcmKeySecret
        apnsKeyID = id.apnsKeyID
        apnsTeamID = id.apnsTeamID
        apnsKeySecret = id.apnsKeySecret
        bundleID = id.app.bundleID
        wnsPackageSID = id.wnsPackageSID
        wnsSecret = id.wnsSecret
        anchorUnixSeconds = simulation.world.anchor.unixSecondsAtZero
    }

    /// The Google service-account JSON a Firebase Admin SDK reads, its `token_uri` pointing at
    /// this server. `private_key` holds PushSim's stand-in secret, not a PEM key.
    public func serviceAccountJSON() -> String {
        JSONValue.object([
            "type": "service_account",
            "project_id": .string(fcmProjectID),
            "private_key_id": "pushsim-stand-in",
            "private_key": .string(fcmKeySecret),
            "client_email": .string(fcmServiceAccount),
            "client_id": "000000000000000000000",
            "token_uri": .string(baseURL + "/token"),
            "pushsim_fcm_send_url": .string(baseURL + "/v1/projects/\(fcmProjectID)/messages:send"),
        ]).serialized() + "\n"
    }

    /// As JSON (for `GET /_pushsim/info`); `serviceAccountPath` is added when the file was written.
    public func json(serviceAccountPath: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("baseURL", .string(baseURL)),
            ("hub", .object(["name": .string(hubName), "host": .string(hubHost), "restBase": .string("\(baseURL)/\(hubName)"),
                             "sasResource": .string("https://\(hubHost)/\(hubName)"),
                             "connectionString": .string(hubConnectionString), "loopbackConnectionString": .string(loopbackConnectionString),
                             "listenConnectionString": .string(hubListenConnectionString)])),
            ("fcm", .object(["projectId": .string(fcmProjectID), "serviceAccount": .string(fcmServiceAccount),
                             "tokenURI": .string(baseURL + "/token"),
                             "sendURL": .string("\(baseURL)/v1/projects/\(fcmProjectID)/messages:send")])),
            ("apns", .object(["keyId": .string(apnsKeyID), "teamId": .string(apnsTeamID), "topic": .string(bundleID),
                              "sendURL": .string(baseURL + "/3/device/{token}")])),
            ("wns", .object(["packageSID": .string(wnsPackageSID), "clientSecret": .string(wnsSecret),
                             "tokenURL": .string(baseURL + "/accesstoken.srf")])),
            ("anchorUnixSeconds", .number(JSONNumber(anchorUnixSeconds))),
        ]
        if let serviceAccountPath { members.append(("fcmServiceAccountFile", .string(serviceAccountPath))) }
        return .object(members)
    }

    /// The hub's connection string with this server as its endpoint (`Endpoint=http://127.0.0.1:<port>/;…`):
    /// what an SDK is given, so that it sends its requests here and signs its tokens for this address.
    public var loopbackConnectionString: String {
        guard let rest = hubConnectionString.firstRange(of: ";") else { return hubConnectionString }
        return "Endpoint=\(baseURL)/" + hubConnectionString[rest.lowerBound...]
    }

    /// The lines printed when `pushsim serve` starts.
    public func banner(serviceAccountPath: String?, clock: ClockPolicy, seed: UInt64) -> String {
        """
        pushsim serve: listening on \(baseURL) (seed \(seed), clock \(clock.rawValue); virtual time 0 = Unix \(anchorUnixSeconds))
          Notification Hubs  \(baseURL)/\(hubName)/registrations?api-version=2015-01   (hub '\(hubName)')
            connection string  \(loopbackConnectionString)
            (in-world name)    \(hubConnectionString)
            SAS resource (sr)  \(baseURL)/\(hubName) or https://\(hubHost)/\(hubName)
          FCM HTTP v1        \(baseURL)/v1/projects/\(fcmProjectID)/messages:send   (project '\(fcmProjectID)')
            OAuth token URI    \(baseURL)/token
            service account    \(serviceAccountPath ?? "(not written)")
          APNs               \(baseURL)/3/device/{token}   key id \(apnsKeyID), team id \(apnsTeamID), topic \(bundleID)
          WNS                \(baseURL)/accesstoken.srf   package SID \(wnsPackageSID)
          control API        \(baseURL)/_pushsim/   (POST /_pushsim/devices {"name":"…","platform":"ios|android|windows"})
        The hub's SAS tokens are real HMAC-SHA256; APNs (ES256) and Google (RS256) signatures are PushSim stand-ins: see the PushSimServer article.
        Press Ctrl-C to stop.
        """
    }
}

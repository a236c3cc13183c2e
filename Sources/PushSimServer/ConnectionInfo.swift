import PushSimKernel
import PushSimNetwork
import PushSimHub
import PushSimScenario

/// What a client needs to talk to the fakes through the server: printed at start, served at
/// `GET /_pushsim/info`, and the contents of the service-account file.
public struct ConnectionInfo: Sendable, Equatable {
    /// `http://127.0.0.1:<port>`
    public var baseURL: String
    /// The hub's name: the first path segment of its REST API (`notifyusers`).
    public var hubName: String
    /// The hub's real-looking host; the SAS `sr` a client signs must name `https://<hubHost>/<hubName>`.
    public var hubHost: String
    /// The full-rights connection string (`Endpoint=sb://<hubHost>/;…`): of the first access rule
    /// with Manage rights, or the first rule when none has them.
    public var hubConnectionString: String
    /// The listen-only connection string (`DefaultListenSharedAccessSignature`); the full-rights
    /// one when the hub has no listen-only rule.
    public var hubListenConnectionString: String
    /// The Firebase project id of FCM's send URL (`/v1/projects/<id>/messages:send`).
    public var fcmProjectID: String
    /// The service account's e-mail address (`client_email`): the issuer of its OAuth assertions.
    public var fcmServiceAccount: String
    /// The stand-in for the service account's private key (see the DocC article: not RS256).
    public var fcmKeySecret: String
    /// The key id (`kid`) an APNs provider token must name.
    public var apnsKeyID: String
    /// The team id (`iss`) an APNs provider token must carry.
    public var apnsTeamID: String
    /// The stand-in for the APNs signing key (`.p8`): the secret of its `SimulatedSignature`,
    /// not an ES256 key.
    public var apnsKeySecret: String
    /// The app's bundle id: the `apns-topic` to send with.
    public var bundleID: String
    /// The package SID (`ms-app://s-1-15-2-…`) the WNS token endpoint takes as `client_id`.
    public var wnsPackageSID: String
    /// The client secret the WNS token endpoint takes with the package SID.
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
    /// this server. `private_key` is ``throwawayRSAKey``: Google's auth libraries need a real RSA
    /// key to sign their assertions; the fake checks their structure and claims only.
    public func serviceAccountJSON() -> String {
        JSONValue.object([
            "type": "service_account",
            "project_id": .string(fcmProjectID),
            "private_key_id": "pushsim-throwaway-key",
            "private_key": .string(Self.throwawayRSAKey),
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

    /// A 2048-bit RSA private key made once for PushSim and published on purpose (PKCS #8 PEM):
    /// it protects nothing. The served FCM does not verify RS256 signatures (no cryptography
    /// library may be used), so any key would do; this one only lets Google's libraries sign.
    public static let throwawayRSAKey = """
        -----BEGIN PRIVATE KEY-----
        MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDRfaIEU4DlTXxk
        U8i6UH6bw7dFGoVPZ2SUi9jurNFTosiQ4xxw1fxR8KmCpYZr4kDtFCVdY2gnHGK/
        ZRimHcnaRW0yV8SwpRJmBs2V3kriAtfAixqFppKogmVLYkGtusMWC1UadDMtCU3A
        elq7naa1XvSIY4UGlxhp6oh8VJU5qXVWW9nljv7wZLqYlgXam/9UDVP5ZAIePy11
        B/nMXdU/WUu2kRNW/7NfvklNgylKXH9FNsNwjw01puEB4XP1RbuQ2jyw3AHi+aDP
        8A0crn0YUBuLiAgqatkf6f1HTTJTV26ah7Ldo3MTQHS1tyF2Nf7oB9SzXzF3qXvt
        KM/PWnGHAgMBAAECggEAWg1zdAChS/C/JDGP++dWRYcgZSg9XiDH78MeAZtwcE9t
        gDrgovCZgm+9rleRLRcZadBbL4Xn48gj+rpumhn8B0QI6Lcp6fVLr2gFQANKlVU7
        gZ1KTWGJcb575KfcK944tmUwtCp3RUjWj4MJNdVTMGwdGfQN3wNcj0suWKPTcfFL
        S+cxkdZJacuOJGFW5zIRJnbifAB6kTlRDdwlqt6/IiygK2Rkag1Atd86Lqp6yafW
        TN/evfPdtuwg5s/PzKvvfvhyX+JjO+SPsZTYqpGG8q7L3YWOFWf+bnCSoxl5gsqP
        C8tCqJiOH+RpP+l3mlBu3U7KACLvlaJgODHjNDKzwQKBgQDrJK3FajyLgUdc5TbU
        0kenje/hsfmWNBCMU+MrvnMLI8PPFtYiKwZpPVeRnamQalDiT9fuVLrbRDTQ8KMf
        5B6TUWhBVklzC9QsMr2e7WoCgVE1LNhNz8lQ9Tf6MKGUeQNYG1kubdhl6Q7boI75
        IjHwMdFw3i9UvBOZP+zpBh4oWQKBgQDkEnh9TOgjr3p9lB39TeQYvcp9xmzxTAhM
        OkkoR4ZzTM0v7d+nzIt07JH4qQKxlzdXIJGT9M26Z7Snd46ZA9oY/dZc+16pLA60
        kTvJraFMWmMylsuJsXvzC2idiOld12I16qRojxiX+W2GlBikKxZnDuxa5qAk6j0b
        P1Wa6JYs3wKBgBIqcD5LGchRQXkcwCKq6Bw6q+iMvlJrTUf6BxfPC8Y1iiAKjJpx
        Jnqk4Yn/WyUsAXmqX20rIJBl8YqevItvLSmGZX5+swfvRwHvHZUUlFcDNIneIAvK
        3KujdiKe9SyqOKbq3fXnSIt++MXg3orCqIb84khM8e0i5oS1WpEaBuRpAoGAeAfM
        h81A4v8ITSz1t4kVwXupJRaX4Uotl8iZFezGssm5tz7OlWYOAwQ6Mo7oTwSRaHZI
        h4CwASlxJy3By3/+eWamOZtFj20TdC53M8YAfMmZKVe5WQcif6ACd95FS1D+a/fI
        fQrKW7k2zjwE1+mhSa3N8G0t3R+19zAW4ocD+isCgYEAgHxwDpYIJIbwP8HuHBrf
        4JCsQKOw9AetlVD1madF6YFBmNx2ekiNOUuFd8duvMcGvoABf1gngXCuAnqizH1Q
        DsVRGLB48PRf4wnXSWTIlXfG75CYYwkcuBrMwXef4wDwZ7Y+KMAbWBuAxBKMYxI0
        ZrwT5jsJc3z7GXxYLd/xBwQ=
        -----END PRIVATE KEY-----
        """ + "\n"

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
              (for SDKs that take the endpoint as given; REST recipes and SDKs that build https:// from sb:// need the TLS front: Endpoint=sb://127.0.0.1:8443/;…)
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

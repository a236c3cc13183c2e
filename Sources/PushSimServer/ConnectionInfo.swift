import PushSimKernel
import PushSimCrypto
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
    /// The service account's private key, PKCS#8 PEM (a service-account file's `private_key`):
    /// what a Google auth library signs its RS256 assertions with.
    public var fcmPrivateKeyPEM: String
    /// The key's id (`private_key_id`): 40 hex digits of the SHA-256 of its public key.
    public var fcmPrivateKeyID: String
    /// The key id (`kid`) an APNs provider token must name.
    public var apnsKeyID: String
    /// The team id (`iss`) an APNs provider token must carry.
    public var apnsTeamID: String
    /// The APNs signing key, PKCS#8 PEM: the text of its `.p8` file (``apnsKeyFileName``); nil
    /// when the world's key has no private half.
    public var apnsPrivateKeyPEM: String?
    /// How the fakes check ES256 and RS256 signatures.
    public var signatures: SignaturePolicy
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
        let fcmKey = AsymmetricPrivateKey.rsa(id.fcmServiceAccountKey)
        fcmPrivateKeyPEM = fcmKey.pkcs8PEMRepresentation
        fcmPrivateKeyID = SHA256.hash(fcmKey.publicKey.subjectPublicKeyInfoDERRepresentation).prefix(20)
            .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        apnsKeyID = id.apnsKeyID
        apnsTeamID = id.apnsTeamID
        apnsPrivateKeyPEM = id.apnsKey.privateKey.map { AsymmetricPrivateKey.p256($0).pkcs8PEMRepresentation }
        signatures = simulation.apns.signaturePolicy
        bundleID = id.app.bundleID
        wnsPackageSID = id.wnsPackageSID
        wnsSecret = id.wnsSecret
        anchorUnixSeconds = simulation.world.anchor.unixSecondsAtZero
    }

    /// The Google service-account JSON a Firebase Admin SDK reads, its `token_uri` pointing at
    /// this server and its `private_key` the world's service-account key: assertions signed with
    /// it verify (RS256).
    public func serviceAccountJSON() -> String {
        JSONValue.object([
            "type": "service_account",
            "project_id": .string(fcmProjectID),
            "private_key_id": .string(fcmPrivateKeyID),
            "private_key": .string(fcmPrivateKeyPEM),
            "client_email": .string(fcmServiceAccount),
            "client_id": "000000000000000000000",
            "token_uri": .string(baseURL + "/token"),
            "pushsim_fcm_send_url": .string(baseURL + "/v1/projects/\(fcmProjectID)/messages:send"),
        ]).serialized() + "\n"
    }

    /// The name Apple gives a signing key's file, `AuthKey_<key id>.p8`.
    public var apnsKeyFileName: String { "AuthKey_\(apnsKeyID).p8" }

    /// As JSON (for `GET /_pushsim/info`); the paths of the key files are added when they were written.
    public func json(keyFiles: ClientKeyFiles = ClientKeyFiles()) -> JSONValue {
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
                              "sendURL": .string(baseURL + "/3/device/{token}"), "keyURL": .string(baseURL + "/_pushsim/keys/apns.p8")])),
            ("wns", .object(["packageSID": .string(wnsPackageSID), "clientSecret": .string(wnsSecret),
                             "tokenURL": .string(baseURL + "/accesstoken.srf")])),
            ("anchorUnixSeconds", .number(JSONNumber(anchorUnixSeconds))),
            ("signatures", .string(signatures.rawValue)),
        ]
        if let path = keyFiles.serviceAccount { members.append(("fcmServiceAccountFile", .string(path))) }
        if let path = keyFiles.apnsKey { members.append(("apnsKeyFile", .string(path))) }
        return .object(members)
    }

    /// The hub's connection string with this server as its endpoint (`Endpoint=http://127.0.0.1:<port>/;…`):
    /// what an SDK is given, so that it sends its requests here and signs its tokens for this address.
    public var loopbackConnectionString: String {
        guard let rest = hubConnectionString.firstRange(of: ";") else { return hubConnectionString }
        return "Endpoint=\(baseURL)/" + hubConnectionString[rest.lowerBound...]
    }

    /// The lines printed when `pushsim serve` starts.
    public func banner(keyFiles: ClientKeyFiles, clock: ClockPolicy, seed: UInt64) -> String {
        """
        pushsim serve: listening on \(baseURL) (seed \(seed), clock \(clock.rawValue); virtual time 0 = Unix \(anchorUnixSeconds))
          Notification Hubs  \(baseURL)/\(hubName)/registrations?api-version=2015-01   (hub '\(hubName)')
            connection string  \(loopbackConnectionString)
              (for SDKs that take the endpoint as given; REST recipes and SDKs that build https:// from sb:// need the TLS front: Endpoint=sb://127.0.0.1:8443/;…)
            (in-world name)    \(hubConnectionString)
            SAS resource (sr)  \(baseURL)/\(hubName) or https://\(hubHost)/\(hubName)
          FCM HTTP v1        \(baseURL)/v1/projects/\(fcmProjectID)/messages:send   (project '\(fcmProjectID)')
            OAuth token URI    \(baseURL)/token
            service account    \(keyFiles.serviceAccount ?? "(not written)")
          APNs               \(baseURL)/3/device/{token}   key id \(apnsKeyID), team id \(apnsTeamID), topic \(bundleID)
            signing key (.p8)  \(keyFiles.apnsKey ?? "(not written)")
          WNS                \(baseURL)/accesstoken.srf   package SID \(wnsPackageSID)
          control API        \(baseURL)/_pushsim/   (POST /_pushsim/devices {"name":"…","platform":"ios|android|windows"})
        \(signatures == .verify
            ? "Signatures are verified: APNs provider tokens (ES256) with the .p8's key, Google assertions (RS256) with the service account's; register keys of your own with POST /_pushsim/keys/apns or /_pushsim/keys/fcm."
            : "Signatures are NOT verified (--signatures structure-only): APNs and Google tokens need only the right shape and claims.") The hub's SAS tokens are HMAC-SHA256.
        Press Ctrl-C to stop.
        """
    }
}

/// Where `pushsim serve` wrote the files a client signs with: the Google service-account JSON and
/// the APNs `.p8`. Nil for a file not written.
public struct ClientKeyFiles: Sendable, Equatable {
    /// The service-account JSON (``ConnectionInfo/serviceAccountJSON()``).
    public var serviceAccount: String?
    /// The APNs signing key, `AuthKey_<key id>.p8` (``ConnectionInfo/apnsPrivateKeyPEM``).
    public var apnsKey: String?
    /// Paths of the files written, if any.
    public init(serviceAccount: String? = nil, apnsKey: String? = nil) {
        self.serviceAccount = serviceAccount
        self.apnsKey = apnsKey
    }
}

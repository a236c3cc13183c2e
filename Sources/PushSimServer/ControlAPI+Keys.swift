import PushSimKernel
import PushSimCrypto
import PushSimNetwork
import PushSimServices
import PushSimScenario

/// The signing keys under `/_pushsim/keys`: the world's own (what `pushsim serve` writes to its
/// key files, served here too for a client on another machine), and keys of a user's own,
/// registered as a developer registers them with Apple or Google so that the fakes verify the
/// tokens the user's clients sign (A-JWT; Citations §1.6 and §2.1).
///
/// | Request | Does |
/// |---|---|
/// | `GET /_pushsim/keys` | every key the fakes verify with, as PEM public keys, and the signature policy |
/// | `GET /_pushsim/keys/apns.p8` | the world's APNs signing key, PKCS#8 PEM (the `.p8`) |
/// | `GET /_pushsim/keys/service-account.json` | the world's Google service-account file |
/// | `POST /_pushsim/keys/apns {"keyId","teamId","publicKey"\|"p8"}` | 201: APNs accepts tokens of that key id and team that verify with the key |
/// | `POST /_pushsim/keys/fcm {"clientEmail","publicKey"\|"privateKey"}` | 201: Google accepts assertions of that service account that verify with the key |
///
/// `publicKey` is a PEM `PUBLIC KEY`; `p8` and `privateKey` a PEM private key (the `.p8` itself, a
/// service-account file's `private_key`), of which only the public half is kept. A key that cannot
/// be read, or of the wrong kind (APNs keys are P-256, service-account keys RSA), is answered 400
/// naming the field. Registered keys stay across `POST /_pushsim/reset`.
extension ControlAPI {
    /// `GET /_pushsim/keys`.
    func keysJSON() -> JSONValue {
        let simulation = state.simulation
        return .object([
            "signatures": .string(simulation.apns.signaturePolicy.rawValue),
            "apns": .array(simulation.apns.configuration.keys.map { key in
                .object(["keyId": .string(key.keyID), "teamId": .string(key.teamID),
                         "publicKey": .string(AsymmetricPublicKey.p256(key.publicKey).pemRepresentation)])
            }),
            "fcm": .array(simulation.fcm.projects.map { project in
                .object(["clientEmail": .string(project.serviceAccount), "projectId": .string(project.projectID),
                         "publicKeys": .array(project.serviceAccountKeys.map { .string(AsymmetricPublicKey.rsa($0).pemRepresentation) })])
            }),
        ])
    }

    /// `GET /_pushsim/keys/apns.p8`: the text of the world's `.p8`; 404 when its key has no private half.
    func apnsKeyFile() -> HTTPResponse {
        guard let pem = info.apnsPrivateKeyPEM else {
            return ServerAnswer.error(404, "The world's APNs key was registered by its public half only: there is no .p8 to give.")
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/x-pem-file"], text: pem)
    }

    /// `GET /_pushsim/keys/service-account.json`.
    func serviceAccountFile() -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], text: info.serviceAccountJSON())
    }

    /// `POST /_pushsim/keys/apns {"keyId","teamId","publicKey"|"p8"}`.
    func registerAPNsKey(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        let usage = #"{"keyId":"ABC123DEFG","teamId":"DEF123GHIJ","publicKey":"-----BEGIN PUBLIC KEY-----…"} or "p8" with the .p8's text"#
        guard let keyID = Self.identifier(body["keyId"]) else { return Self.badField("keyId", "a key id (Apple's are 10 characters)", usage) }
        guard let teamID = Self.identifier(body["teamId"]) else { return Self.badField("teamId", "a team id (Apple's are 10 characters)", usage) }
        switch Self.publicKey(in: body, publicField: "publicKey", privateField: "p8", usage: usage) {
        case .failure(let refusal): return refusal.response
        case .success(.rsa):
            return Self.badField("publicKey", "a P-256 key: APNs signing keys are P-256 (ES256), this one is RSA", usage)
        case .success(.p256(let key)):
            let registered = APNsSigningKey(keyID: keyID, teamID: teamID, publicKey: key)
            state.register(.apns(registered))
            return ServerAnswer.json(201, .object(["keyId": .string(keyID), "teamId": .string(teamID),
                                                   "publicKey": .string(AsymmetricPublicKey.p256(key).pemRepresentation)]))
        }
    }

    /// `POST /_pushsim/keys/fcm {"clientEmail","publicKey"|"privateKey"}`.
    func registerServiceAccountKey(_ request: WireRequest) -> HTTPResponse {
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .failure(let refusal): return refusal.response
        case .success(let b): body = b
        }
        let usage = #"{"clientEmail":"me@project.iam.gserviceaccount.com","publicKey":"-----BEGIN PUBLIC KEY-----…"} or "privateKey""#
        guard let email = Self.identifier(body["clientEmail"]), email.utf8.contains(UInt8(ascii: "@")) else {
            return Self.badField("clientEmail", "a service account's e-mail address", usage)
        }
        switch Self.publicKey(in: body, publicField: "publicKey", privateField: "privateKey", usage: usage) {
        case .failure(let refusal): return refusal.response
        case .success(.p256):
            return Self.badField("publicKey", "an RSA key: service-account keys are RSA (RS256), this one is P-256", usage)
        case .success(.rsa(let key)):
            state.register(.serviceAccount(email: email, key: key))
            return ServerAnswer.json(201, .object(["clientEmail": .string(email),
                                                   "publicKey": .string(AsymmetricPublicKey.rsa(key).pemRepresentation)]))
        }
    }

    /// What the client key files hold, for the world as it is now.
    private var info: ConnectionInfo { ConnectionInfo(simulation: state.simulation, baseURL: state.baseURL) }

    /// The public key given as `publicField` (a PEM `PUBLIC KEY`) or `privateField` (a PEM private
    /// key, of which the public half is taken): exactly one of them; a 400 naming the field otherwise.
    private static func publicKey(in body: JSONValue, publicField: String, privateField: String,
                                  usage: String) -> Result<AsymmetricPublicKey, ControlRefusal> {
        let given = [publicField, privateField].filter { body[$0] != nil }
        guard given.count == 1, let field = given.first else {
            return .failure(ControlRefusal(response: badField(publicField, "a PEM public key, or \"\(privateField)\" with a PEM private key (one of the two)", usage)))
        }
        guard let text = body[field]?.stringValue else {
            return .failure(ControlRefusal(response: badField(field, "PEM text in a JSON string", usage)))
        }
        do {
            return .success(field == publicField ? try AsymmetricPublicKey(pem: text) : try AsymmetricPrivateKey(pem: text).publicKey)
        } catch let error as CryptoError {
            return .failure(ControlRefusal(response: badField(field, field == publicField ? "a PEM public key" : "a PEM private key",
                                                              usage, because: error.description)))
        } catch {
            return .failure(ControlRefusal(response: badField(field, "a PEM key", usage)))
        }
    }

    /// A key id, team id or e-mail: 1 to 256 visible ASCII characters.
    private static func identifier(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue, (1...256).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return nil
        }
        return text
    }

    /// 400: `"<field>" is not <what>` (`: <reason>` when known), then the usage.
    private static func badField(_ field: String, _ what: String, _ usage: String, because reason: String? = nil) -> HTTPResponse {
        ServerAnswer.error(400, "\"\(field)\" is not \(what)" + (reason.map { ": " + $0 } ?? "") + ". Send " + usage + ".")
    }
}

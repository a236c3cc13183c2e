import PushSimCrypto
import PushSimServices
import PushSimScenario

/// A public key a user registered through the control API (`POST /_pushsim/keys/apns`,
/// `/_pushsim/keys/fcm`), as a developer registers one with Apple or Google: the fakes then verify
/// the tokens the user's own clients sign with the matching private key. Kept by ``WorldState``
/// across resets (an account's keys are not part of a test's world), applied to each world made.
enum RegisteredKey: Equatable {
    /// An APNs signing key: its key id, team and public key.
    case apns(APNsSigningKey)
    /// A Google service account's key: its e-mail (`client_email`) and public key.
    case serviceAccount(email: String, key: RSAPublicKey)

    /// Hands the key to the fake that checks it.
    func apply(to simulation: Simulation) {
        switch self {
        case .apns(let key): simulation.apns.register(key)
        case .serviceAccount(let email, let key): simulation.fcm.register(serviceAccountKey: key, for: email)
        }
    }
}

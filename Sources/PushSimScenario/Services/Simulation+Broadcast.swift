import PushSimServices
import PushSimDevices

/// What a scenario's APNs broadcast statements need from the simulation (Citations §1.20).
extension Simulation {
    /// The operator's APNs account: the identity's signing key, the app's bundle id and the
    /// environment its iPhones register in.
    var apnsAccount: OperatorConsole.APNsAccount {
        OperatorConsole.APNsAccount(key: identity.apnsKey, bundleID: identity.app.bundleID, environment: identity.app[.ios].scope)
    }

    /// How many broadcast channels the app has in its APNs environment now.
    var broadcastChannelCount: Int {
        apns.broadcastChannels(app: identity.app.bundleID, environment: identity.app[.ios].scope).count
    }
}

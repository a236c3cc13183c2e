/// The Firebase installations FCM knows, each with the registration token it last issued for it,
/// so that a send to `message.fid` reaches the app instance that token reaches (F-MSG, FA-PY-FID).
///
/// An Android app's Firebase SDK makes its installation ID (FID) on the device and names it when it
/// asks for a token (the register request's `installation`); FCM keeps the pair. A FID outlives
/// the tokens issued for it (a refresh or an expired token's replacement keeps it), so it is
/// pointed at each newer token as it is issued; a reinstall or cleared data brings a new FID, and
/// the old one keeps naming the old, dead token: a send to it is answered as a send to that token
/// (`UNREGISTERED` once FCM has learnt the app is gone). A device that names no FID (iOS,
/// Windows, a `DeviceFleet` member) has none here. Looked up only, never iterated.
struct FCMInstallations {
    private var tokenByFID: [String: String] = [:]
    private var fidByToken: [String: String] = [:]

    /// The token last issued for `fid`, nil for a FID FCM never saw.
    func token(of fid: String) -> String? { tokenByFID[fid] }

    /// The FID the app named when it was issued `token`, if it named one.
    func fid(of token: String) -> String? { fidByToken.isEmpty ? nil : fidByToken[token] }

    /// Records that `token` was answered to the installation `fid`.
    mutating func answered(_ token: String, to fid: String) {
        tokenByFID[fid] = token
        fidByToken[token] = fid
    }
}

import PushSimKernel
import PushSimNetwork

/// An iOS app with the Firebase Messaging SDK (``Device/usesFirebaseMessaging``): the OS gives it an
/// APNs device token as to any app; the SDK then asks FCM for a registration token bound to that
/// APNs token, and FCM relays sends for the FCM token through APNs (FIOS-TOKEN, F-APNS-KEY).
///
/// As the SDK does it: the app's Firebase installation (its FID, made on the device as on Android,
/// ``FirebaseInstallationID``) names the app instance; the token request names the sender (the
/// Firebase project number), the app's bundle id and the APNs token written `p_<hex>` for a
/// production token or `s_<hex>` for a sandbox one (the SDK's `apns_token` parameter). PushSim sends
/// that over the device channel's `POST /register` to FCM (`DeviceChannel`). A new APNs token (a
/// refreshed handle, a reinstall) asks again, and FCM issues a new FCM token for the new instance.
extension Device {
    /// The Firebase SDK asks FCM for a token bound to `apnsToken`; the answer sets ``fcmToken``.
    func askFCMForToken(apnsToken: String) {
        let apnsLink = app[.ios], fcmLink = app[.android]
        let tuple = (apnsLink.scope == "sandbox" ? "s_" : "p_") + apnsToken
        let ask = DeviceRegisterRequest(app: apnsLink.appID, install: appInstance, environment: fcmLink.scope,
                                        installation: firebaseInstallationID, apnsToken: tuple)
        let request = HTTPRequest(method: "POST", authority: PushServiceDescriptor.fcm.deviceHost, path: DeviceChannel.registerPath, body: ask.body)
        let generation = self.generation
        world.call(request, from: name) { [self] result in
            guard generation == self.generation else { return }
            guard let r = result.response, r.status == 200, let json = try? JSONParser.parse(r.body), let token = json["handle"]?.stringValue else {
                return record(.deviceFCMTokenFailed, [.result: .string(result.summary)])
            }
            let changed = token != fcmToken
            fcmToken = token
            lastFCMToken = token
            record(.deviceFCMTokenReceived, [.handle: .string(shortToken(token)), .changed: .bool(changed)])
        }
    }
}

import PushSimNetwork
import PushSimServices
import PushSimHub

/// FCM in a simulation: the identity's Firebase project, and the hub's service-account credential for it.
extension FCMService: SimulatedPushService {
    /// The fake with the identity's project, sender id and service account.
    static func make(world: World, identity: SimulationIdentity, options: Simulation.Options) -> FCMService {
        FCMService(world: world, projects: [FCMProject(projectID: identity.fcmProjectID, projectNumber: identity.fcmSenderID,
                                                       serviceAccount: identity.fcmServiceAccount, secret: identity.fcmKeySecret)])
    }

    /// The hub buys OAuth tokens with the identity's service account and sends to its project.
    static func giveHubCredential(from identity: SimulationIdentity, wrongSecret: Bool, to hub: inout HubConfiguration) {
        hub.fcm = FCMCredential(projectID: identity.fcmProjectID, serviceAccount: identity.fcmServiceAccount,
                                secret: wrongSecret ? "wrong-key" : identity.fcmKeySecret)
    }
}

import PushSimNetwork
import PushSimHub

/// The key a backend signs its hub calls with, changed at run time as an operator pasting
/// another connection string into the app's settings would: the hub then grants that key's
/// claims only, so a Listen key's sends are refused with 401 (NH-SEC).
enum BackendHubKey {
    /// Replaces `hub` with a client of the same hub path and caller signed with
    /// `connectionString`'s key; false, and `hub` unchanged, when the SDK cannot read the string.
    static func replace(_ hub: inout NotificationHubClient, connectionString: String, world: World, caller: String) -> Bool {
        guard let client = NotificationHubClient(connectionString: connectionString, hubPath: hub.hubPath, world: world, caller: caller) else {
            return false
        }
        hub = client
        return true
    }
}

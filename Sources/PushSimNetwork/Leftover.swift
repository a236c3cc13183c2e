/// Something still unfinished when a run ends: a notification a push service keeps for an offline
/// device, a copy the hub has not handed to its PNS yet, a call in flight, a timer not fired.
///
/// The report prints ``line``; checkers that must tell "lost" from "still pending" ask
/// ``pendingIDs`` (the notification and PNS message ids this leftover holds), never the text.
public struct Leftover: Sendable, Equatable {
    /// As the leftovers report prints it; ``World/leftovers()`` puts the host's name in front.
    public var line: String
    /// The ids of the notifications or messages it holds (a hub notification id such as
    /// `NH-20260101000005020-…`, an `apns-id`, an FCM message name, a WNS message id); empty when it holds none.
    public var pendingIDs: [String]

    /// A leftover printed as `line`, holding `pendingIDs`.
    public init(_ line: String, pendingIDs: [String] = []) {
        self.line = line
        self.pendingIDs = pendingIDs
    }
}

import PushSimKernel

/// Something faults are injected into by name: a fake push service (`apns`, `fcm`, `wns`) or the
/// notification hub (`hub`), as a scenario's `fault <name> …` statement and `pushsim serve`'s
/// `POST /_pushsim/faults` name them. Code that injects, lists or ends faults holds them all as
/// a list of these, the hub among the services, instead of asking each kind apart.
public protocol FaultHolder: AnyObject {
    /// The name a fault is injected by (`apns`, `hub`).
    var faultHolderName: String { get }
    /// Injected faults, asked in order on the requests the holder subjects to faults; the first
    /// that hits wins.
    var faults: [ServiceFault] { get set }
    /// What a request `fault` hits is answered, in a few words (`503 ServiceUnavailable`, `429
    /// with Retry-After: 30`); `anchor` dates a token state's `timestamp`.
    func answerSummary(_ fault: ServiceFault, anchor: CalendarAnchor) -> String
}

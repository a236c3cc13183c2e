import PushSimKernel

/// The state of a ``NotificationHub`` that every notification touches, gathered in one value:
/// the registrations, the PNS credentials and header memo, the PNS streams and the telemetry.
///
/// Unchecked for exclusivity in release builds only, for the reason ``World``'s hot state is
/// (one thread runs the world, and no access to this state overlaps another; the checks cost a
/// few percent of a fan-out); debug and test builds check it, so a re-entrancy bug traps there.
/// The hub reaches each part through a forwarding property of the same name (`store`, …).
struct HubHotState {
    var store = RegistrationStore()
    var pnsTokens = PNSAccessTokenCache()
    var pnsHeaders = PNSHeaderMemo()
    /// Requests to the PNSs: in flight, and waiting for a free stream.
    var streams: PNSStreams
    /// Telemetry by notification id (looked up only).
    var records = NotificationRecords()
}

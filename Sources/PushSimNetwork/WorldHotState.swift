import PushSimKernel

/// The state of a ``World`` that every event touches, gathered in one value (the event loop
/// aside: the loop asks the world whether an event is still live while it is being accessed, so
/// it is a second value, declared the same way).
///
/// Dynamic exclusivity checks on it cost about 7% of a fan-out, and in a correct world they can
/// never fire: one thread runs it, and no access to this state overlaps another. So release
/// builds declare it `@exclusivity(unchecked)`; debug and test builds keep the checks, so that a
/// re-entrancy bug (a closure that reaches back into the world during an access) traps there
/// instead of corrupting memory. The world reaches each part through a forwarding property of
/// the same name (`calls`, `offline`, …), so its code reads as before.
struct WorldHotState {
    /// Hosts off line (looked up only, never iterated).
    var offline: Set<String> = []
    var calls = CallTable()
    var delayLanes = DelayLanes()
    /// Whether every message latency is a constant (see `World.schedule(_:after:inOrder:)`).
    var latencyIsFixed = true
    /// The latency of every message when no fault rule or link latency is set (see ``NetworkFaults/plainLatency``).
    var plainLatency: VirtualDuration? = NetworkFaults().plainLatency
    /// Every registered name (primary names and aliases) and where it leads; looked up only,
    /// never iterated. One table, so that resolving a name hashes it once.
    var addresses: [String: HostAddress] = [:]
    /// Names resolved lately: a world resolves the same few names (and fleets' sub-addresses
    /// with the same few prefixes) over and over, and comparing beats hashing.
    var recentNames = RecentNames()
    /// Callers lately resolved to their primary names (see `World.callerName`).
    var callerNames = CallerNames()
    var nextID: UInt64 = 1
    /// Set by `World.requestStop()`; checked after each event.
    var stopRequested = false
    var networkRandom: SeededRandom
    /// `trace.interest`, kept aside so that the hot path does not access the trace to learn it:
    /// the kinds of event worth building (see `World.record(layer:host:kind:_:)`).
    var traceInterest = Trace().interest
    /// Whether any kind of event is worth building.
    var tracing = true
    /// Whether `http.request` and `http.response` events are worth building: the world records
    /// one of each per message, and skips their fields (and, for a response, the host names)
    /// when nobody reads them.
    var tracesRequests = true
    var tracesResponses = true
    /// The correlation id of the causal chain being handled.
    var correlation = ""
    /// Every call made over the network and how it ended.
    var journal = RequestJournal()
    /// Latency and fault rules every message passes.
    var faults = NetworkFaults()
    /// The latency between the world and callers outside it (see `World.outsideLatency`).
    var outsideLatency: VirtualDuration?
}

import PushSimKernel

/// The simulated world: one virtual clock, one event queue, one root seed, the network between
/// the hosts, the trace and the request journal. Everything mutable in a run hangs off one
/// `World` (design rule 1); one thread runs it, one event at a time.
///
/// Hosts talk only through ``call(_:from:timeout:then:)`` and ``respond(to:with:)``. Every
/// message takes a one-way latency drawn from the `network` stream and passes the fault rules.
/// A continuation is never run inside the call that set it up: replies always arrive as events.
public final class World {
    /// The root seed: every random stream of the run is forked from it (see ``randomStream(_:)``).
    public let seed: UInt64
    /// The calendar instant of virtual time zero, for the wall-clock values services put on the wire.
    public let anchor: CalendarAnchor
    /// Every event recorded so far. Read-only from outside: record through ``record(layer:host:kind:_:)``
    /// or ``record(layer:host:kind:fields:)``, observe through ``observeTrace(_:)``. (A settable
    /// property with an observer here let other modules mutate it through a get-and-set, which
    /// copied the whole trace on every event recorded: a run's cost grew with its square.)
    /// Checked for exclusivity (observers are user code that might call back into the world).
    public private(set) var trace = Trace()
    /// Every call made over the network and how it ended (keep none with
    /// ``RequestJournal/isRecording``).
    public var journal: RequestJournal { _read { yield hot.journal } _modify { yield &hot.journal } }
    /// Latency and fault rules every message passes. A change applies to messages sent from then on;
    /// one already under way keeps the verdict it had.
    public var faults: NetworkFaults {
        _read { yield hot.faults }
        set {
            hot.faults = newValue
            (hot.latencyIsFixed, hot.plainLatency) = (newValue.latencyIsFixed, newValue.plainLatency)
        }
    }

    // The hot state every event touches: unchecked for exclusivity in release builds only (see
    // ``WorldHotState``), reached through the forwarding properties below.
    #if DEBUG
    private var hot: WorldHotState
    private var loop: EventLoop<WorldEvent>
    #else
    @exclusivity(unchecked) private var hot: WorldHotState
    @exclusivity(unchecked) private var loop: EventLoop<WorldEvent>
    #endif
    // Beside `hot`, not in it: passing over answered calls reads `hot.calls` while this is changed.
    #if DEBUG
    private var deadlines = CallDeadlines()
    #else
    @exclusivity(unchecked) private var deadlines = CallDeadlines()
    #endif
    private var offline: Set<String> { _read { yield hot.offline } _modify { yield &hot.offline } }
    private var calls: CallTable { _read { yield hot.calls } _modify { yield &hot.calls } }
    private var delayLanes: DelayLanes { _read { yield hot.delayLanes } _modify { yield &hot.delayLanes } }
    private var latencyIsFixed: Bool { hot.latencyIsFixed }
    private var plainLatency: VirtualDuration? { hot.plainLatency }
    private var recentNames: RecentNames { _read { yield hot.recentNames } _modify { yield &hot.recentNames } }
    private var nextID: UInt64 { get { hot.nextID } set { hot.nextID = newValue } }
    private var stopRequested: Bool { get { hot.stopRequested } set { hot.stopRequested = newValue } }
    private var networkRandom: SeededRandom { _read { yield hot.networkRandom } _modify { yield &hot.networkRandom } }
    private var tracing: Bool { hot.tracing }
    /// The correlation id of the causal chain being handled; new calls and timers inherit it.
    public private(set) var correlation: String { get { hot.correlation } set { hot.correlation = newValue } }

    private var addresses: [String: HostAddress] { _read { yield hot.addresses } _modify { yield &hot.addresses } }
    private var hostOrder: [String] = []             // primary names in registration order
    private var timers: [UInt64: PendingTimer] = [:]
    private var correlationCounter = 0

    /// An empty world at virtual time zero under `limits`: no hosts, an empty trace, 10 ms
    /// latency, and the network's random stream forked from `seed` as `network`.
    public init(seed: UInt64, anchor: CalendarAnchor = CalendarAnchor(), limits: RunLimits = RunLimits()) {
        self.seed = seed
        self.anchor = anchor
        self.hot = WorldHotState(networkRandom: SeededRandom(seed: seed).fork("network"))
        self.loop = EventLoop(limits: limits)
    }

    /// Current virtual time.
    public var now: VirtualTime { loop.now }
    /// Live events run so far.
    public var eventsProcessed: Int { loop.processed }
    /// The run's limits on events and virtual time; may be changed between runs.
    public var limits: RunLimits {
        get { loop.limits }
        set { loop.limits = newValue }
    }

    /// How far clocks outside the world are behind it: zero in scenarios; in `pushsim serve`, the
    /// sum of its clock advances (virtual now = wall time + advances, and a real client keeps
    /// stamping wall time). See ``unixSeconds(judging:)``.
    public var outsideClockLag = VirtualDuration.zero

    /// The one-way latency of a message between the world and a caller outside it (one that is
    /// not a host of it, such as `pushsim serve`'s `sdk#3`), in place of the network's; nil (the
    /// default, and in scenarios): such a caller's messages take the network's latency like any
    /// host's. `pushsim serve` sets it to zero: a real client's request has already crossed a real
    /// network to reach the world, and a simulated hop on top would move virtual time ahead of the
    /// wall clock on every request. Fault rules still apply to these messages.
    public var outsideLatency: VirtualDuration? {
        get { hot.outsideLatency }
        set { hot.outsideLatency = newValue }
    }

    /// The due time of the first event still queued (it may turn out to be a cancelled one), or
    /// nil when nothing is queued: when a server that paces the world by the wall clock should
    /// look again.
    public var nextEventTime: VirtualTime? { loop.queue.first?.time }

    /// The Unix second by which to judge a time that `caller` stamped (a SAS token's `se`, a JWT's
    /// `iat` or `exp`): the world's now for its own hosts; for a caller outside the world (one
    /// that is not a host of it, such as `sdk#3`), the outside clock's, ``outsideClockLag`` behind.
    /// So a token a real client signs just now is fresh even after the world was advanced 91 days,
    /// while what is stored in the world (registrations, notifications) has aged 91 days.
    public func unixSeconds(judging caller: String) -> Int64 {
        guard outsideClockLag > .zero, resolve(caller) == nil else { return anchor.unixSeconds(now) }
        return anchor.unixSeconds(now) - outsideClockLag.microseconds / 1_000_000
    }

    /// The named random stream for one part of the world (`"apns"`, `"device/bob-iphone"`).
    public func randomStream(_ name: String) -> SeededRandom { SeededRandom(seed: seed).fork(name) }

    // MARK: Hosts

    /// Adds `host` under a primary name and any aliases (e.g. `apns` and `api.push.apple.com`).
    public func register(_ host: Host, name: String, aliases: [String] = []) {
        precondition(addresses[name] == nil, "host name \(name) is taken")
        // Bytes read in place: iterating Characters cost ~20,000 instructions a world set-up.
        let marksSubAddress = { (n: String) in n.containsByte(where: { $0 == UInt8(ascii: "#") }) }
        precondition(!marksSubAddress(name) && !aliases.contains(where: marksSubAddress), "host names cannot contain '#' (it marks sub-addresses)")
        let address = HostAddress(host: host, primary: name)
        addresses[name] = address
        for n in aliases { addresses[n] = address }
        hostOrder.append(name)
        recentNames = RecentNames()
        hot.callerNames = CallerNames()
    }

    /// The primary name behind `name` (itself if it is one), or nil for an unknown name.
    public func primaryName(_ name: String) -> String? { addresses[name]?.primary }
    /// Primary names of the registered hosts, in registration order.
    public var hostNames: [String] { hostOrder }
    /// Every name a host is registered under, primary names and aliases, sorted.
    public var registeredNames: [String] { addresses.keys.sorted() }
    /// The host registered under `name` (a primary name or an alias), or nil. A sub-address
    /// (`fleet#12`) is not resolved here.
    public func host(named name: String) -> Host? { addresses[name]?.host }

    /// Whether `name` is on the network (see ``setOnline(_:_:)``): a name never taken offline,
    /// unknown ones included, is. A sub-address (`fleet#12`) is on or off by itself, whatever its host is.
    public func isOnline(_ name: String) -> Bool { offline.isEmpty || !offline.contains(addresses[name]?.primary ?? name) }

    /// Takes a host off the network (calls to it are refused, calls from it fail) or back on.
    public func setOnline(_ name: String, _ online: Bool) {
        let primary = addresses[name]?.primary ?? name
        if online { offline.remove(primary) } else { offline.insert(primary) }
        record(layer: "network", host: primary, kind: online ? .hostOnline : .hostOffline)
    }

    // MARK: Correlation and trace

    /// Starts a new causal chain (`c0001`, `c0002`, …) and makes it current.
    @discardableResult public func newCorrelation() -> String {
        correlationCounter += 1
        correlation = "c" + pad4(correlationCounter)
        return correlation
    }

    /// Runs `body` as part of the causal chain `chain`, then returns to the current one: for work
    /// queued by one chain and resumed by another (callers waiting on a shared token fetch, a
    /// notification kept for an offline device and sent when it reconnects).
    public func inCorrelation<T>(_ chain: String, _ body: () -> T) -> T {
        let saved = correlation
        correlation = chain
        defer { correlation = saved }
        return body()
    }

    /// Records a trace event at `now` in the current causal chain.
    /// Fields keep the order written: `[.status: .int(200), .to: "hub"]`.
    /// The fields are only built when the trace is kept or an observer reads events of `kind`.
    public func record(layer: String, host: String, kind: TraceKind,
                       _ fields: @autoclosure () -> KeyValuePairs<TraceFieldName, TraceValue> = [:]) {
        guard isTracing(kind) else { return }
        trace.record(time: now, layer: layer, host: host, kind: kind, correlation: correlation,
                     fields: fields().map { TraceEvent.Field($0.key, $0.value) })
    }

    /// Records a trace event whose fields are already built, at `now` in the current causal chain
    /// (dropped, as above, when nothing keeps or reads events of `kind`).
    public func record(layer: String, host: String, kind: TraceKind, fields: [TraceEvent.Field]) {
        guard isTracing(kind) else { return }
        trace.record(time: now, layer: layer, host: host, kind: kind, correlation: correlation, fields: fields)
    }

    /// Whether trace events are kept or observed: hosts skip building costly trace fields when not.
    public var isTracing: Bool { tracing }

    /// Whether events of `kind` are kept or read by an observer: hosts skip building costly
    /// fields of an event when not (``record(layer:host:kind:_:)`` drops it then anyway).
    public func isTracing(_ kind: TraceKind) -> Bool { tracing && hot.traceInterest.contains(kind) }

    /// Whether recorded events are kept in ``trace`` (default true). Benchmarks of very large runs
    /// turn it off; observers still see every event of the kinds they read.
    public var isRecordingTrace: Bool {
        get { trace.isRecording }
        set { trace.isRecording = newValue; traceInterestChanged() }
    }

    /// Adds an observer that sees every trace event recorded from now on (invariant checkers use
    /// this; they observe from outside and are never called by the hosts).
    public func observeTrace(_ observer: @escaping (TraceEvent) -> Void) {
        trace.observe(observer)
        traceInterestChanged()
    }

    /// Adds an observer that reads only events of the kinds in `interest`: while the trace is
    /// not kept (``isRecordingTrace``), events that no observer reads are not even built. The
    /// observer may still be called with events of other kinds, and must ignore them.
    public func observeTrace(reading interest: TraceInterest, _ observer: @escaping (TraceEvent) -> Void) {
        trace.observe(reading: interest, observer)
        traceInterestChanged()
    }

    /// Takes in what the trace now keeps or its observers read.
    private func traceInterestChanged() {
        let interest = trace.interest
        hot.traceInterest = interest
        hot.tracing = !interest.isEmpty
        hot.tracesRequests = interest.contains(.httpRequest)
        hot.tracesResponses = interest.contains(.httpResponse)
    }

    // MARK: Timers

    /// Runs `action` after `delay`, in the current causal chain.
    @discardableResult
    public func schedule(after delay: VirtualDuration, _ action: @escaping () -> Void) -> TimerID {
        schedule(at: now + delay, action)
    }

    /// Runs `action` at `time` (not in the past), in the current causal chain.
    @discardableResult
    public func schedule(at time: VirtualTime, _ action: @escaping () -> Void) -> TimerID {
        let id = takeID()
        timers[id] = PendingTimer(action: action, correlation: correlation)
        loop.schedule(.timer(id), at: time)
        return TimerID(id: id)
    }

    /// Cancels a timer; nothing happens if it already fired or was cancelled.
    public func cancel(_ timer: TimerID) { timers[timer.id] = nil }

    // MARK: Calls

    /// Sends `request` from host `from` to the host named by `request.authority`; `then` runs
    /// when the response arrives, or with a ``TransportFailure`` (at the latest after `timeout`).
    public func call(_ request: consuming HTTPRequest, from: String, timeout: VirtualDuration = .seconds(30),
                     then continuation: @escaping (CallResult) -> Void) {
        send(consume request, from: from, timeout: timeout, .closure(continuation))
    }

    /// Like ``call(_:from:timeout:then:)``, but the result goes to `receiver` with `tag` (a number
    /// of the caller's choosing, such as a slot in its own table). No closure is allocated per
    /// call: the form for hosts that make very many calls (a hub fanning out to a million devices).
    public func call(_ request: consuming HTTPRequest, from: String, timeout: VirtualDuration = .seconds(30),
                     replyTo receiver: CallReceiver, tag: UInt64) {
        send(consume request, from: from, timeout: timeout, .receiver(receiver, tag))
    }

    private func send(_ request: consuming HTTPRequest, from: String, timeout: VirtualDuration, _ continuation: Continuation) {
        let caller = callerName(from)
        let resolved = resolve(request.authority)
        let callee = resolved?.primary
        let journalIndex = journal.isRecording
            ? journal.begin(.init(sentAt: now, correlation: correlation, from: caller, to: callee ?? request.authority, request: copy request))
            : nil
        if hot.tracesRequests { traceRequest(copy request, caller: caller, callee: callee) }
        let (method, authority, path) = (request.method, request.authority, request.path)
        // The request moves into the table (no copy), and out again when it arrives.
        let id = calls.insert(PendingCall(order: takeID(), method: method, authority: authority, path: path, request: consume request,
                                          caller: caller, callee: callee, calleeHost: resolved?.host, continuation: continuation,
                                          correlation: correlation, journalIndex: journalIndex))
        guard let callee else { return fail(id, .noSuchHost, after: .zero) }
        if !offline.isEmpty && offline.contains(caller) { return fail(id, .callerOffline, after: .zero) }
        scheduleTimeout(of: id, after: timeout)
        switch faults.verdict(from: caller, to: callee, at: now, random: &networkRandom) {
        case .drop(let label):
            record(layer: "network", host: caller, kind: .faultInjected,
                   [.fault: .string(label), .lost: "request", .to: .string(callee)])
        case .deliver(let latency):
            if let outside = hot.outsideLatency, resolve(caller) == nil {
                return schedule(.requestArrives(id), after: outside, inOrder: true)
            }
            schedule(.requestArrives(id), after: latency, inOrder: latencyIsFixed)
        }
    }

    private func traceRequest(_ request: HTTPRequest, caller: String, callee: String?) {
        record(layer: "network", host: caller, kind: .httpRequest,
               [.to: .string(request.authority), .callee: .string(callee ?? request.authority), .method: .string(request.method),
                .target: .string(request.target), .bytes: .int(request.body.count)])
    }

    /// Labels the journal entry of the call behind `exchange` with the injected fault that decided
    /// its answer (see ``RequestJournal/Entry/injected``).
    public func labelInjected(_ exchange: Exchange, _ label: String) {
        if let index = calls.journalIndex(exchange.id) { journal.labelInjected(index, label) }
    }

    /// Answers the request behind `exchange`. A reply to a call that already timed out is lost.
    public func respond(to exchange: Exchange, with response: HTTPResponse) {
        guard calls.isAwaitingResponse(exchange.id) else {
            record(layer: "network", host: exchange.caller, kind: .httpLateResponse, [.status: .int(response.status)])
            return
        }
        // A caller outside the world gets its answer after the outside latency (see ``outsideLatency``).
        let outside = hot.outsideLatency.flatMap { resolve(exchange.caller) == nil ? $0 : nil }
        // Without a traced response or fault rules the host names are not needed: not even copied then.
        if !hot.tracesResponses, let latency = outside ?? plainLatency {
            calls.update(exchange.id) { $0.response = response }
            return schedule(.responseArrives(exchange.id), after: latency, inOrder: true)
        }
        let (server, caller) = calls.endpoints(exchange.id)
        record(layer: "network", host: server, kind: .httpResponse,
               [.to: .string(caller), .status: .int(response.status), .bytes: .int(response.body.count)])
        calls.update(exchange.id) { $0.response = response }
        switch faults.verdict(from: server, to: caller, at: now, random: &networkRandom) {
        case .drop(let label):
            // Answered, but the answer never arrives.
            record(layer: "network", host: server, kind: .faultInjected,
                   [.fault: .string(label), .lost: "response", .to: .string(caller)])
        case .deliver(let latency):
            schedule(.responseArrives(exchange.id), after: outside ?? latency, inOrder: outside != nil || latencyIsFixed)
        }
    }

    /// Ends the request behind `exchange` without an answer: the caller gets `failure` after the
    /// usual latency back (or at once when a fault rule drops it, as a lost reset would be: then
    /// its own timeout decides). For a host that stands in for something outside the world and
    /// could not reach it (``TransportFailure/unreachable``) or heard nothing in time
    /// (``TransportFailure/timedOut``).
    public func fail(_ exchange: Exchange, with failure: TransportFailure) {
        guard calls.isAwaitingResponse(exchange.id) else { return }
        let (server, caller) = calls.endpoints(exchange.id)
        record(layer: "network", host: server, kind: .httpAbandoned, [.to: .string(caller), .error: .string(failure.rawValue)])
        switch faults.verdict(from: server, to: caller, at: now, random: &networkRandom) {
        case .drop: return
        case .deliver(let latency): fail(exchange.id, failure, after: latency)
        }
    }

    // MARK: Running

    /// Runs events until none is left, `stop` is reached, a limit is hit, or an event handler
    /// calls ``requestStop()`` (then it returns `.stoppedAt(now)` right after that event).
    @discardableResult
    public func run(until stop: VirtualTime? = nil) -> RunEnd {
        while true {
            switch loop.next(until: stop, liveness: liveness) {
            case .end(let end):
                correlation = ""
                loop.releaseUnusedCapacity()
                return end
            case .event(let event):
                dispatch(event)
                if stopRequested {
                    stopRequested = false
                    correlation = ""
                    return .stoppedAt(now)
                }
            }
        }
    }

    /// Runs events until `done()` is true after one of them (checked after each event), none is
    /// left, `stop` is reached, or a limit is hit. For a caller that waits for one answer while
    /// runs may nest (a host that, inside its handler, waits for something outside the world and
    /// serves that outside's calls meanwhile): each run waits for its own condition, where
    /// ``requestStop()`` would end whichever run is innermost.
    @discardableResult
    public func run(until stop: VirtualTime?, stopWhen done: () -> Bool) -> RunEnd {
        while true {
            switch loop.next(until: stop, liveness: liveness) {
            case .end(let end):
                correlation = ""
                return end
            case .event(let event):
                dispatch(event)
                if done() {
                    correlation = ""
                    return .stoppedAt(now)
                }
            }
        }
    }

    /// Makes the run in progress return as soon as the event being handled is done: for a caller
    /// that drives the world until one answer is back (`pushsim serve` answering a request), so
    /// that it need not run the world in small steps and look in between.
    public func requestStop() { stopRequested = true }

    /// Calls still waiting for an answer, timers not yet fired, and each host's own leftovers.
    /// Each host's leftovers are printed after its name (`apns: notification … kept for …`).
    public func leftovers() -> [Leftover] {
        var all: [Leftover] = []
        for c in calls.pending.sorted(by: { $0.order < $1.order }) {
            all.append(Leftover("network: call \(c.method) \(c.authority)\(c.path) from \(c.caller) still in flight [\(c.correlation)]"))
        }
        if !timers.isEmpty { all.append(Leftover("network: \(timers.count) timer(s) not yet fired")) }
        for name in hostOrder {
            all += addresses[name]!.host.leftovers(world: self).map { Leftover("\(name): \($0.line)", pendingIDs: $0.pendingIDs) }
        }
        return all
    }

    // MARK: Internals

    private func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Queues `event` at `now + delay`. Events scheduled one fixed delay after "now" fall due in
    /// the order they were scheduled, so when `inOrder` says the delay is one of few fixed values
    /// (a timeout length, a constant latency) they wait in a first-in first-out lane of the event
    /// queue (O(1) each way) instead of its heap (O(log n)). The order handed out is the same
    /// either way (see ``EventQueue``). Latencies drawn from a range go to the heap.
    private func schedule(_ event: WorldEvent, after delay: VirtualDuration, inOrder: Bool) {
        if inOrder, let lane = delayLanes.lane(for: delay, adding: { loop.addLane() }) {
            loop.schedule(event, at: now + delay, lane: lane)
        } else {
            loop.schedule(event, at: now + delay)
        }
    }

    /// The host serving `name`: a registered name or alias, or a sub-address `<host>#<member>`
    /// (one host standing for many devices, as a device fleet does). `primary` is the name to
    /// use for it: the primary name, or the sub-address itself (`fleet#12`).
    private func resolve(_ name: String) -> (host: Host, primary: String)? {
        if let known = recentNames.find(name) { return known }
        // Registered names never contain `#`, so a sub-address skips the full-name lookup.
        if let mark = name.byteOffset(of: UInt8(ascii: "#")) {
            let hostName = String(name.utf8.prefix(mark))!
            guard let address = addresses[hostName] else { return nil }
            recentNames.remember(hostName, host: address.host, primary: hostName, isPrefix: true)
            return (address.host, name)
        }
        guard let address = addresses[name] else { return nil }
        recentNames.remember(name, host: address.host, primary: address.primary, isPrefix: false)
        return (address.host, address.primary)
    }

    /// Makes call `id` time out after `timeout` unless answered first: a deadline in
    /// ``CallDeadlines`` (an event per call only past its limit of timeout lengths).
    private func scheduleTimeout(of id: UInt64, after timeout: VirtualDuration) {
        guard let q = deadlines.queue(for: timeout) else { return schedule(.callTimeout(id), after: timeout, inOrder: true) }
        let deadline = CallDeadlines.Deadline(time: now + timeout, sequence: loop.reserveSequence(), call: id)
        if deadlines.add(deadline, to: q) { loop.schedule(.callDeadlines(q), at: deadline.time, sequence: deadline.sequence) }
    }

    /// The primary name of a caller: itself for an unknown name or a sub-address. The few hosts
    /// that make most calls (a hub, the push services) are remembered by the name they call
    /// from, so that their calls skip ``resolve(_:)`` and its host lookup.
    private func callerName(_ from: String) -> String {
        if let known = hot.callerNames.primary(of: from) { return known }
        guard let (_, primary) = resolve(from) else { return from }
        if addresses[from] != nil { hot.callerNames.remember(from, primary: primary) }   // not a sub-address
        return primary
    }

    private func fail(_ id: UInt64, _ failure: TransportFailure, after delay: VirtualDuration) {
        guard calls.contains(id) else { return }
        calls.update(id) { $0.failure = failure }
        schedule(.failureArrives(id), after: delay, inOrder: delay == .zero || latencyIsFixed)
    }

    /// Whether a queued event still applies when it comes up: a timer not cancelled, a call
    /// still stored (for a timeout, not already failed); a deadline queue's event is postponed to
    /// the first deadline still live, or dropped when there is none.
    private func liveness(_ entry: EventQueue<WorldEvent>.Entry) -> EventLoop<WorldEvent>.Liveness {
        let live: Bool
        switch entry.payload {
        case .callDeadlines(let q):
            guard let first = deadlines.firstLive(q, isDead: { !calls.awaitsTimeout($0) }) else { return .dead }
            return first.sequence == entry.sequence ? .live : .postponed(first.time, sequence: first.sequence)
        case .timer(let id): live = timers[id] != nil
        case .requestArrives(let id), .failureArrives(let id), .responseArrives(let id): live = calls.contains(id)
        case .callTimeout(let id): live = calls.awaitsTimeout(id)
        }
        return live ? .live : .dead
    }

    private func dispatch(_ event: WorldEvent) {
        switch event {
        case .timer(let id):
            let timer = timers.removeValue(forKey: id)!
            correlation = timer.correlation
            timer.action()
        case .requestArrives(let id):
            let pending = calls.takeArrivingRequest(id)
            correlation = pending.correlation
            let callee = pending.callee
            if !offline.isEmpty && offline.contains(callee) {
                record(layer: "network", host: callee, kind: .httpRefused, [.from: .string(pending.caller)])
                let back = faults.verdict(from: callee, to: pending.caller, at: now, random: &networkRandom)
                if case .deliver(let latency) = back { fail(id, .unreachable, after: latency) }
                return
            }
            pending.host.handle(pending.request, exchange: Exchange(id: id, caller: pending.caller), world: self)
        case .responseArrives(let id):
            let pending = calls.remove(id)
            finish(pending, .response(pending.response!))
        case .failureArrives(let id):
            let pending = calls.remove(id)
            finish(pending, .failure(pending.failure!))
        case .callTimeout(let id):
            let pending = calls.remove(id)
            finish(pending, .failure(.timedOut))
        case .callDeadlines(let q):
            // The first live deadline (see `liveness`); the queue's event goes on to the next one
            // before the caller hears, since the caller may make calls that add deadlines.
            let (fired, next) = deadlines.fire(q, isDead: { !calls.awaitsTimeout($0) })
            if let next { loop.schedule(.callDeadlines(q), at: next.time, sequence: next.sequence) }
            let pending = calls.remove(fired.call)
            finish(pending, .failure(.timedOut))
        }
    }

    private func finish(_ pending: PendingCall, _ result: CallResult) {
        correlation = pending.correlation
        if let index = pending.journalIndex { journal.complete(index, with: result, at: now) }
        if case .failure(let f) = result {
            record(layer: "network", host: pending.caller, kind: .httpFailure,
                   [.to: .string(pending.authority), .error: .string(f.rawValue)])
        }
        switch pending.continuation {
        case .closure(let then): then(result)
        case .receiver(let receiver, let tag): receiver.receive(result, tag: tag, world: self)
        }
    }
}

/// `n` in decimal, zero-padded to at least four digits (`0007`, `12345`): the kernel's `pad`.
func pad4(_ n: Int) -> String { pad(Int64(n), 4) }

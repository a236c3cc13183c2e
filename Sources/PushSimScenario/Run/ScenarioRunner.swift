import PushSimKernel
import PushSimNetwork
import PushSimBackend
import PushSimDevices

/// Builds a ``Simulation`` from a parsed ``Scenario``, schedules its steps, runs it to the end
/// and checks its expectations.
public enum ScenarioRunner {
    /// Runs `scenario` with `seed` (the file's own seed, else 0, when nil). `prepare` runs on the
    /// world once it is built, before anything happens (tests plant bugs with it). Without
    /// `keepingTrace` the report's trace is empty: verdicts, invariants and defect marks are judged
    /// as events are recorded, so they are the same.
    /// `externalBackends` connects the scenario's `backend external` addresses; a scenario that
    /// has some fails without it.
    public static func run(_ scenario: Scenario, seed: UInt64? = nil, externalBackends: ExternalBackendConnector? = nil,
                           keepingTrace: Bool = true, prepare: (Simulation) -> Void = { _ in }) -> Result<ScenarioReport, ScenarioParseFailure> {
        let seed = seed ?? scenario.seed ?? 0
        let simulation = Simulation(seed: seed, options: simulationOptions(for: scenario))
        simulation.world.isRecordingTrace = keepingTrace
        // Only `expect <host> received` reads the request journal: without one, requests are not kept.
        simulation.world.journal.isRecording = scenario.expectations.contains { if case .received = $0.kind { true } else { false } }
        prepare(simulation)
        let external = ExternalBackends(scenario)
        if let problem = external.connect(to: simulation, with: externalBackends) { return .failure(ScenarioParseFailure(diagnostics: [problem])) }
        defer { if !external.addresses.isEmpty { externalBackends?.runEnded() } }
        for d in scenario.devices {
            simulation.addDevice(d.name, d.platform, client: d.client, user: d.user, backend: d.backend, osVersion: d.osVersion,
                                 backendHost: external.hostName(for: d), firebase: d.firebase)
        }
        for s in scenario.applicationServers { simulation.addApplicationServer(s.name, subject: s.subject) }
        for b in scenario.browsers { simulation.addBrowser(b.name, vendor: b.vendor, permission: b.permission, promptAnswer: b.promptAnswer) }
        let problems = applyNetworkAndFaults(of: scenario, to: simulation)
        if !problems.isEmpty { return .failure(ScenarioParseFailure(diagnostics: problems)) }
        for action in scenario.actions {
            let label = "\(action.device) \(action.kind.label)"
            switch action.kind {
            case .operator(let step):
                schedule(step, at: action.time, label: label, in: simulation)
            case .device(let step):
                guard let device = simulation.device(action.device) else { continue }
                simulation.at(action.time, label) { [unowned simulation] in perform(step, on: device, in: simulation) }
            case .webPush(let step):
                schedule(step, by: action.device, at: action.time, label: label, in: simulation)
            }
        }
        // Checkers observe the trace from outside. Cross-user delivery fails the run only when
        // every backend in use is hardened; the tutorial's defects g and i break it on purpose.
        // A user's own backend is held to the hardened standard: it is what its tests are for.
        let allHardened = scenario.devices.allSatisfy { external.hostName(for: $0) != nil || ($0.backend ?? simulation.options.backend) == .hardened }
        // Logout privacy needs the recommended client's retried unregistration: the tutorial app's
        // logout is a single DELETE, and a lost one breaks it (reported as a note then).
        let allRecommended = allHardened && scenario.devices.allSatisfy { $0.client == .recommended }
        let checkers = InvariantCheckers.make(crossUserEnforced: allHardened, logoutPrivacyEnforced: allRecommended)
        let memory = RunMemory()
        let reads = checkers.reduce(into: RunMemory.reads) { $0.formUnion($1.reads) }
        simulation.world.observeTrace(reading: TraceInterest(reads)) { event in
            for c in checkers { c.observe(event) }
            memory.observe(event)
        }
        // Hub state with `by <time>` is read at that moment: a probe runs then and keeps the count.
        var probes: [Int: Int] = [:]   // expectation index → live registrations or installations seen (looked up only)
        var liveActivityProbes: [Int: LiveActivitySnapshot] = [:]   // expectation index → what was seen (looked up only)
        for (i, e) in scenario.expectations.enumerated() {
            guard let at = e.by else { continue }
            switch e.kind {
            case .liveActivity(let name, let type, _):
                simulation.world.schedule(at: at) { [unowned simulation] in
                    liveActivityProbes[i] = LiveActivitySnapshot(device: simulation.device(name), attributesType: type, now: simulation.world.now)
                }
            case .hubRegistrations(let tag, _):
                simulation.world.schedule(at: at) { [unowned simulation] in probes[i] = simulation.hub.liveRegistrations(tag: tag, now: simulation.world.now) }
            case .hubInstallations(let tag, _):
                simulation.world.schedule(at: at) { [unowned simulation] in probes[i] = simulation.hub.liveInstallations(tag: tag, now: simulation.world.now) }
            case .broadcastChannels:
                simulation.world.schedule(at: at) { [unowned simulation] in probes[i] = simulation.broadcastChannelCount }
            case .topicSubscribers(let topic, _):
                let project = simulation.identity.fcmProjectID
                simulation.world.schedule(at: at) { [unowned simulation] in probes[i] = simulation.fcm.subscriberCount(of: topic, project: project) }
            default: continue
            }
        }
        let end = simulation.run()
        let leftovers = simulation.world.leftovers()
        let invariants = checkers.map { $0.result(leftovers: leftovers) }
        let results = scenario.expectations.enumerated().map {
            ExpectationCheck.evaluate($0.element, in: simulation, memory: memory, invariants: invariants, probed: probes[$0.offset],
                                      liveActivity: liveActivityProbes[$0.offset])
        }
        return .success(ScenarioReport(scenario: scenario, seed: seed, results: results,
                                       invariants: invariants, end: end,
                                       finalTime: simulation.world.now, events: simulation.world.eventsProcessed,
                                       leftovers: leftovers.map(\.line), trace: simulation.world.trace.events, defects: memory.defects))
    }

    /// The options a scenario's settings give a ``Simulation`` (epoch, backend, accounts, hub TTL and
    /// credentials, limits); the network and the services' faults are applied to the built world
    /// by ``applyNetworkAndFaults(of:to:)``.
    public static func simulationOptions(for scenario: Scenario) -> Simulation.Options {
        var options = Simulation.Options()
        for setting in scenario.settings {
            switch setting {
            case .epoch(let anchor): options.anchor = anchor
            case .backend(let flavour): options.backend = flavour
            case .account(let user, let password): options.accounts = (options.accounts ?? [:]).merging([user: password]) { $1 }
            case .hubRegistrationTTL(let ttl): options.registrationTimeToLive = ttl
            case .limitEvents(let n): options.limits.maxEvents = n
            case .limitTime(let d): options.limits.maxTime = .zero + d
            case .hubCredentials(let service, let problem): options.hubCredentialProblems[service] = problem
            case .fcmAPNsKey(let state): options.fcmAPNsKey = state
            case .apnsBroadcast(let enabled): options.apnsBroadcastEnabled = enabled
            case .hubRule(let rule): options.hubRules.append(rule)
            case .hubPolicy(let policy): options.hubPolicies.append(policy)
            case .backendKey(let key): options.backendHubKeyName = key.keyName
            case .latency, .linkLatency, .loss, .partition, .fault: break // network and service settings
            case .externalBackend: break   // a host the runner adds (see `ExternalBackends`)
            }
        }
        return options
    }

    /// Applies a scenario's network settings (latency, loss, partitions) and the injected faults
    /// of the services and the hub to a built world whose devices are already added; returns a diagnostic per
    /// network rule that names a host the world does not have, and per fault for a service no
    /// fake plays (none today: nothing is dropped silently when a service is added).
    @discardableResult
    public static func applyNetworkAndFaults(of scenario: Scenario, to simulation: Simulation) -> [ScenarioDiagnostic] {
        var problems: [ScenarioDiagnostic] = []
        let fileStart = SourceLocation(file: scenario.path, line: 1, column: 1)
        for setting in scenario.settings {
            switch setting {
            case .latency(let min, let max):
                simulation.world.faults.latencyMin = min
                simulation.world.faults.latencyMax = max
            case .fault(let service, let fault):
                // A service the parser knows (FaultWords.services) but nothing here plays is reported.
                guard simulation.injectFault(fault, into: service) else {
                    problems.append(ScenarioDiagnostic(location: fileStart, message: "no fake push service \"\(service)\" takes faults",
                                                       hint: "faults go to " + FaultWords.services.joined(separator: ", ")))
                    break
                }
            case .linkLatency(let min, let max, let between):
                simulation.world.faults.linkLatency.append(LinkLatency(between: between, min: min, max: max))
            case .loss(let ratio, let between, let window):
                problems += unknownHosts(between ?? [], simulation, fileStart)
                simulation.world.faults.rules.append(LinkFault(between: between, window: window, effect: .loss(ratio)))
            case .partition(let a, let b, let from, let to):
                problems += unknownHosts([a, b], simulation, fileStart)
                simulation.world.faults.rules.append(LinkFault(between: [a, b], window: from..<to, effect: .partition))
            default: break
            }
        }
        return problems
    }

    /// Does a device's step, when its time comes.
    static func perform(_ action: DeviceAction, on device: Device, in simulation: Simulation) {
        switch action {
        case .install: device.install()
        case .uninstall: device.uninstall()
        case .login(let user, let password): device.login(user: user, password: password)
        case .send(let message, let to, let via): device.send(message, to: to, via: via)
        case .offline: device.goOffline()
        case .online: device.goOnline()
        case .logout: device.logout()
        case .launch: device.launch()
        case .refreshHandle: device.refreshHandle()
        case .clearData: device.clearData()
        case .restore(let other): if let source = simulation.device(other) { device.restore(from: source) }
        case .register(let tags): tags.isEmpty ? device.register() : device.register(withTags: tags)
        case .request(let method, let target, let auth, let body): device.request(method, target, authorization: auth, body: body)
        case .topic(let topic, let unsubscribe): unsubscribe ? device.unsubscribe(fromTopic: topic) : device.subscribe(toTopic: topic)
        case .permission(let permission): device.changeNotificationPermission(to: permission)
        case .channel(let id, let enabled): device.setNotificationChannel(id, enabled: enabled)
        case .liveActivity(let step): perform(step, on: device, now: simulation.world.now, channelIDs: simulation.operatorConsole.broadcastChannelIDs)
        }
    }

    /// Schedules the operator's step at `time` on the simulation's ``OperatorConsole``; a step on a
    /// device the world does not have is not scheduled.
    static func schedule(_ action: OperatorAction, at time: VirtualTime, label: String, in simulation: Simulation) {
        let console = simulation.operatorConsole
        switch action {
        case .send(let format, let payload, let expression, let headers):
            let fields = headers.map { ($0.name, $0.value) }
            simulation.at(time, label) { console.send(format: format, payload: payload, tagExpression: expression, headers: fields) }
        case .schedule(let format, let payload, let when, let expression, let headers):
            let fields = headers.map { ($0.name, $0.value) }
            simulation.at(time, label) { console.schedule(format: format, payload: payload, at: when, tagExpression: expression, headers: fields) }
        case .cancelScheduled:
            simulation.at(time, label) { console.cancelLastScheduled() }
        case .registration(let name, let delete, let ifMatch):
            guard let device = simulation.device(name) else { return }
            simulation.at(time, label) { console.writeRegistration(of: device, delete: delete, ifMatch: ifMatch) }
        case .installation(let name, let change):
            guard let device = simulation.device(name) else { return }
            simulation.at(time, label) { console.writeInstallation(of: device, change) }
        case .listRegistrations(let tag):
            simulation.at(time, label) { console.listRegistrations(tag: tag) }
        case .testSend(let format, let payload, let expression, let headers):
            let fields = headers.map { ($0.name, $0.value) }
            simulation.at(time, label) { console.testSend(format: format, payload: payload, tagExpression: expression, headers: fields) }
        case .fcmSend(let body, let target):
            let account = simulation.identity.fcmAccount
            if case .tokenOf(let name) = target {
                // The device's newest FCM token, read when the step runs (its app may be gone by then: the backend kept the token).
                guard let device = simulation.device(name) else { return }
                return simulation.at(time, label) { console.sendToFCM(body: body, target: .token(device.lastFCMToken ?? ""), account: account) }
            }
            simulation.at(time, label) { console.sendToFCM(body: body, target: target, account: account) }
        case .apnsSend(let payload, let token, let headers):
            guard let device = simulation.device(token.device) else { return }
            let key = simulation.identity.apnsKey, bundleID = simulation.identity.app.bundleID
            simulation.at(time, label) {
                console.sendToAPNs(payload: payload, token: token.token(on: device) ?? "", headers: headers.map { ($0.name, $0.value) },
                                   key: key, bundleID: bundleID)
            }
        case .fcmLiveActivitySend(let body, let holder, let token):
            guard let fcmDevice = simulation.device(holder), let device = simulation.device(token.device) else { return }
            let account = simulation.identity.fcmAccount
            simulation.at(time, label) {
                console.sendToFCM(body: OperatorConsole.withLiveActivityToken(body, token.token(on: device) ?? ""),
                                  target: .token(fcmDevice.lastFCMToken ?? ""), account: account)
            }
        case .createChannel(let name, let policy):
            let account = simulation.apnsAccount
            simulation.at(time, label) { console.createBroadcastChannel(name, policy: policy, account: account) }
        case .deleteChannel(let name):
            let account = simulation.apnsAccount
            simulation.at(time, label) { console.deleteBroadcastChannel(name, account: account) }
        case .broadcast(let payload, let channel, let headers):
            let account = simulation.apnsAccount, fields = headers.map { ($0.name, $0.value) }
            simulation.at(time, label) { console.broadcast(payload, onChannel: channel, headers: fields, account: account) }
        case .useKey(let key):
            // The parser checked that a named policy is declared; an unknown one is not scheduled.
            guard let connectionString = simulation.hubConnectionString(keyName: key.keyName) else { return }
            simulation.at(time, label) { console.useKey(connectionString: connectionString) }
        }
    }

    private static func unknownHosts(_ names: [String], _ simulation: Simulation, _ at: SourceLocation) -> [ScenarioDiagnostic] {
        names.filter { simulation.world.primaryName($0) == nil }.map {
            ScenarioDiagnostic(location: at, message: "unknown host \"\($0)\" in a network rule",
                               hint: "hosts are device names and \(simulation.world.hostNames.prefix(5).joined(separator: ", "))")
        }
    }
}

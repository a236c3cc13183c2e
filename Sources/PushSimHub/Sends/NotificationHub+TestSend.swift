import PushSimKernel
import PushSimNetwork

/// Test (debug) sends: any send with `&test` in its query (the SDK's `EnableTestSend`;
/// Citations §4.8; NH-DOTNET, NH-FIX, NH-FAQ).
///
/// - At most 10 targets get the notification: PushSim takes the FIRST 10 in fan-out order
///   (registrations by creation, then installations by id). The portal's Test Send picks 10 at
///   random (NH-FIX); first-ten keeps a test's outcome independent of the seed.
/// - The answer waits for every copy's PNS answer, one attempt each (no retries, no 30-minute
///   wait), and is ``HubConfiguration/sendAcceptedStatus`` (`201 Created` unless set to 200: no
///   source gives a test send a status of its own; the .NET SDK takes 200 or 201 for it, the
///   JavaScript SDK only 201, see ``SendAcceptedStatus``) with a `NotificationOutcome` XML body:
///   `<NotificationOutcome><Success>n</Success><Failure>n</Failure><Results><RegistrationResult>
///   <ApplicationPlatform/><PnsHandle/><RegistrationId/><Outcome/></RegistrationResult>…</Results>
///   </NotificationOutcome>` in the servicebus namespace. XML because the SDK reads a test send's
///   body with a DataContractSerializer into `NotificationOutcome` (NH-DOTNET
///   `SendNotificationImplAsync`); results are in fan-out order.
/// - At most 10 test sends per minute per hub (NH-FIX); the 11th within 60 s is refused with
///   `403` and `Retry-After` (seconds until the oldest leaves the window), which the SDK maps to
///   `QuotaExceededException` (NH-DOTNET `ExceptionUtility.cs`).
/// - PNS feedback still applies: a dead handle found by a test send is handled as in any send.
extension NotificationHub {
    static let testSendTargets = 10
    static let testSendsPerMinute = 10

    /// Counts one test send against the per-minute quota, or says why it is refused.
    func takeTestSendQuota(_ world: World) -> HubRefusal? {
        let window = VirtualDuration.minutes(1)
        testSendTimes.removeAll { $0 + window <= world.now }
        guard testSendTimes.count < Self.testSendsPerMinute else {
            let wait = testSendTimes[0] + window - world.now
            let seconds = max(1, wait.secondsRoundedUp)
            world.record(layer: "hub", host: Self.name, kind: .hubTestSendRefused,
                         [.why: "more than \(Self.testSendsPerMinute) test sends in a minute", .retryAfter: .int(seconds)])
            return HubRefusal(status: 403, detail: "The test send quota was exceeded: at most \(Self.testSendsPerMinute) test sends per minute.",
                              headers: [("Retry-After", String(seconds))])
        }
        testSendTimes.append(world.now)
        return nil
    }

    /// Sends to the first 10 targets and answers once each copy has its outcome.
    func testSend(_ n: HubNotification, _ all: SendTargets, _ exchange: Exchange, _ world: World) {
        let targets = all.prefix(Self.testSendTargets)
        world.record(layer: "hub", host: Self.name, kind: .hubTestSend,
                     [.notification: .string(n.id), .matching: .int(all.count), .targets: .int(targets.count)])
        let status = configuration.sendAcceptedStatus.rawValue
        records[slot: n.recordSlot].onFinished = { [unowned self] record in
            let results = record.results.sorted { $0.ordinal < $1.ordinal }.map(\.result)
            let success = record.counts.filter { $0.outcome == .success }.reduce(0) { $0 + $1.count }
            world.record(layer: "hub", host: Self.name, kind: .hubTestSendResult,
                         [.notification: .string(n.id), .success: .int(success), .failure: .int(results.count - success)])
            respond(to: exchange, with: HTTPResponse(status: status,
                                                     headers: ["Content-Type": "application/xml; charset=utf-8"],
                                                     text: Self.testOutcomeXML(success: success, failure: results.count - success, results)), world)
        }
        fanOut(n, targets, world: world)
    }

    static func testOutcomeXML(success: Int, failure: Int, _ results: [RegistrationResult]) -> String {
        func text(_ name: String, _ value: String) -> XMLNode { .element(XMLElement(name: name, children: [.text(value)])) }
        let rows: [XMLNode] = results.map { r in
            .element(XMLElement(name: "RegistrationResult", children: [
                text("ApplicationPlatform", r.applicationPlatform), text("PnsHandle", r.pnsHandle),
                text("RegistrationId", r.registrationID), text("Outcome", r.outcome),
            ]))
        }
        let root = XMLElement(name: "NotificationOutcome", attributes: [("xmlns", AtomRegistration.sbNamespace), ("xmlns:i", AtomRegistration.xsiNamespace)],
                              children: [text("Success", String(success)), text("Failure", String(failure)),
                                         .element(XMLElement(name: "Results", children: rows))])
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>" + root.serialized()
    }

    /// Reads a test send's body (the client side).
    static func parseTestOutcome(_ body: [UInt8]) -> NotificationOutcome? {
        guard let doc = try? XMLDocumentParser.parse(body), doc.root.name == "NotificationOutcome" else { return nil }
        let results = doc.root.first("Results")?.elements.map { e in
            RegistrationResult(applicationPlatform: e.first("ApplicationPlatform")?.text ?? "", pnsHandle: e.first("PnsHandle")?.text ?? "",
                               registrationID: e.first("RegistrationId")?.text ?? "", outcome: e.first("Outcome")?.text ?? "")
        } ?? []
        return NotificationOutcome(state: .detailedStateAvailable, notificationID: nil, trackingID: nil,
                                   success: Int(doc.root.first("Success")?.text ?? "") ?? 0,
                                   failure: Int(doc.root.first("Failure")?.text ?? "") ?? 0, results: results)
    }
}

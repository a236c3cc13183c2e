import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Faults of the hub itself (``NotificationHub/faults``): the services' fault model and
/// interpreter, asked at the top of every REST request to the hub, answered in the hub's own
/// error shape and classified by its SDK-like client as the .NET SDK classifies them.
@Suite struct HubFaultTests {
    /// A rule in force for the next hour.
    func rule(_ effect: ServiceFault.Effect, _ h: HubWorld, count: Int? = nil, probability: Ratio = .always) -> ServiceFault {
        ServiceFault(effect: effect, from: h.world.now, to: h.world.now + .hours(1), probability: probability, count: count)
    }

    /// Outage 503, throttle 429 with Retry-After (whole seconds, rounded up), internal error 500:
    /// the hub's `<Error><Code>…</Code><Detail>…</Detail></Error>` body, written as its other
    /// refusals are, and traced as injected.
    @Test(arguments: [
        (ServiceFault.Effect.outage(retryAfter: .seconds(30)), 503, nil as String?),
        (.throttle(retryAfter: .milliseconds(44_200)), 429, "45"),
        (.internalError, 500, nil),
    ])
    func theHubAnswersInItsOwnErrorShape(effect: ServiceFault.Effect, status: Int, retryAfter: String?) throws {
        let h = HubWorld(services: false)
        h.hub.faults = [rule(effect, h)]
        let r = try #require(h.send(format: "apple", body: #"{"aps":{"alert":"hi"}}"#))
        #expect(r.status == status)
        #expect(r.headers["Retry-After"] == retryAfter)
        #expect(r.headers["Content-Type"] == "application/xml; charset=utf-8")
        let document = try XMLDocumentParser.parse(r.body)
        #expect(document.root.name == "Error")
        #expect(document.root.first("Code")?.text == String(status))
        let detail = try #require(document.root.first("Detail")?.text)
        #expect(HubErrorDetail.split(detail).trackingID?.hasSuffix("_G1") == true, "\(detail)")
        #expect(h.detail(r) == NotificationHub.injectedAnswer(effect)?.detail)
        let injected = h.events("fault.injected")
        #expect(injected.count == 1)
        #expect(injected.first?.layer == "hub")
        #expect(injected.first?[.status] == .int(Int64(status)))
        #expect(h.events("hub.rejected").count == 1)
        #expect(h.world.journal.entries.last?.injected?.hasPrefix(effect.name) == true)
    }

    /// Every REST request is hit, whatever it asks, before its path, version or token is read.
    @Test func everyRequestIsHitBeforeItIsRead() throws {
        let h = HubWorld(services: false)
        h.hub.faults = [rule(.outage(retryAfter: .seconds(30)), h)]
        #expect(h.raw("POST", h.path("registrationIDs/"))?.status == 503)
        #expect(h.raw("GET", h.path("registrations/"))?.status == 503)
        #expect(h.raw("PUT", h.path("installations/i1"), body: Array("{}".utf8))?.status == 503)
        #expect(h.raw("GET", "/otherhub/registrations/")?.status == 503, "the path is not read")
        #expect(h.raw("GET", h.path("registrations/"), query: [])?.status == 503, "nor the api-version")
        #expect(h.raw("GET", h.path("registrations/"), auth: .none)?.status == 503, "nor the SAS token")
    }

    /// The SDK-like client sees them as the .NET SDK would: `ServerBusyException` for 503 and
    /// 500, `QuotaExceededException` for 429 (NH-DOTNET `ExceptionUtility.cs`).
    @Test func theClientClassifiesThemAsTheSDKDoes() {
        let h = HubWorld(services: false)
        for (effect, kind, status) in [(ServiceFault.Effect.outage(retryAfter: .seconds(30)), HubError.Kind.serverBusy, 503),
                                       (.throttle(retryAfter: .seconds(30)), .quotaExceeded, 429),
                                       (.internalError, .serverBusy, 500)] {
            h.hub.faults = [rule(effect, h)]
            guard case .failure(let e)? = h.wait({ h.client.createRegistrationId($0) }) else {
                Issue.record("\(effect.name) did not fail")
                continue
            }
            #expect(e.kind == kind && e.status == status, "\(effect.name): \(e)")
        }
    }

    /// A count bounds the rule: the next request is handled as usual, and the rule stays listed
    /// with nothing left.
    @Test func aCountBoundsTheRule() throws {
        let h = HubWorld(services: false)
        h.hub.faults = [rule(.throttle(retryAfter: .seconds(5)), h, count: 2)]
        let statuses = (0..<3).map { _ in h.raw("POST", h.path("registrationIDs/"))?.status }
        #expect(statuses == [429, 429, 201])
        #expect(h.hub.faults.first?.remaining == 0)
        #expect(h.hub.faults.first?.isActive(at: h.world.now) == false)
    }

    /// `slow`: the work is done at once (the registration exists), the answer leaves later.
    @Test func slowDelaysTheAnswerNotTheWork() throws {
        let h = HubWorld(services: false)
        h.hub.faults = [rule(.slow(.seconds(3)), h, count: 1)]
        let started = h.world.now
        var answered: VirtualTime?
        h.client.createRegistrationId { _ in answered = h.world.now }
        h.advance(.seconds(1))
        #expect(answered == nil)
        #expect(h.events("hub.registration-id-created").count == 1, "the id was handed out at once")
        h.world.run()
        #expect(try #require(answered) - started >= .seconds(3))
        #expect(h.events("fault.injected").first?[.delay] == .string("3s"))
    }

    /// `lost-answer`: the send is accepted and fanned out, but the caller hears nothing and times out.
    @Test func aLostAnswerIsDoneButNeverAnswered() throws {
        let h = HubWorld()
        let phone = TestDevice.iPhone(h, "phone")
        let handle = try #require(phone.handle)
        h.register(.apple, handle)
        h.hub.faults = [rule(.lostAnswer, h, count: 1)]
        let result = h.wait({ h.client.sendAppleNativeNotification(#"{"aps":{"alert":"hi"}}"#, $0) })
        guard case .failure(let e)? = result else { Issue.record("the send was answered: \(String(describing: result))"); return }
        #expect(e.kind == .transport)
        #expect(phone.pushes.count == 1, "the notification went out all the same")
        #expect(h.events("fault.injected").first?[.lost] == .string("response"))
    }

    /// Rules scoped to a token, a device or an app, and token refusals, never hit the hub: it has
    /// no token to judge a request by.
    @Test func scopedRulesAndRefusalsNeverHit() throws {
        let h = HubWorld(services: false)
        let hour = h.world.now..<(h.world.now + .hours(1))
        h.hub.faults = [ServiceFault(effect: .outage(retryAfter: .seconds(1)), window: hour, scope: .device("phone")),
                        ServiceFault(effect: .refuse("Unregistered"), window: hour)]
        #expect(h.raw("POST", h.path("registrationIDs/"))?.status == 201)
        #expect(h.events("fault.injected").isEmpty)
    }

    /// The hub's rules draw from `hub/faults`: a rule that is asked on every request (its window
    /// is open) but whose draws all miss leaves every other number of the run where it was (the
    /// tracking ids of the 404s come from the hub's own streams), so the trace is the same as
    /// without it. (A window that never opened, as this test first had, draws nothing: it could
    /// not fail.)
    @Test func aRuleThatNeverHitsChangesNothing() throws {
        func trace(_ faults: [ServiceFault]) -> [String] {
            let h = HubWorld(seed: 4, services: false)
            h.hub.faults = faults
            for _ in 0..<3 { _ = h.raw("POST", h.path("registrationIDs/")) }
            for _ in 0..<3 { _ = h.raw("GET", h.path("registrations/nope")) }
            return h.world.trace.events.map { "\($0.time) \($0.kind.name) \($0.fields.map { "\($0.key)=\($0.value)" })" }
        }
        let missing = ServiceFault(effect: .outage(retryAfter: .seconds(1)), from: .zero, to: .zero + .hours(6),
                                   probability: Ratio(1, 1_000_000_000))
        let withRule = trace([missing])
        #expect(!withRule.contains { $0.contains("fault.injected") })
        #expect(withRule.contains { $0.contains("tracking") || $0.contains("404") })
        #expect(withRule == trace([]))
    }
}

import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// The settings for what Microsoft's sources leave open (`HubFidelityRules.swift`), the `If-Match`
/// reading, and the client calls that carry `If-Match` as the .NET SDK does.
@Suite("Hub fidelity settings")
struct FidelitySettingsTests {
    static let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"

    private func world(_ change: (inout HubConfiguration) -> Void, services: Bool = false) -> HubWorld {
        var c = TestIdentity.configuration()
        change(&c)
        return HubWorld(services: services, configuration: c)
    }

    @Test func defaultsAreDocumented() {
        let c = TestIdentity.configuration()
        #expect(c.sendAcceptedStatus == .created)
        #expect(c.ifMatchWithoutRegistration == .notFound)
        #expect(c.deleteWithoutIfMatch == .deletes)
        #expect(c.invalidAPNsPayload == .refused)
        #expect(c.registrationWriteStatus == .ok)
    }

    @Test func aRegistrationWriteAnswersThePagesStatusWhenAsked() {
        let w = world({ $0.registrationWriteStatus = .created })
        let id = w.createID()
        #expect(w.put(id, .apple, Self.token) != nil)
        let entry = w.world.journal.entries.last { $0.to == NotificationHub.name && $0.request.method == "PUT" }
        #expect(entry?.result?.status == 201)
        // The client takes 201 as it takes 200 (the SDK accepts both).
        guard case .success? = w.put(id, .apple, Self.token) else { Issue.record("the client refused 201"); return }
    }

    // MARK: If-Match reading

    @Test(arguments: [
        ("*", IfMatch.any), ("  * ", .any), ("\"3\"", .tags(["3"])), ("W/\"3\"", .tags(["3"])), ("w/\"3\"", .tags(["3"])),
        ("3", .tags(["3"])), ("\"1\", W/\"2\" ,3", .tags(["1", "2", "3"])), ("", .tags([])), ("\"\"", .tags([])),
    ] as [(String, IfMatch)])
    func ifMatchIsReadInEverySDKsSpelling(header: String, expected: IfMatch) {
        #expect(IfMatch(header) == expected)
    }

    @Test func ifMatchMatchesTheCurrentETagOnly() {
        #expect(IfMatch(nil) == nil)
        #expect(IfMatch("*")?.matches(etag: 7) == true)
        #expect(IfMatch("W/\"7\"")?.matches(etag: 7) == true)
        #expect(IfMatch("\"6\"")?.matches(etag: 7) == false)
        #expect(IfMatch("")?.matches(etag: 7) == false)
    }

    // MARK: Send status

    @Test func sendsAnswer200WhenSetAsTheReferencePagesSayAndDirectSendsStay201() {
        let w = world({ $0.sendAcceptedStatus = .ok }, services: true)
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "", tags: ["t"])
        #expect(w.send(format: "apple", body: Payload.apple, tags: "t")?.status == 200)
        #expect(w.send(format: "template", body: "{\"m\":\"x\"}", tags: "t")?.status == 200)
        let test = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("test", "")],
                         headers: [("ServiceBusNotification-Format", "apple")], body: Array(Payload.apple.utf8))
        #expect(test?.status == 200)
        let direct = w.raw("POST", w.path("messages/"), query: [("api-version", "2015-01"), ("direct", "")],
                           headers: [("ServiceBusNotification-Format", "apple"), ("ServiceBusNotification-DeviceHandle", iphone.handle ?? "")],
                           body: Array(Payload.apple.utf8))
        #expect(direct?.status == 201)
    }

    @Test func theClientTakes200Or201LikeTheSDK() {
        for status in SendAcceptedStatus.allCases {
            let w = world({ $0.sendAcceptedStatus = status }, services: true)
            let iphone = TestDevice.iPhone(w, "iphone")
            w.register(.apple, iphone.handle ?? "", tags: ["t"])
            let outcome = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["t"], $0) }
            #expect(outcome == .success(NotificationOutcome(state: .enqueued, notificationID: w.ntf(1), trackingID: nil, httpStatus: status.rawValue)), "\(status)")
            let template = w.wait { w.client.sendTemplateNotification(properties: [("m", "x")], tagExpression: "t", $0) }
            guard case .success? = template else { Issue.record("template send failed with \(status)"); continue }
            w.client.enableTestSend = true
            let test = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["t"], $0) }
            guard case .success(let outcome)? = test else { Issue.record("test send failed with \(status)"); continue }
            #expect(outcome.success == 1)
            #expect(iphone.pushes.count == 2)
        }
    }

    // MARK: If-Match without a registration

    @Test func ifMatchWithoutARegistrationCanBe412() {
        let w = world { $0.ifMatchWithoutRegistration = .preconditionFailed }
        let id = w.createID()
        let r = w.raw("PUT", w.path("registrations/\(id)"), headers: [("If-Match", "*")],
                      body: AtomRegistration.requestBody(RegistrationDescription(platform: .apple, handle: Self.token)))
        #expect(r?.status == 412)
        #expect(w.hub.registrationCount == 0)
    }

    // MARK: Delete without If-Match

    @Test func aDeleteWithoutIfMatchCanBe412() {
        let w = world { $0.deleteWithoutIfMatch = .preconditionFailed }
        let id = w.register(.apple, Self.token)
        let r = w.raw("DELETE", w.path("registrations/\(id)"))
        #expect(r?.status == 412)
        #expect(w.detail(r) == "ETag header missing or invalid.")
        #expect(w.exists(id))
        // The client sends If-Match: * as the SDK does.
        guard case .success? = w.wait({ w.client.deleteRegistration(id, $0) }) else { Issue.record("delete failed"); return }
        #expect(!w.exists(id))
    }

    // MARK: APNs payloads

    @Test func anInvalidAPNsPayloadCanBePassedToAPNs() {
        let w = world({ $0.invalidAPNsPayload = .passedToAPNs }, services: true)
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "", tags: ["t"])
        #expect(w.send(format: "apple", body: "not json", tags: "t")?.status == 201)
        #expect(w.hubRequests(authority: "api.push.apple.com").map { String(decoding: $0.request.body, as: UTF8.self) } == ["not json"])
    }

    // MARK: APNs provider tokens

    /// A token kept past an hour meets the real APNs fake's 403 ExpiredProviderToken; the hub
    /// mints a new one and the copy goes through. Kept under 20 minutes: 429, not retried.
    @Test func providerTokenRenewalDecidesWhatAPNsAnswers() {
        func reasons(_ renewal: VirtualDuration, secondSendAfter gap: VirtualDuration) -> [String] {
            let w = world({ $0.apnsProviderTokenRenewal = renewal }, services: true)
            let iphone = TestDevice.iPhone(w, "iphone")
            w.register(.apple, iphone.handle ?? "", tags: ["t"])
            _ = w.send(format: "apple", body: Payload.apple, tags: "t")
            w.advance(gap)
            _ = w.send(format: "apple", body: Payload.apple, tags: "t")
            return w.hubRequests(authority: "api.push.apple.com").map { entry in
                let status = entry.result?.status ?? 0
                return status == 200 ? "200" : "\(status) \((try? JSONParser.parse(entry.result?.response?.body ?? []))?["reason"]?.stringValue ?? "")"
            }
        }
        #expect(reasons(.minutes(50), secondSendAfter: .minutes(90)) == ["200", "200"])
        #expect(reasons(.hours(2), secondSendAfter: .minutes(90)) == ["200", "403 ExpiredProviderToken", "200"])
        #expect(reasons(.minutes(10), secondSendAfter: .minutes(15)) == ["200", "429 TooManyProviderTokenUpdates"])
    }

    // MARK: The client's update and delete with an ETag

    @Test func updateRegistrationSendsTheQuotedETagAndFailsWhenStale() throws {
        let w = HubWorld(services: false)
        let id = w.register(.apple, Self.token, tags: ["a"])
        guard case .success(var read)? = w.wait({ w.client.getRegistration(id, $0) }) else { Issue.record("read failed"); return }
        #expect(read.etag == "1")
        read.tags = ["b"]
        guard case .success(let updated)? = w.wait({ w.client.updateRegistration(read, $0) }) else { Issue.record("update failed"); return }
        #expect(updated.etag == "2")
        #expect(updated.tags == ["b"])
        let sent = try #require(w.world.journal.entries.last { $0.to == NotificationHub.name && $0.request.method == "PUT" }?.request)
        #expect(sent.headers["If-Match"] == "\"1\"")
        // The same description again: its ETag (1) is stale now.
        let stale = w.wait { w.client.updateRegistration(read, $0) }
        #expect(stale == .failure(HubError(kind: .messaging, status: 412,
                                           detail: "Precondition failed. The current version of the registration does not have the specified ETag.")))
        // No ETag: the SDK throws before sending anything.
        read.etag = nil
        let refused = w.wait { w.client.updateRegistration(read, $0) }
        if case .failure(let e)? = refused { #expect(e.kind == .argument && e.status == nil) } else { Issue.record("expected a refusal") }
        // Delete with a stale ETag, then with the current one.
        let staleDelete = w.wait { w.client.deleteRegistration(id, etag: "1", $0) }
        if case .failure(let e)? = staleDelete { #expect(e.status == 412) } else { Issue.record("expected 412") }
        guard case .success? = w.wait({ w.client.deleteRegistration(id, etag: "2", $0) }) else { Issue.record("delete failed"); return }
        #expect(!w.exists(id))
    }
}

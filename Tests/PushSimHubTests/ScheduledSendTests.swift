import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// Scheduled sends and their cancellation (Citations §4.6; NH-REST, NH-DOTNET).
@Suite("Hub scheduled sends")
struct ScheduledSendTests {
    private func schedule(_ w: HubWorld, in delay: VirtualDuration, tags: String? = "sports",
                          payload: NotificationPayload = .apple(Payload.apple)) -> ScheduledNotification? {
        guard case .success(let s)? = w.soon({ w.client.scheduleNotification(payload, at: w.world.now + delay, tagExpression: tags, $0) }) else {
            Issue.record("scheduling failed")
            return nil
        }
        return s
    }

    /// Must-show: scheduled for two hours ahead, it arrives two hours ahead, not before; the
    /// cancelled one never arrives.
    @Test func aScheduledSendArrivesAtItsTimeAndACancelledOneNever() throws {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "", tags: ["sports"])
        let start = w.world.now
        let kept = try #require(schedule(w, in: .hours(2)))
        let cancelled = try #require(schedule(w, in: .hours(2), payload: .apple(#"{"aps":{"alert":"never"}}"#)))
        #expect(kept.scheduledNotificationID == w.ntf(1) && cancelled.scheduledNotificationID == w.ntf(2))
        #expect(kept.scheduledTime == String(w.world.anchor.iso8601(start + .hours(2)).dropLast()))
        guard case .success? = w.soon({ w.client.cancelNotification(cancelled.scheduledNotificationID, $0) }) else {
            Issue.record("cancel failed"); return
        }
        #expect(w.details(kept.scheduledNotificationID)?.state == .scheduled)
        #expect(w.details(cancelled.scheduledNotificationID)?.state == .cancelled)
        // The schedule time travels in whole seconds (yyyy-MM-ddTHH:mm:ss): due at that second.
        let anchor = w.world.anchor
        let due = anchor.virtualTime(unixSeconds: anchor.unixSeconds(start + .hours(2)))
        #expect(due - start > .hours(2) + .seconds(-1))
        w.world.run(until: due + .milliseconds(-1))
        #expect(iphone.pushes.isEmpty)
        #expect(w.events("hub.scheduled-fired").isEmpty)
        w.advance(.hours(1))
        #expect(iphone.pushes.map(\.body) == [Payload.apple])
        // The device has it a few link latencies after the scheduled second.
        let arrival = try #require(iphone.pushes.first?.time)
        #expect(arrival > due && arrival < due + .seconds(1))
        #expect(w.events("hub.scheduled-fired").first?.time == due)
        #expect(w.events("hub.scheduled").count == 2)
        #expect(w.events("hub.scheduled-cancelled").map { $0[.notification]?.description } == [w.ntf(2)])
        #expect(w.events("hub.scheduled-fired").map { $0[.notification]?.description } == [w.ntf(1)])
        #expect(w.details(kept.scheduledNotificationID)?.state == .completed)
        #expect(w.details(cancelled.scheduledNotificationID)?.state == .cancelled)
        #expect(w.hub.leftovers(world: w.world).isEmpty)
    }

    @Test func theSendGoesToWhatMatchesAtItsTime() {
        let w = HubWorld()
        let early = TestDevice.iPhone(w, "early"), late = TestDevice.iPhone(w, "late")
        w.register(.apple, early.handle ?? "", tags: ["sports"])
        _ = schedule(w, in: .minutes(10))
        // Registered after the send was scheduled, before it fires (within a second: `register` would run the clock out).
        guard case .success(let id)? = w.soon({ w.client.createRegistrationId($0) }) else { Issue.record("no id"); return }
        _ = w.soon { w.client.createOrUpdateRegistration(RegistrationDescription(platform: .apple, handle: late.handle ?? "", tags: ["sports"],
                                                                                   registrationID: id), $0) }
        #expect(early.pushes.isEmpty)
        w.advance(.minutes(11))
        #expect(early.pushes.count == 1 && late.pushes.count == 1)
    }

    @Test func aPendingScheduledSendIsALeftover() {
        let w = HubWorld(services: false)
        _ = schedule(w, in: .days(1))
        #expect(w.hub.leftovers(world: w.world).map(\.line) == ["scheduled notification \(w.ntf(1)) not sent yet (due at 1+00:00:00.000)"])
    }

    @Test func cancellingTwiceOrAfterTheSendIs404() {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.register(.apple, iphone.handle ?? "", tags: ["sports"])
        let s = schedule(w, in: .minutes(5))
        w.advance(.minutes(6))
        let late = w.raw("DELETE", w.path("schedulednotifications/\(s?.scheduledNotificationID ?? "")"))
        #expect(late?.status == 404)
        #expect(w.detail(late) == "No scheduled notification \(w.ntf(1)) is waiting to be sent.")
        guard case .failure(let e)? = w.wait({ w.client.cancelNotification("NH-20000101000000000-00000000000000000000000000000000-00", $0) }) else { Issue.record("expected 404"); return }
        #expect(e.kind == .entityNotFound)
        #expect(iphone.pushes.count == 1)
    }

    @Test(arguments: [
        (nil, "The ServiceBusNotification-ScheduleTime header is required."),
        ("tomorrow", "The ServiceBusNotification-ScheduleTime 'tomorrow' is not a UTC time (yyyy-MM-ddTHH:mm:ss)."),
        ("2026-13-01T00:00:00", "The ServiceBusNotification-ScheduleTime '2026-13-01T00:00:00' is not a UTC time (yyyy-MM-ddTHH:mm:ss)."),
    ] as [(String?, String)])
    func badScheduleTimesAre400(time: String?, detail: String) {
        let w = HubWorld(services: false)
        var headers = [("ServiceBusNotification-Format", "apple")]
        if let time { headers.append(("ServiceBusNotification-ScheduleTime", time)) }
        let r = w.raw("POST", w.path("schedulednotifications/"), headers: headers, body: Array(Payload.apple.utf8))
        #expect(r?.status == 400)
        #expect(w.detail(r) == detail)
        #expect(w.events("hub.scheduled").isEmpty)
    }

    @Test func aScheduledSendIsCheckedWhenScheduled() {
        let w = HubWorld(services: false)
        let r = w.raw("POST", w.path("schedulednotifications/"),
                      headers: [("ServiceBusNotification-Format", "gcm"), ("ServiceBusNotification-ScheduleTime", "2026-01-02T00:00:00")],
                      body: Array(Payload.apple.utf8))
        #expect(r?.status == 400)
        #expect(w.detail(r) == "FCM legacy (gcm) notifications are no longer supported; send with the fcmv1 format.")
    }

    @Test func aTimeInThePastFiresAtOnceAndTemplatesCanBeScheduled() {
        let w = HubWorld()
        let iphone = TestDevice.iPhone(w, "iphone")
        w.registerTemplate(.apple, iphone.handle ?? "", body: Payload.appleTemplate, tags: ["sports"])
        w.advance(.hours(1))
        let r = w.raw("POST", w.path("schedulednotifications"),
                      headers: [("ServiceBusNotification-Format", "template"), ("ServiceBusNotification-ScheduleTime", "2026-01-01T00:00:00"),
                                ("ServiceBusNotification-Tags", "sports")],
                      body: Array(#"{"message":"late"}"#.utf8))
        #expect(r?.status == 201)
        #expect(r?.headers["Location"]?.contains("/schedulednotifications/\(w.ntf(1))?") == true)
        #expect(iphone.pushes.first?.body.contains("\"late\"") == true)
        #expect(w.events("hub.template-send").count == 1)
    }
}

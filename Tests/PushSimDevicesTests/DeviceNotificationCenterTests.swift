import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimDevices
import PushSimScenario

/// What the device keeps on screen: collapse ids, badge and sound, the background-push budget,
/// and FCM's deleted-messages notice.
@Suite("Device notification center")
struct DeviceNotificationCenterTests {
    /// One installed device of `platform`; `pushes` are (time in seconds, payload, headers).
    private func run(_ platform: DevicePlatform, _ pushes: [(Int64, String, [(String, String)])],
                     configure: (Device) -> Void = { _ in }) -> (Simulation, Device) {
        let sim = Simulation(seed: 1)
        let device = sim.addDevice("dev", platform)
        configure(device)
        sim.at(t(1), "install") { device.install() }
        for (time, payload, headers) in pushes { sim.push(payload, to: device, headers: headers, at: t(time)) }
        sim.run()
        return (sim, device)
    }

    private func alert(_ text: String) -> String { #"{"aps":{"alert":"\#(text)"}}"# }
    private static let background: [(String, String)] = [("apns-push-type", "background"), ("apns-priority", "5")]
    private static let silent = #"{"aps":{"content-available":1}}"#

    // MARK: apns-collapse-id (§1.9, A-SEND)

    @Test func newerNotificationWithTheSameCollapseIdReplacesTheShownOne() throws {
        let (sim, phone) = run(.ios, [(5, alert("1-0"), [("apns-collapse-id", "score")]),
                                      (6, alert("lunch?"), []),
                                      (7, alert("2-0"), [("apns-collapse-id", "score")])])
        #expect(phone.displayed.map(\.text) == ["lunch?", "2-0"])
        #expect(shown(phone) == ["1-0", "lunch?", "2-0"]) // the inbox keeps the history
        let replaced = try #require(phone.inbox.first)
        #expect(replaced.isReplaced && replaced.replacedAt == t(7) + .milliseconds(10))
        #expect(replaced.collapseID == "score")
        #expect(!phone.inbox[1].isReplaced && !phone.inbox[2].isReplaced)
        let event = try #require(sim.events("notification.replaced", on: "dev").first)
        #expect(event[.text] == "1-0" && event[.collapseID] == "score")
    }

    @Test func onlyTheNewestOfManyIsDisplayed() {
        let (_, phone) = run(.ios, (5..<10).map { ($0, alert("minute \($0)"), [("apns-collapse-id", "clock")]) })
        #expect(phone.displayed.map(\.text) == ["minute 9"])
        #expect(phone.inbox.filter(\.isReplaced).count == 4)
    }

    @Test func withoutACollapseIdNothingIsReplaced() {
        let (sim, phone) = run(.ios, [(5, alert("a"), []), (6, alert("a"), [])])
        #expect(phone.displayed.map(\.text) == ["a", "a"])
        #expect(sim.events("notification.replaced").isEmpty)
    }

    // MARK: badge and sound (§1.11, A-GEN)

    @Test func alertWithBadgeAndSound() throws {
        let (sim, phone) = run(.ios, [(5, #"{"aps":{"alert":"Hi","badge":4,"sound":"ping.caf"}}"#, [])])
        let n = try #require(phone.inbox.first)
        #expect(n.text == "Hi" && n.badge == 4 && n.sound == "ping.caf")
        #expect(phone.badge == 4)
        let event = try #require(sim.events("notification.shown", on: "dev").first)
        #expect(event.fields.map(\.key.name) == ["service", "text", "badge", "sound"])
        #expect(event[.badge] == .int(4) && event[.sound] == "ping.caf")
    }

    @Test func soundDictionaryGivesItsName() {
        let (_, phone) = run(.ios, [(5, #"{"aps":{"alert":"Wake up","sound":{"critical":1,"name":"alarm.caf","volume":1.0}}}"#, [])])
        #expect(phone.inbox.first?.sound == "alarm.caf")
        #expect(phone.inbox.first?.badge == nil)
    }

    @Test func plainAlertTracesExactlyAsBefore() {
        let (sim, phone) = run(.ios, [(5, alert("Hello"), [])])
        #expect(phone.inbox.first?.badge == nil && phone.inbox.first?.sound == nil && phone.badge == nil)
        #expect(sim.events("notification.shown", on: "dev").first?.fields.map(\.key.name) == ["service", "text"])
    }

    @Test func badgeOnlyUpdatesTheBadgeAndShowsNothing() {
        let (sim, phone) = run(.ios, [(5, #"{"aps":{"alert":"x","badge":3}}"#, []), (6, #"{"aps":{"badge":0}}"#, [])])
        #expect(shown(phone) == ["x"])
        #expect(phone.badge == nil) // 0 clears the badge: none shows
        #expect(sim.events("app.badge-updated", on: "dev").map { $0[.badge] } == [.int(3), .int(0)])
        #expect(sim.events("notification.dropped", on: "dev").isEmpty)
    }

    @Test func windowsBadgeAndToastAudio() {
        let toast = #"<toast><visual><binding template="ToastGeneric"><text>Hi</text></binding></visual><audio src="ms-winsoundevent:Notification.IM"/></toast>"#
        let quiet = #"<toast><visual><binding template="ToastGeneric"><text>Shh</text></binding></visual><audio src="ms-winsoundevent:Notification.IM" silent="true"/></toast>"#
        let (_, pc) = run(.windows, [(5, #"<badge value="7"/>"#, [("X-WNS-Type", "wns/badge")]),
                                     (6, toast, [("X-WNS-Type", "wns/toast")]),
                                     (7, quiet, [("X-WNS-Type", "wns/toast")])])
        #expect(pc.badge == 7)
        #expect(pc.inbox.map(\.sound) == ["ms-winsoundevent:Notification.IM", nil])
    }

    // MARK: background pushes (§1.10, A-BG, PINPOINT)

    @Test func theOSWakesTheAppForAtMostThreeBackgroundPushesAnHour() {
        // A sliding hour: at 3 700 s the wakes at 5 s and 60 s are more than an hour old; at
        // 3 710 s the three of 120 s, 3 605 s and 3 700 s fill it.
        let times: [Int64] = [5, 60, 120, 180, 240, 3_605, 3_700, 3_710]
        let (sim, phone) = run(.ios, times.map { ($0, Self.silent, Self.background) })
        let woken = sim.events("app.woken", on: "dev").map(\.time)
        #expect(woken == [5, 60, 120, 3_605, 3_700].map { t($0) + .milliseconds(10) })
        let dropped = sim.events("notification.dropped", on: "dev")
        #expect(dropped.map(\.time) == [180, 240, 3_710].map { t($0) + .milliseconds(10) })
        #expect(dropped.allSatisfy { $0[.reason] == "the OS throttles background pushes: more than 3 per 1h would wake the app" })
        #expect(phone.inbox.isEmpty)
    }

    @Test func contentAvailableAloneCountsAsBackgroundToo() {
        let (sim, _) = run(.ios, (5..<10).map { ($0, Self.silent, []) })
        #expect(sim.events("app.woken", on: "dev").count == 3)
        #expect(sim.events("notification.dropped", on: "dev").count == 2)
    }

    @Test func alertsDoNotUseTheBackgroundBudget() {
        let (sim, phone) = run(.ios, (5..<10).map { ($0, alert("n\($0)"), []) } + [(20, Self.silent, Self.background)])
        #expect(phone.inbox.count == 5)
        #expect(sim.events("app.woken", on: "dev").count == 1)
    }

    @Test(arguments: [1, 5])
    func theBudgetIsConfigurable(limit: Int) {
        let (sim, _) = run(.ios, (5..<11).map { ($0, Self.silent, Self.background) }) {
            $0.backgroundPushLimit = RateLimit(limit, per: .hours(1))
        }
        #expect(sim.events("app.woken", on: "dev").count == limit)
        let (unlimited, _) = run(.ios, (5..<11).map { ($0, Self.silent, Self.background) }) { $0.backgroundPushLimit = nil }
        #expect(unlimited.events("app.woken", on: "dev").count == 6)
    }

    @Test func backgroundPushWithoutContentAvailableIsDiscarded() {
        let (sim, _) = run(.ios, [(5, #"{"aps":{},"sync":"1"}"#, Self.background)])
        #expect(sim.events("app.woken").isEmpty)
        #expect(sim.events("notification.dropped", on: "dev").first?[.reason]?.description.hasPrefix("device discarded") == true)
    }

    // MARK: FCM onDeletedMessages (§2.5, F-COLL)

    @Test func deletedMessagesNoticeRunsOnDeletedMessages() {
        let notice = #"{"message_type":"deleted_messages"}"#
        let (sim, android) = run(.android, [(5, notice, [(DeviceChannel.eventHeader, "deleted_messages")]),
                                            (6, notice, [])]) // a provider's message with that body is only data
        #expect(android.deletedMessagesNotices == 1)
        #expect(android.inbox.isEmpty)
        #expect(sim.events("app.messages-deleted", on: "dev").count == 1)
        #expect(sim.events("app.data-received", on: "dev").count == 1)
    }

    @Test func fcmOverflowReachesTheAppThroughTheWholeChain() {
        let sim = Simulation(seed: 1)
        let alice = sim.addDevice("alice-iphone", .ios)
        let android = sim.addDevice("bob-android", .android)
        sim.installAndLogIn(alice, as: "alice", at: t(1))
        sim.installAndLogIn(android, as: "bob", at: t(3))
        sim.at(t(10), "offline") { android.goOffline() }
        for n in 0...100 { sim.at(t(20 + Int64(n)), "send \(n)") { alice.send("m\(n)", to: "bob", via: [.fcm]) } }
        sim.at(t(200), "online") { android.goOnline() }
        sim.run()
        #expect(android.deletedMessagesNotices == 1)
        #expect(shown(android) == ["From alice: m100"])
        #expect(sim.events("app.messages-deleted", on: "bob-android").first.map { $0.time >= t(200) } == true)
    }
}

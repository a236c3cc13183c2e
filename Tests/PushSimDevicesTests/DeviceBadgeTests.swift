import Testing
import PushSimKernel
import PushSimNetwork
import PushSimDevices
import PushSimScenario

/// The app icon's badge: numbers, Windows glyphs and `none` (W-BADGE), 0 clearing it on iOS
/// (A-GEN); and a raw WNS notification, which goes to the app and leaves the badge alone (W-RAW).
/// Issue 41: glyphs and `none` were ignored, and `aps.badge` 0 left a badge of 0.
@Suite("Device badges")
struct DeviceBadgeTests {
    /// One installed device of `platform`; `pushes` are (time in seconds, payload, headers).
    private func run(_ platform: DevicePlatform, _ pushes: [(Int64, String, [(String, String)])]) -> (Simulation, Device) {
        let sim = Simulation(seed: 1)
        let device = sim.addDevice("dev", platform)
        sim.at(t(1), "install") { device.install() }
        for (time, payload, headers) in pushes { sim.push(payload, to: device, headers: headers, at: t(time)) }
        sim.run()
        return (sim, device)
    }

    private static let badge = [("X-WNS-Type", "wns/badge")]
    private func badge(_ value: String) -> String { #"<badge value="\#(value)"/>"# }

    @Test(arguments: BadgeGlyph.allCases)
    func aWindowsGlyphReplacesTheNumber(glyph: BadgeGlyph) {
        let (sim, pc) = run(.windows, [(5, badge("7"), Self.badge), (6, badge(glyph.rawValue), Self.badge)])
        #expect(pc.badge == .glyph(glyph))
        #expect(sim.events("app.badge-updated", on: "dev").map { $0[.badge] } == [.int(7), .string(glyph.rawValue)])
    }

    @Test(arguments: ["none", "0"])
    func noneAndZeroClearAWindowsBadge(value: String) {
        let (sim, pc) = run(.windows, [(5, badge("alert"), Self.badge), (6, badge(value), Self.badge)])
        #expect(pc.badge == nil)
        #expect(sim.events("app.badge-updated", on: "dev").count == 2)
    }

    @Test(arguments: ["blinking", "Alert", "", "3.5"])
    func aValueTheSchemaDoesNotHaveLeavesTheBadgeAlone(value: String) {
        let (sim, pc) = run(.windows, [(5, badge("4"), Self.badge), (6, badge(value), Self.badge)])
        #expect(pc.badge == 4)
        #expect(sim.events("app.badge-updated", on: "dev").count == 1)
        #expect(sim.events("app.updated", on: "dev").count == 2)
    }

    @Test func zeroClearsAnIOSBadge() {
        let (sim, phone) = run(.ios, [(5, #"{"aps":{"badge":3}}"#, []), (6, #"{"aps":{"badge":0}}"#, [])])
        #expect(phone.badge == nil)
        #expect(sim.events("app.badge-updated", on: "dev").map { $0[.badge] } == [.int(3), .int(0)])
    }

    @Test(arguments: ["count=3", #"<badge value="9"/>"#])
    func aRawNotificationGoesToTheAppShowsNothingAndLeavesTheBadge(body: String) throws {
        let (sim, pc) = run(.windows, [(5, badge("2"), Self.badge), (6, body, [("X-WNS-Type", "wns/raw")])])
        #expect(pc.inbox.isEmpty)
        #expect(pc.badge == 2)
        let received = try #require(sim.events("app.data-received", on: "dev").first)
        #expect(received[.type] == "wns/raw" && received[.service] == "wns")
        #expect(sim.events("notification.dropped", on: "dev").isEmpty)
    }

    @Test func settingsReadFromText() {
        #expect(AppBadge.setting("none") == .clear && AppBadge.setting("0") == .clear)
        #expect(AppBadge.setting("12") == .show(12) && AppBadge.setting("newMessage") == .show(.glyph(.newMessage)))
        #expect(AppBadge.setting("newmessage") == nil && AppBadge.setting("x") == nil)
        #expect(AppBadge.glyph(.attention).description == "attention" && AppBadge.number(150).description == "150")
    }
}

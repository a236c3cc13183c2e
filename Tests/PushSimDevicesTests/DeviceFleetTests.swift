import Testing
import PushSimKernel
import PushSimNetwork
import PushSimServices
import PushSimHub
@testable import PushSimDevices
import PushSimScenario

/// Device fleets: many compact devices behind one host, each talking to its push service over
/// the device channel like a ``Device``.
@Suite("Device fleets")
struct DeviceFleetTests {
    /// A fleet of `count` members whose handles are bulk-imported into the hub as they arrive.
    private func fleet(_ platform: DevicePlatform, count: Int, seed: UInt64 = 1) -> (Simulation, DeviceFleet, [String]) {
        let sim = Simulation(seed: seed)
        let fleet = sim.addFleet("fleet", platform, count: count)
        var handles = Array(repeating: "", count: count)
        fleet.onHandle = { member, handle in handles[member] = handle }
        sim.at(.zero) { fleet.installAll() }
        sim.run()
        let registration: RegistrationPlatform = platform == .ios ? .apple : platform == .android ? .fcmV1 : .windows
        let descriptions = handles.enumerated().map { RegistrationDescription(platform: registration, handle: $1, tags: ["username:m\($0)"]) }
        guard case .success = sim.hub.importRegistrations(descriptions, world: sim.world) else {
            Issue.record("import failed")
            return (sim, fleet, handles)
        }
        return (sim, fleet, handles)
    }

    private func broadcast(_ sim: Simulation, _ platform: DevicePlatform) {
        let (format, payload): (String, String) = switch platform {
        case .ios: ("apple", #"{"aps":{"alert":"hi"}}"#)
        case .android: ("fcmv1", #"{"message":{"data":{"m":"hi"}}}"#)
        case .windows: ("windows", #"<toast><visual><binding template="ToastText01"><text id="1">hi</text></binding></visual></toast>"#)
        }
        sim.at(sim.world.now + .seconds(1)) { sim.operatorConsole.send(format: format, payload: payload, tagExpression: nil) }
        sim.run()
    }

    @Test(arguments: DevicePlatform.allCases)
    func everyMemberGetsItsOwnHandleAndTheBroadcast(_ platform: DevicePlatform) {
        let (sim, fleet, handles) = fleet(platform, count: 25)
        #expect(Set(handles).count == 25)
        #expect(!handles.contains(""))
        broadcast(sim, platform)
        #expect(fleet.received == Array(repeating: 1, count: 25))
        #expect(fleet.membersReached == 25)
        #expect(sim.world.leftovers().isEmpty)
    }

    /// An uninstalled member refuses the push with 410; APNs then reports the token dead and the
    /// hub's feedback deletes its registration; the others still receive it.
    @Test func anUninstalledMemberIsFoundOutAndItsRegistrationRemoved() {
        let (sim, fleet, _) = fleet(.ios, count: 5)
        fleet.uninstall(3)
        broadcast(sim, .ios)   // APNs accepts, the device refuses: the token is now known dead
        broadcast(sim, .ios)   // the next send gets 410 Unregistered; the hub deletes the registration
        #expect(fleet.received == [2, 2, 2, 0, 2])
        #expect(fleet.refused == 1)
        #expect(sim.hub.liveRegistrations(now: sim.world.now) == 4)
        #expect(sim.world.trace.events.contains { $0.kind.name == "hub.registration-deleted" })
    }

    /// A member offline when the broadcast goes out gets it when it comes back (APNs kept it).
    @Test func anOfflineMemberGetsTheKeptNotificationOnReconnecting() {
        let (sim, fleet, _) = fleet(.ios, count: 3)
        fleet.goOffline(1)
        broadcast(sim, .ios)
        #expect(fleet.received == [1, 0, 1])
        sim.at(sim.world.now + .seconds(5)) { fleet.goOnline(1) }
        sim.run()
        #expect(fleet.received == [1, 1, 1])
    }

    /// A reinstalled member gets a new handle; a push to the old one is refused.
    /// Installing in waves gives every member the handle it gets installing all at once.
    @Test func installingInWavesGivesTheSameHandles() {
        let (_, _, atOnce) = fleet(.android, count: 25)
        let sim = Simulation(seed: 1)
        let waves = sim.addFleet("fleet", .android, count: 25)
        var handles = Array(repeating: "", count: 25)
        waves.onHandle = { member, handle in handles[member] = handle }
        for (k, start) in stride(from: 0, to: 25, by: 10).enumerated() {
            sim.at(.zero + .seconds(Int64(k))) { waves.install(members: start..<(start + 10)) }
        }
        sim.at(.zero + .seconds(5)) { waves.install(members: 20..<40) }   // clamped; nothing new
        sim.run()
        #expect(handles == atOnce)
        #expect((0..<25).allSatisfy(waves.isInstalled))
    }

    @Test func aReinstallGivesANewHandle() {
        let (sim, fleet, handles) = fleet(.android, count: 2)
        var renewed: [Int: String] = [:]
        fleet.onHandle = { renewed[$0] = $1 }
        fleet.uninstall(0)
        sim.at(sim.world.now + .seconds(1)) { fleet.install(0) }
        sim.run()
        #expect(renewed[0] != nil && renewed[0] != handles[0])
        #expect(fleet.isInstalled(0))
    }

    @Test func sameSeedSameHandlesAcrossRuns() {
        let a = fleet(.windows, count: 4, seed: 7).2
        let b = fleet(.windows, count: 4, seed: 7).2
        let c = fleet(.windows, count: 4, seed: 8).2
        #expect(a == b)
        #expect(a != c)
    }
}

@Suite("Device fleet handle digests")
struct DeviceFleetDigestTests {
    @Test func digestsAreNonZeroStableAndDistinct() {
        var seen = Set<UInt64>()
        var random = SeededRandom(seed: 3)
        for length in [0, 1, 7, 8, 9, 64, 152, 163] {
            for _ in 0..<200 {
                let handle = random.string(count: length, from: "abcdef0123456789:APA-_")
                let d = DeviceFleet.digest(handle)
                #expect(d != 0)
                #expect(d == DeviceFleet.digest(String(decoding: Array(handle.utf8), as: UTF8.self)))
                seen.insert(d)
            }
        }
        // Lengths 0 and 1 cannot give 200 distinct handles; the rest practically always do.
        #expect(seen.count > 6 * 200)
        #expect(DeviceFleet.digest("ab") != DeviceFleet.digest("ba"))
        #expect(DeviceFleet.digest(String(repeating: "a", count: 16)) != DeviceFleet.digest(String(repeating: "a", count: 17)))
    }
}

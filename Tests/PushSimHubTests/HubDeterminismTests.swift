import PushSimKernel
import PushSimNetwork
import PushSimServices
@testable import PushSimHub
import Testing

/// The same seed gives the same trace, byte for byte, through every new hub feature: installations
/// and patches, template, direct, batch, scheduled and test sends, feedback and telemetry (design
/// rules 3, 7, 15).
@Suite("Hub determinism")
struct HubDeterminismTests {
    /// Runs a fixed story on `seed` and returns the whole trace as JSON lines.
    static func story(seed: UInt64) -> (trace: String, hub: [TraceEvent]) {
        let w = HubWorld(seed: seed)
        let phones = (1...3).map { TestDevice.iPhone(w, "iphone\($0)") }
        let android = TestDevice.android(w, "android"), pc = TestDevice.windows(w, "pc")
        w.register(.apple, phones[0].handle ?? "", tags: ["sports", "news"])
        w.registerTemplate(.fcmV1, android.handle ?? "", body: Payload.fcmTemplate, tags: ["sports"])
        w.registerTemplate(.windows, pc.handle ?? "", body: Payload.toastTemplate, tags: ["news"])
        for (k, name) in ["zeta", "alpha", "mid"].enumerated() {
            w.install(Installation(installationID: name, platform: .apple, pushChannel: phones[k % 3].handle ?? "", tags: ["sports"],
                                   templates: ["b": InstallationTemplate(body: Payload.appleTemplate), "a": InstallationTemplate(body: Payload.appleTemplate, tags: ["x"])],
                                   userID: "user-\(k)"))
        }
        _ = w.patch("mid", [InstallationPatchOperation(.add, "/tags", ["news", "extra"]), InstallationPatchOperation(.remove, "/templates/b")])
        _ = w.send(format: "apple", body: Payload.apple, tags: "sports || news")
        _ = w.sendTemplate([("message", "Hello"), ("title", "T"), ("badge", "2")], tags: "sports || news || x")
        _ = w.wait { w.client.sendDirectNotification(.apple(Payload.apple), deviceHandles: phones.map { $0.handle ?? "" }, $0) }
        _ = w.soon { w.client.scheduleNotification(.template([("message", "later")]), at: w.world.now + .hours(2), tagExpression: "sports", $0) }
        phones[2].installed = false
        w.client.enableTestSend = true
        _ = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["sports"], $0) }
        _ = w.wait { w.client.sendAppleNativeNotification(Payload.apple, tags: ["sports"], $0) }
        w.client.enableTestSend = false
        w.world.run()
        _ = w.details(w.ntf(2))
        _ = w.wait { w.client.getPnsFeedback($0) }
        return (TraceFormat.jsonLines(w.world.trace.events), w.world.trace.events.filter { $0.layer == "hub" })
    }

    @Test func theSameSeedGivesTheSameTraceTwice() {
        let a = Self.story(seed: 7), b = Self.story(seed: 7)
        #expect(a.trace == b.trace)
        #expect(a.trace.count > 10_000)
        // The story does reach every new step.
        let kinds = Set(a.hub.map(\.kind))
        for kind in ["hub.installation-upserted", "hub.installation-patched", "hub.template-send", "hub.direct-send", "hub.scheduled",
                     "hub.scheduled-fired", "hub.test-send", "hub.test-send-result", "hub.installation-channel-expired", "hub.notification-outcome"] {
            #expect(kinds.contains(TraceKind(kind)), "\(kind) missing")
        }
    }

    /// A golden digest of the hub's own events. Each test run is a new process with a new hash
    /// seed, so a behaviour or output that depended on Dictionary or Set order would change it.
    /// After a deliberate change to the hub's traces, replace the digest with the one printed.
    @Test func theHubTraceMatchesItsGoldenDigest() {
        let lines = Self.story(seed: 7).hub.map { TraceFormat.timelineLine($0) }
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a, 64 bits
        for byte in lines.joined(separator: "\n").utf8 { digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(digest, radix: 16)
        #expect(hex == Self.golden, "hub trace digest \(hex) (\(lines.count) events):\n\(lines.prefix(400).joined(separator: "\n"))")
    }

    static let golden = "28ef0f0796599f16"
}

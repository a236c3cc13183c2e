import Testing
import PushSimKernel
import PushSimNetwork
import PushSimDevices
import PushSimScenario

/// Recording a shown notification must append to the trace, not copy it: a copy per event made
/// a run's cost grow with the square of its length (10,000 devices and one broadcast took 499 s
/// in a debug build).
@Suite("Trace append cost")
struct TraceAppendCostTests {
    @Test func showingNotificationsAppendsToTheTraceInPlace() {
        let sim = Simulation(seed: 1)
        let phone = sim.addDevice("phone", .android)
        sim.at(t(1), "install") { phone.install() }
        let pushes: Int64 = 1_000
        var storageChanges = 0
        var lastStorage: UnsafeRawPointer?
        for i in 0..<pushes {
            sim.push(#"{"notification":{"body":"n\#(i)"}}"#, to: phone, at: t(10 + i))
            // Half a second after each push has been shown, note where the trace's events live.
            sim.at(t(10 + i) + .milliseconds(500), "sample") {
                let storage = sim.world.trace.events.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
                if storage != lastStorage { storageChanges += 1 }
                lastStorage = storage
            }
        }
        sim.run()
        #expect(phone.inbox.count == Int(pushes))
        // Appending in place moves the storage only when the array grows (about log2 of the
        // events); copying on every recorded event moved it at every sample.
        #expect(storageChanges < 40, "the trace's storage moved \(storageChanges) times in \(pushes) samples")
    }
}

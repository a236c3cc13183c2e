import PushSim

/// A simulation for a benchmark run: neither the trace nor the request journal is kept (no
/// benchmark reads them, and a kept trace of millions of events would be what is measured), and
/// no event limit stops a run of millions of events.
public func benchmarkSimulation(seed: UInt64) -> Simulation {
    let sim = Simulation(seed: seed)
    sim.world.isRecordingTrace = false
    sim.world.journal.isRecording = false
    sim.world.limits.maxEvents = Int.max
    return sim
}

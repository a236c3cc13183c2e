import Foundation
import PushSim

/// Scenario files: decoded (`ScenarioSource`: UTF-8 checked, control characters refused),
/// parsed (`ScenarioParser`), and, when they parse, run (`ScenarioRunner`) with the run's limits
/// capped at 5,000 events and 30 days, so that the runtime paths (devices, backends, the hub,
/// faults, expectations, invariants) are covered too. `pushsim run` answers a bad file with
/// `file:line:col` diagnostics and exit code 2; nothing may trap.
public enum ScenarioSurface {
    /// Worlds with more devices than this are parsed but not run (a population of 100,000 phones
    /// is legal, but would make one input take seconds).
    public static let maxDevicesRun = 2_000

    /// The surface, its corpus read from the `.scenario` files under `corpusDirectory`.
    public static func make(corpusDirectory: String) -> FuzzSurface {
        let (files, _) = PushSim.scenarioFiles(in: [corpusDirectory])
        let corpus = files.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        // Every statement line of the corpus, for the generator to recombine.
        let lines: [String] = corpus.flatMap { file in
            String(decoding: file, as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("#") && !$0.hasPrefix("scenario ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        return FuzzSurface(name: "scenario",
                           summary: "scenario file bytes into ScenarioSource, ScenarioParser and ScenarioRunner (exit 2 with diagnostics, never a trap)",
                           corpus: corpus, generate: { random in generate(&random, lines: lines) }, prefersText: true,
                           inputsPerProcess: 20_000, run: run)
    }

    /// Runs one scenario file's bytes; the outcome names how far it got.
    @Sendable public static func run(_ bytes: [UInt8]) -> String {
        guard case .success(let text) = ScenarioSource.decode(bytes, path: "fuzz.scenario") else { return "not-utf8" }
        let scenario: Scenario
        switch ScenarioParser.parse(text, path: "fuzz.scenario") {
        case .failure(let failure):
            return "diagnostic:" + outcomeLabel(failure.diagnostics.first?.message.split(separator: " ").prefix(2).joined(separator: " ") ?? "")
        case .success(let parsed): scenario = parsed
        }
        guard scenario.devices.count <= maxDevicesRun else { return "parsed-not-run" }
        var capped = scenario
        capped.settings += [.limitEvents(5_000), .limitTime(.days(30))]
        switch ScenarioRunner.run(capped) {
        case .failure: return "run-refused"
        case .success(let report): return report.end.isLimit ? "limit" : (report.passed ? "passed" : "failed")
        }
    }

    /// Hostile statements the corpus does not have: durations and counts at the 64-bit limits.
    static let extremes = [
        "hub ttl 99999999999d", "hub ttl 9223372036854775807s", "limit time 99999999999999d", "limit events 9223372036854775807",
        "network latency 99999999999d", "network latency 1ms..99999999999999d", "fault apns slow 99999999999d from 0s to 9999999999d",
        "fault fcm unavailable from 0s to 99999999999999d", "at 9223372036854775807s bob-iphone install", "at +99999999999d bob-iphone launch",
        "advance 99999999999d", "expect bob-iphone shows \"x\" by 99999999999999d", "seed 18446744073709551616",
        "devices fans 2001 ios,android,windows user fan-{n}", "network loss 9223372036854775807/1",
        "operator send apple \"{\\\"aps\\\":{}}\" to \"" + String(repeating: "(", count: 300) + "x" + String(repeating: ")", count: 300) + "\"",
    ]

    /// A scenario made of statements taken from the corpus, in random order, with now and then
    /// one of ``extremes``: mostly well formed, with names that rarely agree.
    static func generate(_ random: inout SeededRandom, lines: [String]) -> [UInt8] {
        var text = "scenario \"generated\"\nseed \(random.int(below: 100))\ndevice bob-iphone ios user bob\ndevice alice-pixel android user alice\n"
        for _ in 0..<(2 + random.int(below: 24)) {
            if random.int(below: 10) == 0 {
                text += random.pick(extremes)! + "\n"
            } else if let line = random.pick(lines) {
                text += line + "\n"
            }
        }
        return Array(text.utf8)
    }
}

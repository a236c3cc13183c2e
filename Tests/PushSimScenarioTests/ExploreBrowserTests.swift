import Testing
import PushSimKernel
import PushSimBackend
@testable import PushSimScenario

/// `pushsim explore --browsers`: browsers join generated worlds without changing anything else a
/// seed writes, and the hardened worlds with browsers converge.
@Suite("Exploration with browsers")
struct ExploreBrowserTests {
    private func options(browsers: Bool) -> ExploreOptions {
        var options = ExploreOptions(flavour: .hardened)
        options.browsers = browsers
        return options
    }

    /// The seed's other statements are the same with browsers on (their choices come from a
    /// stream of their own): every line browsers do not add is a line of the plain world, in
    /// order, but for the numbers of the app's messages, which count lines.
    @Test func browsersOnlyAddLines() {
        var sawBrowser = false
        for seed: UInt64 in 1...20 {
            let plain = ExploreWorkload.scenario(seed: seed, options: options(browsers: false)).split(separator: "\n")
            let with = ExploreWorkload.scenario(seed: seed, options: options(browsers: true))
            #expect(with == ExploreWorkload.scenario(seed: seed, options: options(browsers: true)))
            let lines = with.split(separator: "\n")
            let names = lines.compactMap { $0.hasPrefix("browser ") ? $0.split(separator: " ")[1] : nil }
            sawBrowser = sawBrowser || !names.isEmpty
            let others = lines.filter { line in
                line != "app-server site" && !line.contains(" site push ") && !names.contains { line.split(separator: " ").contains($0) }
            }
            func unnumbered(_ line: Substring) -> String {
                guard let m = line.range(of: "send \"m") else { return String(line) }
                return String(line[..<m.upperBound]) + line[m.upperBound...].drop { $0.isNumber }
            }
            #expect(others.map(unnumbered) == plain.map(unnumbered), "seed \(seed)")
        }
        #expect(sawBrowser)
    }

    @Test func worldsWithBrowsersConverge() {
        for seed: UInt64 in 1...30 {
            let outcome = Explorer.explore(seed: seed, options: options(browsers: true))
            #expect(outcome.verdict.passed, "seed \(seed): \(outcome.verdict.failures.map(\.check))")
        }
    }
}

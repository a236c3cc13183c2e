import Foundation
import FuzzSurfaces

/// One surface's run: every corpus entry once, unmutated, then mutated inputs until `--runs`
/// inputs have run. Each input is armed in ``CrashCapture`` first; an input that reaches an
/// outcome not seen before joins the corpus; one that takes longer than `--slow-ms` is saved as
/// `slow-<surface>-<n>.bin` (not a failure: a lead for a hang). Prints inputs, wall-clock rate
/// (the tool may time itself; nothing inside the simulation sees the wall clock) and the outcome
/// classes seen.
///
/// Surfaces that build a world per input run at most ``FuzzSurface/inputsPerProcess`` inputs per
/// process (PushSim's worlds are never freed: their hosts and the world hold each other), so a
/// long run is a series of child processes, chunk `c` running inputs `c × size ..< (c + 1) × size`
/// from its own stream (`fuzz/<surface>/<c>`); the chunks' counts are merged in the report.
enum SurfaceRun {
    /// What a run (or a chunk of one) saw.
    struct Stats {
        var inputs = 0, slow = 0, corpusStart = 0, corpusEnd = 0
        var seconds = 0.0
        var outcomes: [String: Int] = [:]   // counted; printed sorted
    }

    /// Runs `surface` as `options` say: in this process, or chunk by chunk in child processes.
    static func run(_ surface: FuzzSurface, options: FuzzOptions) -> Int32 {
        if let chunk = options.chunk {
            let stats = runInputs(surface, options: options, chunk: chunk)
            write(stats, to: statsFile(surface, chunk, options))
            return 0
        }
        guard options.runs > surface.inputsPerProcess else {
            report(surface, runInputs(surface, options: options, chunk: nil), options: options)
            return 0
        }
        var total = Stats()
        let chunks = (options.runs + surface.inputsPerProcess - 1) / surface.inputsPerProcess
        for c in 0..<chunks {
            fflush(nil)
            guard ChildProcess.run(options.childArguments(surface: surface.name) + ["--chunk", String(c)]) == .exited(0),
                  let stats = read(statsFile(surface, c, options)) else {
                print("\(surface.name): CRASH in inputs \(c * surface.inputsPerProcess)..<\(min(options.runs, (c + 1) * surface.inputsPerProcess))")
                return 1
            }
            try? FileManager.default.removeItem(atPath: statsFile(surface, c, options))
            total.inputs += stats.inputs; total.slow += stats.slow; total.seconds += stats.seconds
            total.corpusStart = c == 0 ? stats.corpusStart : total.corpusStart
            total.corpusEnd = max(total.corpusEnd, stats.corpusEnd)
            for (k, v) in stats.outcomes { total.outcomes[k, default: 0] += v }
            if c % 10 == 9 { print("  \(surface.name): \(total.inputs) inputs, \(total.outcomes.count) outcome classes so far") }
        }
        report(surface, total, options: options)
        return 0
    }

    /// Runs the inputs of one chunk (or, with `chunk` nil, of the whole run) in this process.
    static func runInputs(_ surface: FuzzSurface, options: FuzzOptions, chunk: Int?) -> Stats {
        let size = chunk == nil ? options.runs : surface.inputsPerProcess
        let first = (chunk ?? 0) * size
        let range = first..<min(options.runs, first + size)
        var mutator = Mutator(seed: options.seed, surface: surface, maxLength: options.maxLength, chunk: chunk ?? 0)
        var stats = Stats(corpusStart: mutator.corpus.count)
        var parts = Set<String>()           // looked up only
        let start = DispatchTime.now().uptimeNanoseconds
        var lastReport = start
        for n in range {
            let input = n < surface.corpus.count ? surface.corpus[n] : mutator.next()
            let file = "\(options.out)/crash-\(surface.name)-\(n).bin"
            CrashCapture.arm(input, path: file, message: crashMessage(surface.name, n, file, options))
            let before = DispatchTime.now().uptimeNanoseconds
            let outcome = surface.run(input)
            let now = DispatchTime.now().uptimeNanoseconds
            if now - before > UInt64(options.slowMilliseconds) * 1_000_000 {   // not a crash, but worth a look: save it
                let slow = "\(options.out)/slow-\(surface.name)-\(n).bin"
                _ = FileManager.default.createFile(atPath: slow, contents: Data(input))
                print("  \(surface.name): input \(n) took \((now - before) / 1_000_000) ms (\(outcome)), saved to \(slow)")
                stats.slow += 1
            }
            if stats.outcomes[outcome] == nil {
                // A new part of an outcome (one request's answer, one error kind) makes the input worth mutating further.
                var new = false
                for part in outcome.split(separator: ",") where parts.insert(String(part)).inserted { new = true }
                if new, n >= surface.corpus.count { mutator.remember(input) }
            }
            stats.outcomes[outcome, default: 0] += 1
            stats.inputs += 1
            if chunk == nil, n % 1_024 == 0, now - lastReport > 30_000_000_000 {   // a progress line every 30 s
                print("  \(surface.name): \(n) inputs, \(stats.outcomes.count) outcome classes so far")
                fflush(nil)
                lastReport = now
            }
        }
        CrashCapture.disarm()
        stats.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        stats.corpusEnd = mutator.corpus.count
        return stats
    }

    static func report(_ surface: FuzzSurface, _ s: Stats, options: FuzzOptions) {
        let parts = Set(s.outcomes.keys.flatMap { $0.split(separator: ",").map(String.init) })
        let top = s.outcomes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(6)
            .map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        print(String(format: "%@: %d inputs in %.1f s (%.0f inputs/s), no crash, %d slow; %d outcome classes, %d distinct answers (corpus %d → %d); most seen: %@",
                     surface.name, s.inputs, s.seconds, Double(s.inputs) / max(s.seconds, 1e-9), s.slow, s.outcomes.count, parts.count,
                     s.corpusStart, s.corpusEnd, top))
        if options.listOutcomes {
            for (k, v) in s.outcomes.sorted(by: { $0.key < $1.key }) { print("    \(v)\t\(k)") }
        }
        fflush(nil)
    }

    /// What the crash handler prints: where the input is and the commands that replay it.
    static func crashMessage(_ surface: String, _ n: Int, _ file: String, _ o: FuzzOptions) -> String {
        """

        pushsim-fuzz: CRASH on \(surface) input \(n) (seed \(o.seed)); input saved to \(file)
          replay:     swift run pushsim-fuzz --replay \(file) --surface \(surface)
          regenerate: swift run -c release pushsim-fuzz --surface \(surface) --seed \(o.seed) --runs \(n + 1) --max-len \(o.maxLength)
          shrink:     swift run pushsim-fuzz --minimize \(file) --surface \(surface)

        """
    }

    // MARK: A chunk's counts, handed to the parent in a file

    static func statsFile(_ surface: FuzzSurface, _ chunk: Int, _ o: FuzzOptions) -> String { "\(o.out)/.stats-\(surface.name)-\(chunk).tsv" }

    static func write(_ s: Stats, to path: String) {
        var text = "\(s.inputs)\t\(s.seconds)\t\(s.slow)\t\(s.corpusStart)\t\(s.corpusEnd)\n"
        for (k, v) in s.outcomes.sorted(by: { $0.key < $1.key }) {
            text += "\(v)\t\(k.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " "))\n"
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    static func read(_ path: String) -> Stats? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let head = lines.first?.split(separator: "\t") ?? []
        guard head.count == 5, let inputs = Int(head[0]), let seconds = Double(head[1]), let slow = Int(head[2]),
              let corpusStart = Int(head[3]), let corpusEnd = Int(head[4]) else { return nil }
        var s = Stats(inputs: inputs, slow: slow, corpusStart: corpusStart, corpusEnd: corpusEnd, seconds: seconds)
        for line in lines.dropFirst() where !line.isEmpty {
            guard let tab = line.firstIndex(of: "\t"), let count = Int(line[..<tab]) else { continue }
            s.outcomes[String(line[line.index(after: tab)...]), default: 0] += count
        }
        return s
    }
}

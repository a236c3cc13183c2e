import Testing
import Foundation
import PushSimKernel
import PushSimNetwork
@testable import PushSimScenario

/// While a run's trace is not kept, the world builds only the kinds of event the checkers and the
/// run memory say they read (``InvariantChecker/reads``, ``RunMemory/reads``). Over the trace of
/// every scenario in the library, each of them judges the same given only its own kinds as given
/// every event, and every event that carries a defect mark is of a kind the run memory reads.
@Suite struct CheckerReadsTests {
    /// The kept trace of every library scenario but the 10,000-device one (whose run with and
    /// without its trace `TraceKeepingTests` compares whole).
    private static let traces: [(file: String, events: [TraceEvent])] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Scenarios")
        let files = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".scenario") && !$0.hasPrefix("scale/") }.sorted()
        return files.compactMap { name in
            let path = folder.appendingPathComponent(name).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  case .success(let scenario) = ScenarioParser.parse(text, path: path),
                  case .success(let report) = ScenarioRunner.run(scenario) else { return nil }
            return (name, report.trace)
        }
    }()

    private static func checkers() -> [InvariantChecker] {
        InvariantCheckers.make(crossUserEnforced: true, logoutPrivacyEnforced: true)
    }

    @Test func everyCheckerJudgesTheSameFromTheKindsItReads() {
        #expect(Self.traces.count > 40)
        for (file, events) in Self.traces {
            let (all, own) = (Self.checkers(), Self.checkers())
            for (a, b) in zip(all, own) {
                for e in events {
                    a.observe(e)
                    if b.reads.contains(e.kind) { b.observe(e) }
                }
                let (whole, read) = (a.result(leftovers: []), b.result(leftovers: []))
                #expect(whole == read, "\(whole.id) in \(file)")
            }
        }
    }

    @Test func theRunMemoryRemembersTheSameFromTheKindsItReads() {
        var marked = 0
        for (file, events) in Self.traces {
            let (all, own) = (RunMemory(), RunMemory())
            for e in events {
                all.observe(e)
                if RunMemory.reads.contains(e.kind) { own.observe(e) }
                if e[.defect] != nil {
                    marked += 1
                    #expect(RunMemory.defectMarkingKinds.contains(e.kind), "\(e.kind) carries a defect mark in \(file)")
                }
            }
            #expect(all.defects == own.defects, "\(file)")
            let end = events.last?.time ?? .zero
            for device in Set(events.filter { $0.layer == "device" }.map(\.host)).sorted() {
                #expect(all.user(on: device, at: end) == own.user(on: device, at: end), "\(device) in \(file)")
                #expect(all.badge(on: device, by: end) == own.badge(on: device, by: end), "\(device) in \(file)")
                #expect(all.wakeCount(on: device, by: end) == own.wakeCount(on: device, by: end), "\(device) in \(file)")
            }
        }
        #expect(marked > 0, "the library marks defects")
    }
}

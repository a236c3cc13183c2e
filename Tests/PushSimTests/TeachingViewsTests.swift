import Foundation
import Testing
import PushSim

/// The Mermaid sequence diagram and the step-by-step explanation.
@Suite struct TeachingViewsTests {
    static let walkthrough = Repo.scenarios + "/tutorial/walkthrough.scenario"
    static let golden = Repo.fixtures + "/walkthrough.mmd"

    /// Golden file: regenerate with `swift run pushsim run Scenarios/tutorial/walkthrough.scenario
    /// --diagram Tests/PushSimTests/Fixtures/walkthrough.mmd` after a deliberate change, and review the diff.
    @Test func walkthroughDiagramMatchesTheGoldenFile() throws {
        let report = try PushSim.run(path: Self.walkthrough).get()
        let expected = try String(contentsOfFile: Self.golden, encoding: .utf8)
        #expect(SequenceDiagram.mermaid(report) == expected)
    }

    @Test func diagramShowsTheFullPathOfOneNotification() throws {
        let report = try PushSim.run(path: Self.walkthrough).get()
        let lines = SequenceDiagram.mermaid(report).split(separator: "\n").map(String.init)
        func index(_ fragment: String, after start: Int) -> Int? {
            lines.indices.first { $0 > start && lines[$0].contains(fragment) }
        }
        // Participants: bob-iphone P1, alice-pixel P2, carol-surface P3, backend P4, hub P5, APNs P6.
        #expect(lines.contains("    participant P1 as bob-iphone (ios, bob)"))
        #expect(lines.contains("    participant P6 as APNs"))
        // alice → backend → hub → APNs → bob, and bob shows it, in that order.
        let step = try #require(index("alice-pixel send #quot;Hi Bob#quot;", after: -1) ?? index("alice-pixel send \"Hi Bob\"", after: -1))
        let toBackend = try #require(index("P2->>P4: POST /api/notifications?pns=apns&to_tag=bob", after: step))
        let toHub = try #require(index("P4->>P5: POST /notifyusers/messages/", after: toBackend))
        let toAPNs = try #require(index("P5->>P6: POST /3/device/", after: toHub))
        let toDevice = try #require(index("P6->>P1: POST /push", after: toAPNs))
        #expect(index("Note over P1: shows \"From alice: Hi Bob\"", after: toDevice) != nil)
    }

    @Test func diagramMarksGoneAndDefects() throws {
        let report = try PushSim.run(path: Repo.scenarios + "/tutorial/stale-registration.scenario").get()
        let text = SequenceDiagram.mermaid(report)
        #expect(text.contains("-->>P3: 410 Gone") || text.contains(": 410 Gone"))
        #expect(text.contains("defect e: backend.exception"))
    }

    @Test func mermaidEscapesItsSpecialCharacters() {
        #expect(SequenceDiagram.escape("a;b#c<d>") == "a#59;b#35;c#lt;d#gt;")
    }

    @Test func explainNarratesEveryStepAndTheOutcome() throws {
        let r = try runPushsim(["explain", Repo.scenarios + "/tutorial/alice-notifies-bob.scenario", "--wide"])   // whole lines
        #expect(r.status == 0)
        #expect(r.out.contains("[0+00:00:05.000] alice-pixel send \"Hi Bob\" to bob via apns"))
        #expect(r.out.contains("the hub accepts apple notification NH-20260101000005020-377f9f105465547fab4971669a07d002-05 for username:bob || from:alice and finds 1 matching registration(s)"))
        #expect(r.out.contains("bob-iphone shows \"From alice: Hi Bob\""))
        #expect(r.out.contains("Outcome: 2 of 2 expectations held."))
    }

    @Test func diagramOptionWritesMarkdownForSeveralScenarios() throws {
        let path = temporaryPath("diagrams.md")
        let r = try runPushsim(["run", Repo.scenarios + "/tutorial", "--diagram", path])
        #expect(r.status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: "```mermaid").count - 1 == 4)
        #expect(try runPushsim(["run", Repo.scenarios + "/tutorial", "--diagram", temporaryPath("x.mmd")]).status == 2)
    }
}

import Foundation
import Testing
import FuzzSurfaces

/// The fuzzer's surfaces, from the tests: every input saved under `Fixtures/fuzz/<surface>/`
/// (crashers the fuzzer found, once fixed, and hostile inputs worth keeping) is run again, and a
/// few hundred seeded inputs per surface must not crash either.
@Suite struct FuzzFindsTests {
    private static let surfaces = [ScenarioSurface.make(corpusDirectory: Repo.scenarios), WireSurface.make()] + CodecSurfaces.all

    @Test func savedFindsStillPass() throws {
        let root = Repo.fixtures + "/fuzz"
        var replayed = 0
        for surface in Self.surfaces {
            let dir = root + "/" + surface.name
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for name in names.sorted() {
                let bytes = try #require(FileManager.default.contents(atPath: dir + "/" + name))
                #expect(!surface.run([UInt8](bytes)).isEmpty, "\(surface.name)/\(name)")
                replayed += 1
            }
        }
        #expect(replayed >= 5)
    }

    @Test func aSeededSmokeOfEverySurface() {
        for surface in Self.surfaces {
            var mutator = Mutator(seed: 7, surface: surface.name, maxLength: 2_048)
            var classes: Set<String> = []
            for _ in 0..<(surface.name == "scenario" ? 60 : 300) { classes.insert(surface.run(mutator.next(surface.corpus))) }
            #expect(!classes.isEmpty, "\(surface.name)")
        }
    }

    @Test func theMutatorIsDeterministic() {
        var a = Mutator(seed: 3, surface: "json", maxLength: 512), b = Mutator(seed: 3, surface: "json", maxLength: 512)
        let corpus = [Array(#"{"a":1}"#.utf8)]
        #expect((0..<50).map { _ in a.next(corpus) } == (0..<50).map { _ in b.next(corpus) })
    }
}
